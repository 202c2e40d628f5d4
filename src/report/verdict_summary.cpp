#include "report/verdict_summary.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

namespace sf::report {

namespace {

using namespace sf::history;

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
  std::string text = fmt::format("{:+.6g} {}", *o.effect, e.unit);
  if (o.noise) text += fmt::format(" (noise {:.6g})", *o.noise);
  return text;
}

std::string line_for(const Evaluation& e, bool markdown) {
  std::string what = e.series_label;
  if (e.target) what += " @ " + (e.target->revision.empty() ? e.target->result_id : e.target->revision);
  std::string why = e.outcome.verdict == Verdict::kIndeterminate
                        ? e.outcome.reason + (e.detail.empty() ? "" : ": " + e.detail)
                        : effect_text(e);
  return markdown ? fmt::format("| {} | {} |\n", what, why) : fmt::format("  {}: {}\n", what, why);
}

std::string header(const ComparisonDocument& d) {
  std::string h = fmt::format("{} comparison, method {} v{} (k={:g}), identity policy v{}", d.mode, d.method.name,
                              d.method.version, d.method.k, d.policy_version);
  if (d.run)
    h += fmt::format("; run {} profile {}: {} = {} (baseline) vs {}", d.run->run_key, d.run->profile, d.run->coordinate,
                     d.run->baseline, d.run->target);
  if (!d.batch_target.empty()) h += "; target " + d.batch_target;
  return h;
}

std::string render(const ComparisonDocument& d, bool markdown) {
  const std::string bullet = markdown ? "- " : "  ";
  std::string out = markdown ? "## Performance verdict\n\n" + header(d) + "\n" : header(d) + "\n";
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
    for (const Evaluation* e : rows) out += line_for(*e, markdown);
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
    for (const std::string& c : e.caveats) caveats.push_back(e.series_label + ": " + c);
  }
  if (!caveats.empty()) {
    out += markdown ? "\n### Caveats\n\n" : "\nCaveats:\n";
    for (const std::string& c : caveats) out += bullet + c + "\n";
  }
  if (d.evaluations.empty() && d.missing.empty() && d.failed_invariants.empty()) out += "\nNothing to compare.\n";
  return out;
}

}  // namespace

std::string verdict_text(const ComparisonDocument& document) {
  return render(document, false);
}
std::string verdict_markdown(const ComparisonDocument& document) {
  return render(document, true);
}

int64_t count_verdict(const ComparisonDocument& document, Verdict verdict) {
  int64_t n = 0;
  for (const Evaluation& e : document.evaluations) n += e.outcome.verdict == verdict ? 1 : 0;
  return n;
}

}  // namespace sf::report
