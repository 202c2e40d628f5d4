#include "report/verdict_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/units.h"
#include "report/markdown_cell.h"
#include "results/series.h"

namespace sf::report {

namespace {

using namespace sf::results;

struct Section {
  const char* title;
  std::vector<Verdict> verdicts;
};

const Section kSections[] = {
    {"Regressed", {Verdict::kRegressed}},
    {"Improved", {Verdict::kImproved}},
    {"Changed (no direction)", {Verdict::kChanged}},
    {"No change detected", {Verdict::kNoChangeDetected}},
    {"Indeterminate", {Verdict::kIndeterminate}},
};

// "+1.50 GiB", "-2m 05s", "+1,204 rows", "+0.25 ratio": an absolute change in its unit.
std::string signed_amount(double value, const std::string& unit) {
  const char* sign = value < 0 ? "-" : "+";
  const double size = std::abs(value);
  if (unit == "bytes") return fmt::format("{}{}", sign, units::format_bytes(std::llround(size)));
  if (unit == "ms") return fmt::format("{}{}", sign, units::format_duration_ms(std::llround(size)));
  if (size >= 1e4 && size < 9e15 && size == std::floor(size)) {
    return fmt::format("{}{} {}", sign, units::format_count(std::llround(size)), unit);
  }
  return fmt::format("{}{:.6g} {}", sign, size, unit);
}

std::string effect_text(const Evaluation& e) {
  const MethodOutcome& o = e.outcome;
  if (!o.effect) return "";
  if (o.effect_measure == "ratio") {
    return fmt::format("ratio {:.4f} [{:.4f}, {:.4f}] over {} pairs", *o.effect, o.interval_low.value_or(NAN),
                       o.interval_high.value_or(NAN), o.evidence_count);
  }
  if (o.effect_measure == "relative") {
    std::string text = fmt::format("{:+.2f}%", *o.effect * 100);
    if (o.noise)
      text += fmt::format(" (noise {:.2f}%{}, k x noise {:.2f}%)", *o.noise * 100, o.provisional ? " provisional" : "",
                          o.threshold.value_or(0) * 100);
    return text +
           fmt::format(", {} {}", o.evidence_count, e.ordering == "paired-rounds" ? "pairs" : "reference points");
  }
  std::string text = signed_amount(*o.effect, e.unit);
  if (o.noise) text += fmt::format(" (noise {})", signed_amount(*o.noise, e.unit).substr(1));
  return text;
}

// The coordinates (subject included) every evaluation has with the same value.
Coordinates shared_coordinates(const VerdictDocument& d) {
  if (d.evaluations.size() < 2) return {};
  Coordinates shared = d.evaluations.front().identity;
  for (const Evaluation& e : d.evaluations) {
    for (auto it = shared.begin(); it != shared.end();) {
      auto found = e.identity.find(it->first);
      it = found != e.identity.end() && found->second == it->second ? std::next(it) : shared.erase(it);
    }
  }
  return shared;
}

std::string target_name(const PointRef& target) {
  const std::string short_id = target.result_id.substr(0, 12);
  return target.revision.empty() ? short_id : fmt::format("{} ({})", target.revision, short_id);
}

bool unusable_target(const Evaluation& e) { return e.outcome.reason == "target-unusable" && e.target.has_value(); }

// "target c6 (r-42bee3820d): target status is partial" -> how many series it left indeterminate,
// in the order the targets first appear.
std::vector<std::pair<std::string, size_t>> unusable_target_lines(const VerdictDocument& d) {
  std::vector<std::pair<std::string, size_t>> lines;
  for (const Evaluation& e : d.evaluations) {
    if (!unusable_target(e)) continue;
    std::string text = fmt::format("target {}: {}", target_name(*e.target), e.detail);
    auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& line) { return line.first == text; });
    if (it == lines.end()) {
      lines.emplace_back(std::move(text), 1);
    } else {
      ++it->second;
    }
  }
  return lines;
}

std::string line_for(const Evaluation& e, const Coordinates& shared, bool markdown) {
  std::string what = series_label(e.identity, e.quantity, shared);
  if (e.target) what += " @ " + (e.target->revision.empty() ? e.target->result_id : e.target->revision);
  std::string why = e.outcome.verdict == Verdict::kIndeterminate
                        ? e.outcome.reason + (e.detail.empty() ? "" : ": " + e.detail)
                        : effect_text(e);
  return markdown ? fmt::format("| {} | {} |\n", markdown_cell(what), markdown_cell(why))
                  : fmt::format("  {}: {}\n", what, why);
}

