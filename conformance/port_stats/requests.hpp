// requests: the sample requests `stats --impl` sends (docs/protocol.md,
// Ops), and the plan that orders them: cell by cell, the exact cell first,
// each cell's n in chunks of at most kMaxSampleCount consecutive calls.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "acemq/amqp/retry_policy.hpp"
#include "conformance/protocol/limits.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/runs.hpp"

namespace acemq::conformance {

// A sample request up to its count, from `{"id":<id>` on: a policy, and a
// delay (the jittered path) or an attempt (next_delay, whose unjittered
// delay is the same d; `check` proves the port computes it as the core
// does), drawn by `threads` threads at once when above 1.
std::string request_prefix(const amqp::RetryPolicy::Options& o, bool jittered, double delay,
                           std::int64_t attempt, std::int64_t threads = 1);
// A grid cell's request.
std::string request_prefix(const stats::Cell& cell);
// The exact cell (stats/battery/resolution.hpp): jittered(1) at jitter factor 1,
// whose delay is 2r bit for bit, so the draws themselves come back.
std::string exact_cell_prefix(std::int64_t threads = 1);

constexpr const char* kExactCellName = "jittered/port/f1/exact (delay 1: the draws themselves)";
// The threads cell's name, in a grid cell's kind of name, so that its FAIL
// line reads as theirs do.
std::string threads_cell_name(int threads);

// Every draw of the run, in the order the adapter makes them: cell by cell
// (the exact cell first), each cell's n in chunks of kMaxSampleCount. A chunk
// never straddles a window (kSegmentSamples is a whole number of chunks).
static_assert(stats::kSegmentSamples % static_cast<std::uint64_t>(kMaxSampleCount) == 0);
struct ChunkPlan {
  std::vector<std::string> prefixes;  // one a cell
  std::uint64_t n = 0;                // draws a cell
  std::uint64_t chunks_per_cell() const {
    const auto chunk = static_cast<std::uint64_t>(kMaxSampleCount);
    return (n + chunk - 1) / chunk;
  }
  std::uint64_t chunks() const { return prefixes.size() * chunks_per_cell(); }
  std::size_t size(std::uint64_t k) const {
    const auto chunk = static_cast<std::uint64_t>(kMaxSampleCount);
    const std::uint64_t offset = (k % chunks_per_cell()) * chunk;
    return static_cast<std::size_t>(std::min(chunk, n - offset));
  }
  std::string request(std::uint64_t k) const {
    return "{\"id\":" + std::to_string(k + 1) + prefixes[k / chunks_per_cell()] +
           std::to_string(size(k)) + "}";
  }
};

}  // namespace acemq::conformance
