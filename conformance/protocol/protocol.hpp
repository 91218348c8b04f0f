// The conformance protocol: one JSON request line in, one answer line out.
//
// The single place where JSON becomes a RetryPolicy and a call on it; `serve`,
// `check`, `vectors`, the reference-vector test and fuzzing all go through
// answer_line, so they cannot disagree about what a request means. The
// grammar, the limits and the error rules are specified in
// conformance/README.md; the constants below are those limits.
//
// answer_line never throws and never crashes, whatever the bytes: a malformed
// line, an unknown op or an invalid policy is an answer with "ok": false and a
// message naming the field. Every request is independent: no state survives
// from one line to the next, but for the one thing `sample` exists to show:
// its draws come from the port's default source, whose stream runs on from
// one sample request to the next, as it does for the port's users.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::conformance {

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
// A sample answer holds at most 2^16 draws (about 1.3 MB of JSON at 20
// characters a delay), so `stats` asks for a cell's draws in chunks.
inline constexpr std::int64_t kMaxSampleCount = std::int64_t{1} << 16;
// next_delay costs up to attempt - 1 multiplications. The protocol answers a
// call only if its answer rests on at most 2^20 of them (within_cost_limit);
// multiplier 1 + 1e-9 with no cap would otherwise take about 7e11 steps,
// hours for one line.
inline constexpr std::int64_t kMaxSteps = std::int64_t{1} << 20;

// A request that cannot be answered; what() names the field.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The `policy` member of a request: constructor fields by name, or a factory,
// then give_up_after and with_jitter in that order. Throws ProtocolError.
amqp::RetryPolicy policy_from_json(const nlohmann::json& policy);

// Whether next_delay(attempt, message_age) on `policy` is within the
// protocol's cost limit: it gives up, or the core's walk needs at most
// kMaxSteps multiplications (amqp::internal::walk_multiplications, which
// walks the core's own early exits), so every call the core answers at once
// is answered, and none costs more than kMaxSteps steps.
bool within_cost_limit(const amqp::RetryPolicy& policy, std::int64_t attempt, double message_age);

// The answer to one request line (without its newline). Never throws.
// NOLINTNEXTLINE(bugprone-exception-escape): see the definition.
std::string answer_line(std::string_view request_line) noexcept;

// The answer to a line of `bytes` bytes that a reader dropped for being
// longer than kMaxLineBytes: the same error answer_line gives such a line.
std::string line_too_long_answer(std::size_t bytes) noexcept;

}  // namespace acemq::conformance