std::string header(const VerdictDocument& d, const VerdictSummaryOptions& options, const Coordinates& shared,
                   bool markdown) {
  std::string h = fmt::format("{} comparison, method {} v{} (k={:g}), identity policy v{}", d.mode, d.method.name,
                              d.method.version, d.method.k, d.policy_version);
  if (d.run)
    h += fmt::format("; run {} profile {}: {} = {} (baseline) vs {}", d.run->run_key, d.run->profile, d.run->coordinate,
                     d.run->baseline, d.run->target);
  if (!d.batch_target.empty()) h += "; target " + d.batch_target;
  const std::string end = markdown ? "  \n" : "\n";  // a Markdown line break
  h += end;
  if (!options.store.empty()) h += "results from the store " + options.store + end;
  if (!shared.empty()) {
    std::string facts;
    for (const auto& [path, value] : shared) facts += fmt::format("{}{}={}", facts.empty() ? "" : ", ", path, value);
    h += "every series: " + facts + end;
  }
  return h;
}

std::string render(const VerdictDocument& d, const VerdictSummaryOptions& options, bool markdown) {
  const std::string bullet = markdown ? "- " : "  ";
  const Coordinates shared = shared_coordinates(d);
  std::string out =
      markdown ? "## Performance verdict\n\n" + header(d, options, shared, true) : header(d, options, shared, false);
  for (const Section& section : kSections) {
    std::vector<const Evaluation*> rows;
    for (const Evaluation& e : d.evaluations) {
      for (Verdict v : section.verdicts) {
        if (e.outcome.verdict == v) rows.push_back(&e);
      }
    }
    if (rows.empty()) continue;
    out += markdown ? fmt::format("\n### {} ({})\n\n| series | evidence |\n|---|---|\n", section.title, rows.size())
                    : fmt::format("\n{} ({}):\n", section.title, rows.size());
    for (const Evaluation* e : rows) {
      if (unusable_target(*e)) continue;  // said once per target in the header
      out += line_for(*e, shared, markdown);
    }
    if (section.verdicts.front() == Verdict::kIndeterminate) {
      for (const auto& [line, count] : unusable_target_lines(d)) {
        const std::string what = units::format_counted(static_cast<int64_t>(count), "series", "series");
        const std::string why = "target-unusable: " + line;
        out += markdown ? fmt::format("| {} | {} |\n", markdown_cell(what), markdown_cell(why))
                        : fmt::format("  {}: {}\n", what, why);
      }
    }
  }
  if (!d.missing.empty()) {
    out += markdown ? fmt::format("\n### Missing ({})\n\n", d.missing.size())
                    : fmt::format("\nMissing ({}):\n", d.missing.size());
    for (const MissingSeries& m : d.missing) {
      out += fmt::format("{}{} (last seen in {})\n", bullet,
                         m.series_label.empty() ? m.series_fingerprint : m.series_label,
                         m.last_result_id.empty() ? "no result" : m.last_result_id);
    }
  }
  if (!d.failed_invariants.empty()) {
    out += markdown ? "\n### Failed invariants (no verdicts for what they affect)\n\n"
                    : "\nFailed invariants (no verdicts for what they affect):\n";
    for (const FailedInvariant& f : d.failed_invariants) {
      out += fmt::format("{}{} [{}]: {}\n", bullet, f.name, f.unit_key.empty() ? "whole run" : f.unit_key, f.detail);
    }
  }
  std::vector<std::string> caveats = d.caveats;
  for (const Evaluation& e : d.evaluations) {
    for (const std::string& c : e.caveats) caveats.push_back(series_label(e.identity, e.quantity, shared) + ": " + c);
  }
  if (!caveats.empty()) {
    out += markdown ? "\n### Caveats\n\n" : "\nCaveats:\n";
    for (const std::string& c : caveats) out += bullet + c + "\n";
  }
  if (d.evaluations.empty() && d.missing.empty() && d.failed_invariants.empty()) out += "\nNothing to compare.\n";
  return out;
}

}  // namespace

std::string verdict_text(const VerdictDocument& document, const VerdictSummaryOptions& options) {
  return render(document, options, false);
}
std::string verdict_markdown(const VerdictDocument& document, const VerdictSummaryOptions& options) {
  return render(document, options, true);
}

std::vector<std::string> unusable_targets(const VerdictDocument& document) {
  std::vector<std::string> lines;
  for (const auto& [line, count] : unusable_target_lines(document)) {
    lines.push_back(
        fmt::format("{} ({})", line, units::format_counted(static_cast<int64_t>(count), "series", "series")));
  }
  return lines;
}

int64_t count_verdict(const VerdictDocument& document, Verdict verdict) {
  int64_t n = 0;
  for (const Evaluation& e : document.evaluations) n += e.outcome.verdict == verdict ? 1 : 0;
  return n;
}

}  // namespace sf::report
