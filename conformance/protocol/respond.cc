#include "conformance/protocol/respond.hpp"

#include <cmath>
#include <cstddef>
#include <exception>
#include <latch>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/amqp/ruby_random.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/refusals.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using amqp::InvalidParameter;
using amqp::Jitter;
using amqp::RetryPolicy;
using amqp::Seconds;

// The core's refusal in the protocol's words, naming the request's field:
// its rule, and the value in wire form. A NaN refused by the rule that names
// NaN is not shown twice.
[[noreturn]] void fail_core(std::string field, const InvalidParameter& e) {
  const std::string_view rule = amqp::rule_text(e.rule());
  const InvalidParameter::Value value = e.value();
  if (const auto* whole = std::get_if<std::int64_t>(&value)) {
    refuse(Refuse::core_rule, std::move(field), {{"rule", rule}, {"got", std::to_string(*whole)}});
  }
  const double number = std::get<double>(value);
  if (e.rule() == amqp::Rule::not_nan && std::isnan(number)) {
    refuse(Refuse::core_rule_nan, std::move(field), {{"rule", rule}});
  }
  refuse(Refuse::core_rule, std::move(field), {{"rule", rule}, {"got", format_number(number)}});
}

RetryPolicy policy_of(const PolicySpec& spec) {
  try {
    return make_policy(spec);
  } catch (const PolicyRefused& refused) {
    fail_core("policy." + std::string(refused.member), refused.refusal);
  }
}

// The fields a next_delay call's arguments are named by: "attempt", or
// "calls[3][0] (attempt)" in a replay.
struct CallFields {
  std::string attempt = "attempt";
  std::string message_age = "message_age";
};

// The core's next_delay with the protocol's cost limit in front.
std::optional<double> next_delay(const RetryPolicy& policy, std::int64_t attempt,
                                 double message_age, const CallFields& fields, const auto& call) {
  if (!within_cost_limit(policy, attempt, message_age)) {
    refuse(Refuse::cost_limit, fields.attempt, {{"attempt", std::to_string(attempt)}});
  }
  try {
    const std::optional<Seconds> delay = call();
    if (!delay) return std::nullopt;
    return delay->count();
  } catch (const InvalidParameter& e) {
    fail_core(e.parameter() == amqp::Parameter::attempt ? fields.attempt : fields.message_age, e);
  }
}

using Items = std::vector<std::optional<double>>;

// ---- ops: each fills the result's items -----------------------------------

Items answer(const ScheduleCall&, const RetryPolicy& policy, const SampleSource&) {
  const std::int64_t entries = policy.max_attempts() - 1;
  if (entries > kMaxScheduleEntries) {
    refuse(Refuse::schedule_too_long, "policy.max_attempts",
           {{"n", std::to_string(entries)}, {"limit", std::to_string(kMaxScheduleEntries)}});
  }
  Items items;
  for (const Seconds delay : policy.delays()) items.emplace_back(delay.count());
  return items;
}

Items answer(const NextDelayCall& call, const RetryPolicy& policy, const SampleSource&) {
  if (call.jitter) {
    return {next_delay(policy, call.attempt, call.message_age, {}, [&] {
      return policy.next_delay(call.attempt, Seconds{call.message_age}, [&] { return call.r; });
    })};
  }
  return {next_delay(policy, call.attempt, call.message_age, {}, [&] {
    return policy.next_delay(call.attempt, Seconds{call.message_age}, Jitter::off);
  })};
}

Items answer(const JitteredCall& call, const RetryPolicy& policy, const SampleSource&) {
  try {
    return {policy.jittered_with_draw(Seconds{call.delay}, call.r).count()};
  } catch (const InvalidParameter& e) {
    fail_core("delay", e);
  }
}

Items answer(const ReplayCall& replay, const RetryPolicy& policy, const SampleSource&) {
  amqp::RubyRandom source(replay.seed);
  for (std::int64_t i = 0; i < replay.skip; ++i) source();
  Items items;
  items.reserve(replay.calls.size());
  for (std::size_t i = 0; i < replay.calls.size(); ++i) {
    const ReplayCall::Call& c = replay.calls[i];
    const std::string at = "calls[" + std::to_string(i) + "]";
    items.push_back(next_delay(
        policy, c.attempt, c.message_age, {at + "[0] (attempt)", at + "[1] (message_age)"},
        [&] { return policy.next_delay(c.attempt, Seconds{c.message_age}, source); }));
  }
  return items;
}

