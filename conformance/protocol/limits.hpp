// The protocol's limits (docs/protocol.md, Limits): chosen so that no
// request line can hang or exhaust a server, and stated once here for every
// tool that reads or writes the protocol.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace acemq::conformance {

// The wire's integers are int64s: one outside this range is refused, never
// wrapped, and the generators send both ends and one past them.
inline constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// A request line longer than this (1 MiB, not counting the newline) is an
// error; `serve` drops the excess without storing it.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
// Arrays and objects nest at most this deep. The protocol needs 3
// (request, calls, one call); the limit keeps every JSON walk shallow.
inline constexpr int kMaxDepth = 32;
// A schedule answer holds at most 2^16 entries (about 1.5 MB of JSON), so
// max_attempts - 1 above this is an error naming policy.max_attempts.
inline constexpr std::int64_t kMaxScheduleEntries = std::int64_t{1} << 16;
// A replay holds at most 256 calls.
inline constexpr std::size_t kMaxReplayCalls = 256;
// A replay discards at most 2^16 draws before its first call: 131,072 words,
// 210 refills of MT19937's state, about 0.13 s in pure Python.
inline constexpr std::int64_t kMaxReplaySkip = std::int64_t{1} << 16;
// A sample answer holds at most 2^16 draws (about 1.3 MB of JSON at 20
// characters a delay), so `stats` asks for a cell's draws in chunks.
inline constexpr std::int64_t kMaxSampleCount = std::int64_t{1} << 16;
// A sample drawn by threads at once uses at most 64 of them: a pool larger
// than a consumer's, and few enough that no request can exhaust a server.
inline constexpr std::int64_t kMaxSampleThreads = 64;
// next_delay costs up to attempt - 1 multiplications. The protocol answers a
// call only if its answer rests on at most 2^20 of them (within_cost_limit);
// multiplier 1 + 1e-9 with no cap would otherwise take about 7e11 steps,
// hours for one line.
inline constexpr std::int64_t kMaxSteps = std::int64_t{1} << 20;
// A replay's seed is Ruby's init_genrand's: a 32-bit unsigned integer.
inline constexpr std::int64_t kMaxSeed = 4294967295;

// The limits as one table, for the protocol's description (description.hpp)
// and the docs' table made from it: each with the field its error names.
struct Limit {
  std::string_view name;
  std::int64_t value;
  std::string_view error_names;
  std::string_view what;  // for a person: what is limited, and the unit
};
inline constexpr Limit kLimits[] = {
    {"max_line_bytes", static_cast<std::int64_t>(kMaxLineBytes), "line", "request line, bytes"},
    {"max_depth", kMaxDepth, "line", "nesting of arrays and objects"},
    {"max_schedule_entries", kMaxScheduleEntries, "policy.max_attempts",
     "schedule length (max_attempts - 1), entries"},
    {"max_replay_calls", static_cast<std::int64_t>(kMaxReplayCalls), "calls", "replay calls"},
    {"max_replay_skip", kMaxReplaySkip, "skip", "replay skip, draws"},
    {"max_sample_count", kMaxSampleCount, "count", "sample draws"},
    {"max_sample_threads", kMaxSampleThreads, "threads", "sample threads"},
    {"max_steps", kMaxSteps, "attempt", "next_delay cost, multiplications (the cost limit)"},
    {"max_seed", kMaxSeed, "seed", "replay seed"},
};

}  // namespace acemq::conformance
