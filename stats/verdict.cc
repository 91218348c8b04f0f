#include "stats/verdict.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "stats/family.hpp"
#include "stats/kolmogorov.hpp"

namespace acemq::stats {

bool Outcome::failed() const {
  return !range.ok() || std::find(rejected.begin(), rejected.end(), true) != rejected.end();
}

double Outcome::smallest_p() const {
  double p = 1.0;
  for (const TestResult& t : analysis.tests) p = std::min(p, t.p_value);
  return p;
}

std::vector<std::string> Outcome::rejected_names() const {
  std::vector<std::string> names;
  if (!range.ok()) names.emplace_back(kRange);
  for (std::size_t i = 0; i < analysis.tests.size() && i < rejected.size(); ++i) {
    if (rejected[i]) names.push_back(analysis.tests[i].name);
  }
  return names;
}

std::string Outcome::one_line() const {
  char line[256];
  std::snprintf(line, sizeof line, "%s: %.1f s, range %s, smallest p %.3g", job.name.c_str(),
                seconds, range.ok() ? "ok" : "FAILS", smallest_p());
  return line;
}

std::string outside_text(const RangeCheck& range) {
  if (range.ok()) return "ok";
  // The protocol's words for the non-finite (conformance/README.md), which
  // is how the adapter wrote them.
  const auto shortest = [](double x) {
    if (std::isnan(x)) return std::string("NaN");
    if (std::isinf(x)) return std::string(x > 0 ? "Infinity" : "-Infinity");
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, x).ptr;
    return std::string(text, end);
  };
  std::string out = std::to_string(range.outside) + " outside [" + shortest(range.lo) + ", " +
                    shortest(range.hi) + "]: ";
  for (std::size_t i = 0; i < range.shown_count(); ++i) {
    out += (i == 0 ? "" : ", ") + shortest(range.shown[i].value) + " (draw " +
           std::to_string(range.shown[i].draw) + ")";
  }
  if (range.outside > range.shown_count()) out += ", ...";
  return out;
}

bool RunReport::passed() const {
  return std::none_of(cells.begin(), cells.end(), [](const Outcome& o) { return o.failed(); }) &&
         std::all_of(known_bad.begin(), known_bad.end(),
                     [](const Outcome& o) { return o.failed(); }) &&
         !(resolution && resolution->rejected) && !(fleet && fleet->failed());
}

Outcome outcome_of(const JobInfo& job, const BatteryState& state, double seconds) {
  Outcome o;
  o.job = job;
  o.range = state.range;
  o.analysis = analyze(state);
  o.seconds = seconds;
  return o;
}

RunReport judge(std::vector<Outcome> outcomes, std::size_t family_size,
                std::optional<ResolutionOutcome> resolution, std::optional<FleetOutcome> fleet) {
  const double per_test = per_test_alpha(family_size);
  // Padded with p = 1 for cells left out of the run: Holm's thresholds are
  // then those of the full family.
  std::vector<double> p;
  for (const Outcome& o : outcomes) {
    if (!o.job.in_family) continue;
    for (const TestResult& t : o.analysis.tests) p.push_back(t.p_value);
  }
  const std::size_t resolution_index = p.size();
  if (resolution) p.push_back(resolution->result.p_value);
  const std::size_t fleet_index = p.size();
  if (fleet) {
    p.push_back(fleet->result.shared.p_value);
    p.push_back(fleet->result.clustered.p_value);
  }
  p.resize(std::max(p.size(), family_size), 1.0);
  const std::vector<bool> holm = holm_rejections(p, kFamilyAlpha);

  RunReport run;
  run.family_size = family_size;
  run.ks_critical = kolmogorov_critical_value(per_test);
  std::size_t k = 0;
  for (Outcome& o : outcomes) {
    o.rejected.clear();
    for (const TestResult& t : o.analysis.tests) {
      o.rejected.push_back(o.job.in_family ? static_cast<bool>(holm[k++]) : t.p_value < per_test);
    }
    run.n = std::max(run.n, o.job.n);
    run.seconds += o.seconds;
    (o.job.in_family ? run.cells : run.known_bad).push_back(std::move(o));
  }
  if (resolution) {
    ResolutionOutcome& r = *resolution;
    const bool below = holm[resolution_index];
    r.rejected = below || !r.state.range.ok();
    r.verdict = resolution_verdict(r.result, below, per_test);
    if (!r.state.range.ok()) {
      r.verdict = std::to_string(r.state.range.outside) + " of the exact cell's " +
                  std::to_string(r.state.n()) + " delays out of range; " + r.verdict;
    }
    run.power = power_table(run.n, per_test, 0.05, r.result.min_bits);
    run.power.push_back(resolution_power_row(r.state.n(), per_test, r.result.min_bits));
    run.resolution = std::move(r);
  } else {
    run.power = power_table(run.n, per_test);
  }
  if (fleet) {
    fleet->shared_rejected = holm[fleet_index];
    fleet->clustered_rejected = holm[fleet_index + 1];
    run.fleet = std::move(fleet);
  }
  return run;
}

}  // namespace acemq::stats
