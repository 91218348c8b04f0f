#include "stats/battery/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "stats/battery/family.hpp"
#include "stats/battery/kolmogorov.hpp"
#include "stats/battery/number_text.hpp"

namespace acemq::stats {

Unrepresentable unrepresentable(const RangeCheck& range, double unit) {
  if (!(unit > 0.0)) return Unrepresentable::no;
  // All but a 2^-20 share of the band: at f = 1 the band of a huge delay
  // starts at 0, yet a port's count of units covers none of it that matters.
  const double sliver = (range.hi - range.lo) * 0x1.0p-20;
  if (range.hi - sliver < unit) return Unrepresentable::below_unit;
  if (range.lo + sliver >= 0x1.0p63 * unit) return Unrepresentable::beyond_long;
  return Unrepresentable::no;
}

std::string unrepresentable_words(Unrepresentable why, const std::string& unit_name) {
  switch (why) {
    case Unrepresentable::below_unit: return "every delay below " + unit_name;
    case Unrepresentable::beyond_long: return "every delay beyond 2^63 × " + unit_name;
    case Unrepresentable::no: break;
  }
  return "";
}

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

std::string values_text(const std::vector<double>& values) {
  std::string out;
  for (const double x : values) out += (out.empty() ? "" : ", ") + number_text(x);
  return out;
}

std::size_t RunReport::unrepresentable_cells() const {
  return static_cast<std::size_t>(std::count_if(cells.begin(), cells.end(), [](const Outcome& o) {
    return o.failed() && o.unrepresentable != Unrepresentable::no;
  }));
}

std::string outside_text(const RangeCheck& range) {
  if (range.ok()) return "ok";
  std::string out = std::to_string(range.outside) + " outside the band [" + number_text(range.lo) +
                    ", " + number_text(range.hi) +
                    "] (d·(1 − f) to d·(1 + f), where every right "
                    "jitter lands): ";
  for (std::size_t i = 0; i < range.shown_count(); ++i) {
    out += (i == 0 ? "" : ", ") + number_text(range.shown[i].value) + " (draw " +
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

RunEnd RunReport::end() const {
  if (!passed()) return RunEnd::failed;
  return stopped ? RunEnd::not_all_tested : RunEnd::passed;
}

std::string stop_text(const Stop& stop) {
  return "the adapter answered an error in cell " + stop.cell + ", so it and the " +
         std::to_string(stop.cells_after) + " cells after it were not drawn (" +
         stop.adapter_error + ")";
}

std::string_view run_end_name(RunEnd end) {
  switch (end) {
    case RunEnd::passed: return "passed";
    case RunEnd::failed: return "failed";
    case RunEnd::not_all_tested: return "not_all_tested";
    case RunEnd::failed_to_test: return "failed_to_test";
  }
  return "failed_to_test";
}

std::string_view verdict_word(RunEnd end) {
  switch (end) {
    case RunEnd::passed: return "PASS";
    case RunEnd::failed: return "FAIL";
    case RunEnd::not_all_tested: return "NOT ALL TESTED";
    case RunEnd::failed_to_test: return "FAILED TO TEST";
  }
  return "FAILED TO TEST";
}

int exit_code(RunEnd end) {
  switch (end) {
    case RunEnd::passed: return 0;
    case RunEnd::failed: return 1;
    case RunEnd::not_all_tested:
    case RunEnd::failed_to_test: return 2;
  }
  return 2;
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
                  std::to_string(r.state.n()) +
                  " delays out of range (each is 2r for a draw r in [0, 1), so below 2: a "
                  "delay of 2 is a draw of 1); " +
                  r.verdict;
    }
    if (r.result.decimal_unit >= 0 && below) {
      run.time_unit = std::pow(10.0, -r.result.decimal_unit);
      run.time_unit_name = decimal_unit_name(r.result.decimal_unit);
    }
    run.power = power_table(run.n, per_test, 0.05, r.result.min_bits);
    run.power.push_back(resolution_power_row(r.state.n(), per_test, r.result.min_bits));
    run.resolution = std::move(r);
  } else {
    run.power = power_table(run.n, per_test);
  }
  if (run.time_unit) {
    for (Outcome& o : run.cells) o.unrepresentable = unrepresentable(o.range, *run.time_unit);
  }
  if (fleet) {
    fleet->shared_rejected = holm[fleet_index];
    fleet->clustered_rejected = holm[fleet_index + 1];
    run.fleet = std::move(fleet);
  }
  return run;
}

}  // namespace acemq::stats
