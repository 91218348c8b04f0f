// fleet: whether the processes of a fleet draw their own streams.
//
// Jitter exists so that a fleet that failed together does not come back
// together (docs/contract.md §4). A source can be perfect in one process and
// useless to a fleet: when every process draws the same stream (Go 1.19's
// package-level math/rand, seeded with 1; a constant seed), or streams from
// seeds a clock or a process id made alike (java.util.Random's first draws
// from neighbouring seeds lie about 9e-5 apart a unit of seed), the herd
// comes back in step. `retry-policy stats --impl` starts kFleetProcesses
// processes of a port at once, as a fleet restarts together, reads the first
// kFleetDraws draws r of each, and judges them with two tests of its family:
//
//   shared draws   no value is drawn by two processes. Under the null every
//                  pair of draws from different processes is equal with
//                  probability at most 2^-b (b the resolution floor, 53 by
//                  the contract), so the count of equal pairs is at most
//                  Poisson(pairs / 2^b): at 53 bits a single equal pair has
//                  p 5.5e-11. Sees identical and shifted streams.
//   clustered      the k-th draws of the processes are spread as uniform
//                  draws are: the least total length of 1 to kFleetArcs arcs
//                  of the circle [0, 1) that hold all of them, against its
//                  law (exact for one arc, a union bound for more),
//                  Bonferroni over the k and the arc counts. Sees
//                  neighbouring seeds of an LCG, whose seed scrambling
//                  (java.util.Random XORs it with 0x5DEECE66D) can split a
//                  fleet of consecutive seeds into a few tight clusters.
//
// What neither sees: seeds alike whose generator scrambles them (Python's
// random.seed(pid) gives unrelated streams), and the fleet of a port whose
// processes are started apart. The rule itself says more than any test can:
// seeded from the operating system's entropy (docs/contract.md §5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "stats/battery/battery.hpp"
#include "stats/battery/resolution.hpp"

namespace acemq::stats {

// 16 processes: 120 pairs, and an arc that holds all 16 k-th draws is
// narrower than 0.17 with probability below 1e-11 (fleet_detectable_arc).
inline constexpr std::size_t kFleetProcesses = 16;
// 64 first draws a process: more than the first few, where seeds alike show,
// and cheap (one sample request).
inline constexpr std::size_t kFleetDraws = 64;
// Clusters of up to 4 arcs: consecutive seeds that cross a carry through
// the scrambling's bits land in 2 or 3 clusters (1% and more of fleets of
// java.util.Random with one arc alone were missed).
inline constexpr std::size_t kFleetArcs = 4;
// The fleet's tests in a run's family.
inline constexpr std::size_t kFleetTests = 2;
inline constexpr const char* kFleetShared = "fleet_shared_draws";
inline constexpr const char* kFleetClustered = "fleet_clustered_draws";

// P(all n independent uniform points on a circle of circumference 1 lie in
// some arc of length w): one minus the law of the largest of n spacings,
// exact (n w^(n-1) for w <= 1/2).
double arc_probability(std::size_t n, double w);
// At most P(n points lie within `arcs` arcs of total length w): exact for
// one arc, a union bound over the spacings left out for more.
double arcs_probability(std::size_t n, std::size_t arcs, double w);

// P(X >= c) for X ~ Poisson(lambda).
double poisson_tail(std::uint64_t c, double lambda);

struct FleetResult {
  std::size_t processes = 0;
  std::size_t draws = 0;          // the fewest any process gave
  int min_bits = 53;              // the resolution the shared test's null assumes
  TestResult shared;              // statistic: pairs of equal draws from different processes
  TestResult clustered;           // statistic: the arcs' total length, at the smallest p
  std::size_t pairs_sharing = 0;  // pairs of processes with a draw in common
  std::size_t top_a = 0, top_b = 0, top_equal = 0;  // the pair sharing most (0-based)
  std::size_t arc_draw = 0;                         // the k (0-based) of the smallest p
  std::size_t arcs = 1;     // how many arcs hold that k-th draw of every process
  double arc_length = 1.0;  // their total length
  double arc_from = 0.0;    // where the one arc starts (it may wrap past 1)
  // What a maintainer reads: "processes 3 and 7 drew the same stream ...",
  // "the draw-1 values of all 16 processes lie within an arc of 0.0012 ...".
  std::string shared_words;
  std::string clustered_words;
};

// draws[p] holds process p's first draws r, each in [0, 1) (values outside
// are the caller's range check to report; they are left out here).
FleetResult analyze_fleet(const std::vector<std::vector<double>>& draws, int min_bits);

// The resolution the shared test's null assumes: min_bits, or the bits the
// exact cell measured when the resolution test rejects them (floored, so the
// null allows more equal draws, never fewer). A port on a 1 ms grid draws
// 2000 values, and 16 processes of it share some by chance: that is the
// resolution's finding, named there, not a fleet that shares its stream.
int fleet_null_bits(const ResolutionResult& resolution, int min_bits, double per_test);

// The widest total length of `arcs` arcs that the clustered test rejects
// at `per_test` (all `processes` k-th draws within them, for one k of
// `draws`), and the fewest equal pairs that the shared test rejects.
double fleet_detectable_arc(std::size_t processes, std::size_t draws, std::size_t arcs,
                            double per_test);
std::uint64_t fleet_detectable_equal_pairs(std::size_t processes, std::size_t draws, int min_bits,
                                           double per_test);

}  // namespace acemq::stats
