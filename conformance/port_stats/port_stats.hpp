// run_port_stats: `retry-policy stats --impl`, the statistics battery on a
// port's own jitter.
//
// `check` injects the draw r, so it proves a port's arithmetic and nothing
// about the source its users get. This asks the adapter for `sample`s
// (docs/protocol.md, Ops): first the exact cell (delay 1, jitter factor 1,
// whose delays are 2r bit for bit), from which the source's resolution is
// measured against the contract's rule of 53 bits (docs/contract.md §5,
// stats/battery/resolution.hpp); then the jittered delays of every cell of
// stats::port_grid(), each drawn from the port's default source, in chunks of
// at most kMaxSampleCount consecutive calls; feeds them through the battery
// (stats/battery/battery.hpp) exactly as the nightly feeds the core's; judges the
// grid's tests and the resolution test together at family-wise alpha 1e-6
// with Holm; prints the power table for the n used once the adapter has
// answered, progress on the way, and a tally of what rejected; and writes the
// nightly's report (summary, JSON, pictures). The port's source has no seed,
// so the run cannot be replayed, and the report says so.
//
// Nothing an adapter writes makes this crash or grow without bound: answers
// are read without a JSON tree (a 63 MB answer costs its own bytes, not
// gigabytes of nodes), every echo of the adapter's words is clipped to
// kEchoBytes, and data no source should give (NaN, infinities, draws outside
// the band) is a rejection with the first offending values shown, not a
// library exception.
//
// Exit codes: 0 every cell passes and the resolution is met; 1 a test rejects
// (or a delay is out of range); 2 a usage error (a report directory that
// cannot be written is one, found before the first request), or the adapter
// could not start, died, hung, wrote something that is not a full sample
// answer, or exited badly at the end; or answered an error in a cell after
// others were drawn, when those pass (when one fails, 1).
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "stats/battery/fleet.hpp"
#include "stats/battery/resolution_bits.hpp"

namespace acemq::conformance {

// The default draws a cell: the per-commit battery's n (stats/battery/runs.hpp), at
// which the known-bad doubles are proved rejected.
inline constexpr std::uint64_t kPortStatsSamples = 1'000'000;
// --quick: half a repeats window, the smallest power of two at which the
// repeats test still sees a 32-bit source that repeats at random in every
// cell, and the spacing test sees a source on no binary grid of 33 bits or
// fewer (Mono's 31), with power 0.999 at the run's per-test alpha
// (port_stats.cc prints the table's figures).
inline constexpr std::uint64_t kPortStatsQuickSamples = std::uint64_t{1} << 19;
// The resolution below which the spacing test must see a source on no
// binary grid: 32 bits, i/(2^32 − 1) and Mono's i/(2^31 − 1) among them
// (on a binary grid any resolution below the floor is seen at any n).
inline constexpr int kLowResolutionBits = 32;
// 4 threads draw the threads cell: twice the cores of the machine the kit
// runs on, so they contend as a pool does.
inline constexpr int kPortStatsThreads = 4;

struct PortStatsOptions {
  std::string command;  // the adapter, run with /bin/sh -c
  std::uint64_t n = kPortStatsSamples;
  bool quick = false;                        // n was chosen by --quick (said in the output)
  std::chrono::milliseconds timeout{60000};  // per answer of up to 2^16 draws
  std::string report_dir = "stats-report";
  double progress_interval = 10.0;      // seconds between progress lines
  int min_bits = stats::kContractBits;  // the resolution floor (--min-bits)
  // Processes started at once for the fleet's tests (--processes; 1 leaves
  // them out): stats/battery/fleet.hpp.
  int processes = static_cast<int>(stats::kFleetProcesses);
  // Threads drawing the threads cell at once (--threads; 1 leaves it out).
  int threads = kPortStatsThreads;
};

// Why `dir` cannot take the report (created if need be, then a file written
// and removed in it), or nullopt when it can. Run before the first request,
// so a run of minutes does not end in a lost verdict.
std::optional<std::string> report_dir_problem(const std::string& dir);

int run_port_stats(const PortStatsOptions& options, std::ostream& out, std::ostream& progress);

}  // namespace acemq::conformance
