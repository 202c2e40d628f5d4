#include "compare/plan_diff.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "compare/plan_fingerprint.h"

namespace sf::compare {

namespace {

// What one tree's nodes are compared by, computed once.
struct TreeKeys {
  std::vector<std::string> name;    // normalize_stage_name(node_name)
  std::vector<std::string> text;    // normalized simple string
  std::vector<std::string> digest;  // of the subtree: name, text and the children's digests
  std::vector<bool> wrapper;        // codegen or input adapter
};

bool valid(const model::PlanTree& tree, int32_t id) { return id >= 0 && static_cast<size_t>(id) < tree.nodes.size(); }

// Preorder node ids make every child's id larger than its parent's: digests are built from the
// last node back, with no recursion (a plan can be thousands of nodes deep).
TreeKeys keys_of(const model::PlanTree& tree, const ComparisonNormalizer& normalizer) {
  const size_t n = tree.nodes.size();
  TreeKeys k;
  k.name.resize(n);
  k.text.resize(n);
  k.digest.resize(n);
  k.wrapper.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const model::PlanNode& node = tree.nodes[i];
    k.name[i] = normalize_stage_name(node.node_name);
    k.text[i] = normalizer.normalize(node.simple_string);
    k.wrapper[i] = is_codegen_or_input_adapter(node);
  }
  for (size_t i = n; i-- > 0;) {
    std::string text = k.name[i];
    text += '\x1f';
    if (!k.wrapper[i]) text += k.text[i];
    text += '(';
    for (int32_t child : tree.nodes[i].children) {
      if (valid(tree, child) && static_cast<size_t>(child) > i) text += k.digest[static_cast<size_t>(child)];
      text += ',';
    }
    k.digest[i] = fingerprint(text + ")");
  }
  return k;
}

class Differ {
 public:
  Differ(const model::PlanTree& base, const model::PlanTree& cand, const ComparisonNormalizer& normalizer)
      : base_(base),
        cand_(cand),
        bk_(keys_of(base, normalizer)),
        ck_(keys_of(cand, normalizer)),
        base_pair_(base.nodes.size()),
        cand_pair_(cand.nodes.size()) {}

  PlanDiff run() {
    pair_identical_subtrees();
    pair_top_down();
    PlanDiff diff;
    diff.base.resize(base_.nodes.size(), NodeChange::kRemoved);
    diff.cand.resize(cand_.nodes.size(), NodeChange::kAdded);
    diff.base_counterpart = base_pair_;
    for (size_t b = 0; b < base_.nodes.size(); ++b) {
      if (!base_pair_[b]) {
        ++diff.removed;
        continue;
      }
      const size_t c = static_cast<size_t>(*base_pair_[b]);
      const bool same = bk_.wrapper[b] || bk_.text[b] == ck_.text[c];
      diff.base[b] = diff.cand[c] = same ? NodeChange::kSame : NodeChange::kChanged;
      ++(same ? diff.same : diff.changed);
    }
    for (size_t c = 0; c < cand_.nodes.size(); ++c) {
      if (!cand_pair_[c]) ++diff.added;
    }
    return diff;
  }

 private:
  void pair(size_t b, size_t c) {
    base_pair_[b] = static_cast<int32_t>(c);
    cand_pair_[c] = static_cast<int32_t>(b);
  }

  // Two identical subtrees, node by node (their shapes are equal: their digests are).
  void pair_subtrees(size_t b, size_t c) {
    std::vector<std::pair<size_t, size_t>> todo{{b, c}};
    while (!todo.empty()) {
      auto [x, y] = todo.back();
      todo.pop_back();
      if (base_pair_[x] || cand_pair_[y]) continue;
      pair(x, y);
      const auto& xs = base_.nodes[x].children;
      const auto& ys = cand_.nodes[y].children;
      for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
        if (valid(base_, xs[i]) && valid(cand_, ys[i])) todo.emplace_back(xs[i], ys[i]);
      }
    }
  }

  void pair_identical_subtrees() {
    std::unordered_map<std::string_view, std::vector<size_t>> cand_by_digest;  // preorder within each
    for (size_t c = 0; c < cand_.nodes.size(); ++c) cand_by_digest[ck_.digest[c]].push_back(c);
    for (size_t b = 0; b < base_.nodes.size(); ++b) {
      if (base_pair_[b]) continue;
      const auto it = cand_by_digest.find(bk_.digest[b]);
      if (it == cand_by_digest.end()) continue;
      for (size_t c : it->second) {
        if (!cand_pair_[c]) {
          pair_subtrees(b, c);
          break;
        }
      }
    }
  }

  void pair_top_down() {
    std::vector<std::pair<size_t, size_t>> todo;
    if (!base_.nodes.empty() && !cand_.nodes.empty() && !base_pair_[0] && !cand_pair_[0] && bk_.name[0] == ck_.name[0])
      pair(0, 0);
    for (size_t b = 0; b < base_.nodes.size(); ++b) {
      if (base_pair_[b]) todo.emplace_back(b, static_cast<size_t>(*base_pair_[b]));
    }
    while (!todo.empty()) {
      auto [x, y] = todo.back();
      todo.pop_back();
      std::vector<size_t> xs, ys;
      for (int32_t child : base_.nodes[x].children) {
        if (valid(base_, child) && !base_pair_[static_cast<size_t>(child)]) xs.push_back(static_cast<size_t>(child));
      }
      for (int32_t child : cand_.nodes[y].children) {
        if (valid(cand_, child) && !cand_pair_[static_cast<size_t>(child)]) ys.push_back(static_cast<size_t>(child));
      }
      for (auto [b, c] : lcs_by_name(xs, ys)) {
        pair(b, c);
        todo.emplace_back(b, c);
      }
    }
  }

  // Children lists are short (a join has two): a plain LCS table.
  std::vector<std::pair<size_t, size_t>> lcs_by_name(const std::vector<size_t>& xs,
                                                     const std::vector<size_t>& ys) const {
    const size_t n = xs.size(), m = ys.size();
    std::vector<std::vector<size_t>> t(n + 1, std::vector<size_t>(m + 1, 0));
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        t[i][j] = bk_.name[xs[i]] == ck_.name[ys[j]] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
      }
    }
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t i = 0, j = 0; i < n && j < m;) {
      if (bk_.name[xs[i]] == ck_.name[ys[j]]) {
        out.emplace_back(xs[i++], ys[j++]);
      } else if (t[i + 1][j] >= t[i][j + 1]) {
        ++i;
      } else {
        ++j;
      }
    }
    return out;
  }

  const model::PlanTree& base_;
  const model::PlanTree& cand_;
  const TreeKeys bk_;
  const TreeKeys ck_;
  std::vector<std::optional<int32_t>> base_pair_;
  std::vector<std::optional<int32_t>> cand_pair_;
};

}  // namespace

std::string_view to_string(NodeChange change) {
  switch (change) {
    case NodeChange::kSame: return "same";
    case NodeChange::kChanged: return "changed";
    case NodeChange::kRemoved: return "removed";
    case NodeChange::kAdded: return "added";
  }
  return "same";
}

PlanDiff diff_plans(const model::PlanTree& base, const model::PlanTree& cand, const ComparisonNormalizer& normalizer) {
  return Differ(base, cand, normalizer).run();
}

}  // namespace sf::compare