// Draws from the port's default source: for serve, the core's own
// DefaultSource through the overloads that take none, as a user of this
// port gets them; `count` consecutive calls, nothing drawn between. With
// `threads` above 1, that many threads make the calls at once, released
// together by a latch, each its share in a row, answered thread by thread:
// a source that is not safe to share shows here, and nowhere else.
Items answer(const SampleCall& sample, const RetryPolicy& policy, const SampleSource& source) {
  const auto* delay = std::get_if<double>(&sample.of);
  const std::int64_t attempt = delay != nullptr ? 0 : std::get<std::int64_t>(sample.of);
  // The call's refusals (NaN, attempt < 1, the cost limit) come before any
  // draw, with a draw injected, so the answer is all or nothing.
  if (delay != nullptr) {
    try {
      (void)policy.jittered_with_draw(Seconds{*delay}, 0.0);
    } catch (const InvalidParameter& e) {
      fail_core("delay", e);
    }
  } else {
    (void)next_delay(policy, attempt, 0.0, {},
                     [&] { return policy.next_delay(attempt, Seconds{0.0}, Jitter::off); });
  }
  const auto call = [&]() -> std::optional<double> {
    if (delay != nullptr) {
      return source ? policy.jittered(Seconds{*delay}, source).count()
                    : policy.jittered(Seconds{*delay}).count();
    }
    const std::optional<Seconds> d =
        source ? policy.next_delay(attempt, Seconds{0.0}, source) : policy.next_delay(attempt);
    return d ? std::optional<double>(d->count()) : std::nullopt;
  };
  Items items(static_cast<std::size_t>(sample.count));
  // A source's out-of-range draw is the core's refusal, named as before.
  const auto refused = [&](const std::exception_ptr& error) {
    try {
      std::rethrow_exception(error);
    } catch (const InvalidParameter& e) {
      fail_core(delay != nullptr ? "delay" : "attempt", e);
    }
  };
  if (sample.threads == 1) {
    try {
      for (std::optional<double>& item : items) item = call();
    } catch (const InvalidParameter&) {
      refused(std::current_exception());
    }
    return items;
  }
  const auto threads = static_cast<std::size_t>(sample.threads);
  std::latch start(static_cast<std::ptrdiff_t>(threads));
  std::vector<std::exception_ptr> errors(threads);
  {
    std::vector<std::jthread> pool;
    pool.reserve(threads);
    std::size_t begin = 0;
    for (std::size_t t = 0; t < threads; ++t) {
      const std::size_t size = items.size() / threads + (t < items.size() % threads ? 1 : 0);
      pool.emplace_back([&, t, begin, size] {
        start.arrive_and_wait();
        try {
          for (std::size_t i = begin; i < begin + size; ++i) items[i] = call();
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
      begin += size;
    }
  }  // every thread joined
  for (const std::exception_ptr& error : errors) {
    if (error) refused(error);
  }
  return items;
}

Answer error_answer(const nlohmann::json& id, std::string message) {
  Answer out;
  out.id = id;
  out.ok = false;
  out.error = std::move(message);
  return out;
}

}  // namespace

bool within_cost_limit(const RetryPolicy& policy, std::int64_t attempt, double message_age) {
  return amqp::internal::walk_multiplications(policy, attempt, message_age, kMaxSteps) <= kMaxSteps;
}

// Out of memory is the one thing that can escape, and it ends the process
// as it would anywhere else; clang-tidy cannot see that nothing else can.
// NOLINTNEXTLINE(bugprone-exception-escape)
Answer respond(const Request& request, const SampleSource& sample_source) noexcept {
  try {
    const RetryPolicy policy = policy_of(request.policy);
    Answer out;
    out.id = request.id;
    out.ok = true;
    // Every op but next_delay and jittered answers an array.
    out.is_array = !std::holds_alternative<NextDelayCall>(request.op) &&
                   !std::holds_alternative<JitteredCall>(request.op);
    out.items = std::visit([&](const auto& call) { return answer(call, policy, sample_source); },
                           request.op);
    return out;
  } catch (const Refused& refused) {
    return error_answer(request.id, refused.refusal.message());
  } catch (const std::exception& e) {
    // Not expected: every rule is checked above. Still an answer, so the
    // server goes on, and the message says where to look.
    return error_answer(request.id, std::string("internal: ") + e.what());
  }
}

// NOLINTNEXTLINE(bugprone-exception-escape): as above.
Answer respond(const ParsedLine& line, const SampleSource& sample_source) noexcept {
  if (const auto* request = std::get_if<Request>(&line)) return respond(*request, sample_source);
  const auto& unanswerable = std::get<Unanswerable>(line);
  return error_answer(unanswerable.id, unanswerable.refusal.message());
}

// NOLINTNEXTLINE(bugprone-exception-escape): the last fallback is a literal
// short enough for std::string's inline buffer.
std::string answer_line(std::string_view request_line, const SampleSource& sample_source) noexcept {
  try {
    return format_answer(respond(parse_request(request_line), sample_source));
  } catch (...) {
    // Out of memory while writing the answer: the shortest answer that
    // still says no (15 characters fit std::string's inline buffer).
    return "{\"ok\":false}";
  }
}

}  // namespace acemq::conformance
