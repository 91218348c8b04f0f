#include "stats/battery/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/binomial.hpp>
#include <boost/math/special_functions/gamma.hpp>

namespace acemq::stats {
namespace {

// Arcs are fractions of the circle, compared by a reader with the expected
// arc beside them: six digits say it, a delay's seventeen would not.
std::string six_digits(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// The spacings of `column` (sorted here) on [0, 1) as a circle, each with
// the point it ends at, smallest first; the gap past 1 included.
std::vector<std::pair<double, double>> spacings(std::vector<double> column) {
  std::sort(column.begin(), column.end());
  std::vector<std::pair<double, double>> out;
  out.emplace_back(1.0 - (column.back() - column.front()), column.front());
  for (std::size_t i = 1; i < column.size(); ++i) {
    out.emplace_back(column[i] - column[i - 1], column[i]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The mean narrowest arc of n uniform points: one minus the mean largest
// spacing, H_n / n.
double expected_arc(std::size_t n) {
  double harmonic = 0.0;
  for (std::size_t k = 1; k <= n; ++k) harmonic += 1.0 / static_cast<double>(k);
  return 1.0 - harmonic / static_cast<double>(n);
}

}  // namespace

double arc_probability(std::size_t n, double w) {
  if (n < 2 || w >= 1.0) return 1.0;
  if (w <= 0.0) return 0.0;
  const auto count = static_cast<double>(n);
  // P(largest spacing > x) = sum_k (-1)^(k+1) C(n, k) (1 - k x)^(n-1), x = 1 - w.
  const double x = 1.0 - w;
  double exceeds = 0.0;
  for (std::size_t k = 1; k <= n && static_cast<double>(k) * x < 1.0; ++k) {
    const double term = boost::math::binomial_coefficient<double>(static_cast<unsigned>(n),
                                                                  static_cast<unsigned>(k)) *
                        std::pow(1.0 - static_cast<double>(k) * x, count - 1.0);
    exceeds += k % 2 == 1 ? term : -term;
  }
  return std::clamp(exceeds, 0.0, 1.0);
}

double arcs_probability(std::size_t n, std::size_t arcs, double w) {
  if (arcs == 1) return arc_probability(n, w);
  if (n <= arcs || w >= 1.0) return 1.0;
  if (w <= 0.0) return 0.0;
  // Union bound over which `arcs` spacings are left out: the other n - arcs
  // of n uniform spacings sum to a Beta(n - arcs, arcs) variable.
  const auto n_u = static_cast<unsigned>(n);
  const auto k_u = static_cast<unsigned>(arcs);
  return std::min(
      1.0, boost::math::binomial_coefficient<double>(n_u, k_u) *
               boost::math::ibeta(static_cast<double>(n - arcs), static_cast<double>(arcs), w));
}

double poisson_tail(std::uint64_t c, double lambda) {
  if (c == 0) return 1.0;
  if (lambda <= 0.0) return 0.0;
  const auto count = static_cast<double>(c);
  if (count > 2 * lambda + 10) {
    // Far in the tail, where gamma_p's Gamma(c) overflows: the first term
    // times the geometric bound on the rest, within a factor 1 + lambda/c.
    return std::exp(-lambda + count * std::log(lambda) - std::lgamma(count + 1) -
                    std::log1p(-lambda / (count + 1)));
  }
  return boost::math::gamma_p(count, lambda);
}

FleetResult analyze_fleet(const std::vector<std::vector<double>>& draws, int min_bits) {
  FleetResult out;
  out.processes = draws.size();
  out.min_bits = min_bits;
  out.shared = {kFleetShared, 0.0, 1.0};
  out.clustered = {kFleetClustered, 1.0, 1.0};
  if (draws.size() < 2) return out;
  out.draws = draws.front().size();
  for (const std::vector<double>& d : draws) out.draws = std::min(out.draws, d.size());

  // Shared draws: every value with the processes that drew it, sorted, so
  // equal values from different processes are neighbours.
  struct Draw {
    double r;
    std::size_t process;
  };
  std::vector<Draw> all;
  for (std::size_t p = 0; p < draws.size(); ++p) {
    for (const double r : draws[p]) {
      if (r >= 0.0 && r < 1.0) all.push_back({r, p});
    }
  }
  std::sort(all.begin(), all.end(), [](const Draw& a, const Draw& b) {
    return a.r < b.r || (a.r == b.r && a.process < b.process);
  });
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> equal_by_pair;
  std::uint64_t equal_pairs = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].r == all[i].r) ++j;
    for (std::size_t a = i; a < j; ++a) {
      for (std::size_t b = a + 1; b < j; ++b) {
        if (all[a].process == all[b].process) continue;
        ++equal_pairs;
        ++equal_by_pair[{all[a].process, all[b].process}];
      }
    }
    i = j;
  }
  const double cross_pairs = [&] {
    double total = 0.0;
    for (std::size_t a = 0; a < draws.size(); ++a) {
      for (std::size_t b = a + 1; b < draws.size(); ++b) {
        total += static_cast<double>(draws[a].size()) * static_cast<double>(draws[b].size());
      }
    }
    return total;
  }();
  out.shared.statistic = static_cast<double>(equal_pairs);
  out.shared.p_value = poisson_tail(equal_pairs, std::ldexp(cross_pairs, -min_bits));
  out.pairs_sharing = equal_by_pair.size();
  for (const auto& [pair, equal] : equal_by_pair) {
    if (equal > out.top_equal) {
      out.top_equal = equal;
      out.top_a = pair.first;
      out.top_b = pair.second;
    }
  }
  const std::size_t all_pairs = draws.size() * (draws.size() - 1) / 2;
  if (equal_pairs == 0) {
    out.shared_words = "no draw is shared: the " + std::to_string(draws.size()) +
                       " processes drew " + std::to_string(all.size()) + " distinct values";
  } else if (out.pairs_sharing == all_pairs && out.top_equal >= out.draws) {
    out.shared_words = "all " + std::to_string(draws.size()) +
                       " processes drew the same stream: their first " + std::to_string(out.draws) +
                       " draws are equal";
  } else {
    out.shared_words = std::to_string(out.pairs_sharing) + " of the " + std::to_string(all_pairs) +
                       " pairs of processes drew equal values; processes " +
                       std::to_string(out.top_a + 1) + " and " + std::to_string(out.top_b + 1) +
                       " share " + std::to_string(out.top_equal) + " of their first " +
                       std::to_string(out.draws) + " draws" +
                       (out.top_equal >= out.draws ? " (the same stream)" : "");
  }
  if (min_bits < kContractBits && equal_pairs > 0) {
    out.shared_words +=
        "; against the chance of equal draws of a " + std::to_string(min_bits) + "-bit source";
  }

  // Clustered: for each k-th draw across the processes, the fewest total
  // length that 1 to kFleetArcs arcs holding all of them need.
  double smallest_p = 1.0;
  for (std::size_t k = 0; k < out.draws; ++k) {
    std::vector<double> column;
    for (const std::vector<double>& d : draws) {
      if (d[k] >= 0.0 && d[k] < 1.0) column.push_back(d[k]);
    }
    if (column.size() < draws.size()) continue;  // out of range: the caller's to report
    const std::vector<std::pair<double, double>> gaps = spacings(std::move(column));
    double covered = 0.0;  // the sum of the smallest spacings, all but `arcs` of them
    for (std::size_t arcs = gaps.size() - 1; arcs >= 1; --arcs) {
      covered += gaps[gaps.size() - 1 - arcs].first;
      if (arcs > kFleetArcs) continue;
      const double p = arcs_probability(draws.size(), arcs, covered);
      // Ties go to the fewest arcs, which the words then name.
      if (p < smallest_p || (p == smallest_p && k == out.arc_draw)) {
        smallest_p = p;
        out.arc_draw = k;
        out.arcs = arcs;
        out.arc_length = covered;
        out.arc_from = gaps.back().second;  // where the widest gap ends
      }
    }
  }
  out.clustered.statistic = out.arc_length;
  out.clustered.p_value = std::min(1.0, static_cast<double>(out.draws * kFleetArcs) * smallest_p);
  const std::string n = std::to_string(draws.size());
  if (out.arcs == 1) {
    double to = out.arc_from + out.arc_length;
    if (to >= 1.0) to -= 1.0;
    out.clustered_words = "the draw-" + std::to_string(out.arc_draw + 1) + " values of all " + n +
                          " processes lie within an arc of " + six_digits(out.arc_length) +
                          " (from " + six_digits(out.arc_from) + " to " + six_digits(to) +
                          "); uniform draws need " + six_digits(expected_arc(draws.size())) +
                          " on average";
  } else {
    out.clustered_words = "the draw-" + std::to_string(out.arc_draw + 1) + " values of all " + n +
                          " processes lie within " + std::to_string(out.arcs) +
                          " arcs of total length " + six_digits(out.arc_length) +
                          "; uniform draws need " + six_digits(expected_arc(draws.size())) +
                          " for one arc on average";
  }
  return out;
}

double fleet_detectable_arc(std::size_t processes, std::size_t draws, std::size_t arcs,
                            double per_test) {
  // arc_probability rises with w: bisect for the widest w still rejected.
  double lo = 0.0;
  double hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    if (static_cast<double>(draws * kFleetArcs) * arcs_probability(processes, arcs, mid) <
        per_test) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

int fleet_null_bits(const ResolutionResult& resolution, int min_bits, double per_test) {
  if (!(resolution.p_value < per_test) || resolution.lower_bound ||
      !std::isfinite(resolution.bits)) {
    return min_bits;
  }
  return std::clamp(static_cast<int>(std::floor(resolution.bits)), 1, min_bits);
}

std::uint64_t fleet_detectable_equal_pairs(std::size_t processes, std::size_t draws, int min_bits,
                                           double per_test) {
  const auto count = static_cast<double>(processes);
  const double pairs =
      count * (count - 1) / 2 * static_cast<double>(draws) * static_cast<double>(draws);
  const double lambda = std::ldexp(pairs, -min_bits);
  std::uint64_t c = 1;
  while (poisson_tail(c, lambda) >= per_test) ++c;
  return c;
}

}  // namespace acemq::stats
