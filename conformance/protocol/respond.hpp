// respond: the core's answer to a request, and the whole protocol for a line.
//
// respond answers a parsed Request with the C++ core: it makes the policy
// (make_policy: the core validates it), applies the protocol's limits and
// calls the op. Every refusal, the core's included, is an error Answer
// naming the request's own field in the protocol's words; nothing the
// request holds makes it throw. answer_line is the protocol end to end for
// one line: parse once, respond, format once.
//
// Every request is independent: no state survives from one line to the
// next, but for the one thing `sample` exists to show: its draws come from
// the port's default source, whose stream runs on from one sample request
// to the next, as it does for the port's users.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "acemq/amqp/retry_policy.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/request.hpp"

namespace acemq::conformance {

// Where `sample` draws from: empty means the core's own DefaultSource,
// through the overloads a user calls without a source; a test adapter passes
// a deliberately wrong source here, with the core's arithmetic unchanged.
using SampleSource = std::function<double()>;

// NOLINTNEXTLINE(bugprone-exception-escape): see the definition.
Answer respond(const Request& request, const SampleSource& sample_source = {}) noexcept;
// The same for a parsed line: an Unanswerable is its error answer.
// NOLINTNEXTLINE(bugprone-exception-escape): see the definition.
Answer respond(const ParsedLine& line, const SampleSource& sample_source = {}) noexcept;

// The answer line (without its newline) to one request line. Never throws.
// NOLINTNEXTLINE(bugprone-exception-escape): see the definition.
std::string answer_line(std::string_view request_line,
                        const SampleSource& sample_source = {}) noexcept;

// Whether next_delay(attempt, message_age) on `policy` is within the
// protocol's cost limit: it gives up, or the core's walk needs at most
// kMaxSteps multiplications (amqp::internal::walk_multiplications, which
// walks the core's own early exits), so every call the core answers at once
// is answered, and none costs more than kMaxSteps steps.
bool within_cost_limit(const amqp::RetryPolicy& policy, std::int64_t attempt, double message_age);

}  // namespace acemq::conformance
