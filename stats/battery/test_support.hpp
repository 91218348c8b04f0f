// What the statistical tests print about a run, so that every test states
// its alpha, its n, and the smallest deviation each of its tests detects.
#pragma once

#include <iostream>
#include <string>

#include "stats/battery/battery.hpp"
#include "stats/battery/power.hpp"

namespace acemq::stats {

inline void print_analysis(std::ostream& out, const Analysis& a, const RangeCheck& range,
                           double alpha) {
  out << "  range: " << (range.ok() ? "ok" : "FAILS") << " [" << range.min << ", " << range.max
      << "] vs [" << range.lo << ", " << range.hi << "], " << range.outside << " outside\n";
  const std::vector<PowerRow> power = power_table(a.n, alpha);
  for (std::size_t i = 0; i < a.tests.size(); ++i) {
    const TestResult& t = a.tests[i];
    out << "  " << t.name << ": statistic " << t.statistic << ", p " << t.p_value
        << (t.p_value < alpha ? "  REJECTS" : "") << "  (alpha " << alpha << ", n " << a.n
        << ": detects " << conservative(power.at(i)) << ", " << power.at(i).measure << ")\n";
  }
}

}  // namespace acemq::stats
