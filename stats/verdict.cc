#include "stats/verdict.hpp"

#include <algorithm>
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

bool RunReport::passed() const {
  return std::none_of(cells.begin(), cells.end(), [](const Outcome& o) { return o.failed(); }) &&
         std::all_of(known_bad.begin(), known_bad.end(),
                     [](const Outcome& o) { return o.failed(); });
}

Outcome outcome_of(const JobInfo& job, const BatteryState& state, double seconds) {
  Outcome o;
  o.job = job;
  o.range = state.range;
  o.analysis = analyze(state);
  o.seconds = seconds;
  return o;
}

RunReport judge(std::vector<Outcome> outcomes, std::size_t family_size) {
  const double per_test = per_test_alpha(family_size);
  // Padded with p = 1 for cells left out of the run: Holm's thresholds are
  // then those of the full family.
  std::vector<double> p;
  for (const Outcome& o : outcomes) {
    if (!o.job.in_family) continue;
    for (const TestResult& t : o.analysis.tests) p.push_back(t.p_value);
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
  run.power = power_table(run.n, per_test);
  return run;
}

}  // namespace acemq::stats
