// run_port_stats: `retry-policy stats --impl`, the statistics battery on a
// port's own jitter.
//
// `check` injects the draw r, so it proves a port's arithmetic and nothing
// about the source its users get. This asks the adapter for `sample`s
// (conformance/README.md): the jittered delays of every cell of
// stats::port_grid(), drawn from the port's default source, in chunks of at
// most kMaxSampleCount consecutive calls; feeds them through the battery
// (stats/battery.hpp) exactly as the nightly feeds the core's; judges the
// grid's tests together at family-wise alpha 1e-6 with Holm; prints the power
// table for the n used and progress on the way; and writes the nightly's
// report (summary, JSON, pictures). The port's source has no seed, so the run
// cannot be replayed, and the report says so.
//
// Exit codes: 0 every cell passes; 1 a test rejects (or a delay is out of
// range); 2 a usage error, or the adapter could not start, died, hung, wrote
// something that is not a full sample answer, or exited badly at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace acemq::conformance {

// The default draws a cell: the per-commit battery's n (stats/runs.hpp), at
// which the known-bad doubles are proved rejected.
inline constexpr std::uint64_t kPortStatsSamples = 1'000'000;
// --quick: half a repeats window, the smallest power of two at which the
// repeats test alone still sees a 32-bit source in every cell with power
// 0.999 at the run's per-test alpha (port_stats.cc checks this against the
// power table, and prints the table's figure).
inline constexpr std::uint64_t kPortStatsQuickSamples = std::uint64_t{1} << 19;
// The resolution a source must exceed: a 32-bit draw, Python's
// getrandbits(32) / 2**32 or a float32, is a bug the battery must see.
inline constexpr double kLowResolutionBits = 32.0;

struct PortStatsOptions {
  std::string command;  // the adapter, run with /bin/sh -c
  std::uint64_t n = kPortStatsSamples;
  bool quick = false;                        // n was chosen by --quick (said in the output)
  std::chrono::milliseconds timeout{60000};  // per answer of up to 2^16 draws
  std::string report_dir = "stats-report";
  double progress_interval = 10.0;  // seconds between progress lines
};

int run_port_stats(const PortStatsOptions& options, std::ostream& out, std::ostream& progress);

}  // namespace acemq::conformance
