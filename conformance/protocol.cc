#include "protocol.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/amqp/ruby_random.hpp"
#include "wire.hpp"

namespace acemq::conformance {
namespace {

using amqp::Jitter;
using amqp::RetryPolicy;
using amqp::Seconds;
using nlohmann::json;

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kSeedMax = 4294967295;  // 2^32 - 1: Ruby's init_genrand range

[[noreturn]] void fail(const std::string& message) { throw ProtocolError(message); }

// A value quoted in an error message, cut short: the message must name the
// field, not repeat a megabyte of input.
std::string quote(const json& value) {
  std::string text = to_line(value);
  constexpr std::size_t kShown = 60;
  if (text.size() > kShown) {
    text.resize(kShown);
    text += "...";
  }
  return text;
}

const json* member(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const json& required(const json& object, std::string_view key, const std::string& path) {
  const json* value = member(object, key);
  if (value == nullptr) fail(path + ": missing");
  return *value;
}

double number_at(const json& value, const std::string& path) {
  const std::optional<double> number = wire_number(value);
  if (!number) {
    fail(path + ": must be a number or \"Infinity\", \"-Infinity\", \"NaN\", got " + quote(value));
  }
  return *number;
}

// Integers are JSON integers: 5.0 and 5e0 are floats on the wire, and a
// count written as a float is a bug in the sender worth hearing about. An
// integer too long for 64 bits arrives as a float from the JSON reader, and
// is out of range either way.
std::int64_t integer_at(const json& value, const std::string& path, std::int64_t lowest,
                        std::int64_t highest) {
  // Appended piece by piece: "[" + std::to_string(...) trips GCC 12's
  // -Wrestrict false positive (PR 105651) at -O3.
  std::string range = "[";
  range.append(std::to_string(lowest)).append(", ").append(std::to_string(highest));
  range.push_back(']');
  if (value.is_number_unsigned()) {
    const std::uint64_t n = value.get<std::uint64_t>();
    if (n <= static_cast<std::uint64_t>(highest)) return static_cast<std::int64_t>(n);
  } else if (value.is_number_integer()) {
    const std::int64_t n = value.get<std::int64_t>();
    if (n >= lowest && n <= highest) return n;
  } else {
    fail(path + ": must be an integer in " + range +
         ", written without fraction or exponent, got " + quote(value));
  }
  fail(path + ": must be in " + range + ", got " + quote(value));
}

double optional_number(const json& object, std::string_view key, const std::string& path,
                       double fallback) {
  const json* value = member(object, key);
  return value == nullptr ? fallback : number_at(*value, path);
}

double draw_at(const json& value, const std::string& path) {
  const double r = number_at(value, path);
  // Checked here, even when no draw is taken, so the rule is one sentence.
  if (!(r >= 0.0 && r < 1.0)) fail(path + ": must be in [0, 1), got " + format_number(r));
  return r;
}

void only_keys(const json& policy, std::initializer_list<std::string_view> allowed,
               std::string_view form) {
  for (const auto& [key, value] : policy.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string message = "policy.";
      append_json_string(message, key);
      message += ": unknown field for ";
      message += form;
      fail(message);
    }
  }
}

RetryPolicy base_policy(const json& p) {
  const json* factory = member(p, "factory");
  if (factory == nullptr) {
    only_keys(p,
              {"max_attempts", "initial_delay", "multiplier", "max_delay", "jitter_factor",
               "max_message_age", "give_up_after", "with_jitter"},
              "a constructor policy");
    RetryPolicy::Options o;
    if (const json* v = member(p, "max_attempts")) {
      o.max_attempts = integer_at(*v, "policy.max_attempts", kInt64Min, kInt64Max);
    }
    o.initial_delay = Seconds{optional_number(p, "initial_delay", "policy.initial_delay", 0.0)};
    o.multiplier = optional_number(p, "multiplier", "policy.multiplier", 2.0);
    o.max_delay = Seconds{optional_number(p, "max_delay", "policy.max_delay", 0.0)};
    o.jitter_factor = optional_number(p, "jitter_factor", "policy.jitter_factor", 0.0);
    o.max_message_age =
        Seconds{optional_number(p, "max_message_age", "policy.max_message_age", 0.0)};
    return RetryPolicy(o);
  }
  if (!factory->is_string()) fail("policy.factory: must be a string, got " + quote(*factory));
  const auto& name = factory->get_ref<const std::string&>();
  if (name == "none") {
    only_keys(p, {"factory", "give_up_after", "with_jitter"}, "factory none");
    return RetryPolicy::none();
  }
  if (name == "fixed") {
    only_keys(p, {"factory", "max_attempts", "delay", "give_up_after", "with_jitter"},
              "factory fixed");
    const std::int64_t max_attempts = integer_at(required(p, "max_attempts", "policy.max_attempts"),
                                                 "policy.max_attempts", kInt64Min, kInt64Max);
    const double delay = number_at(required(p, "delay", "policy.delay"), "policy.delay");
    return RetryPolicy::fixed(max_attempts, Seconds{delay});
  }
  if (name == "exponential") {
    only_keys(
        p,
        {"factory", "max_attempts", "initial_delay", "max_delay", "give_up_after", "with_jitter"},
        "factory exponential");
    const std::int64_t max_attempts = integer_at(required(p, "max_attempts", "policy.max_attempts"),
                                                 "policy.max_attempts", kInt64Min, kInt64Max);
    const double initial =
        number_at(required(p, "initial_delay", "policy.initial_delay"), "policy.initial_delay");
    const double cap = optional_number(p, "max_delay", "policy.max_delay", 0.0);
    return RetryPolicy::exponential(max_attempts, Seconds{initial}, Seconds{cap});
  }
  fail("policy.factory: must be \"none\", \"fixed\" or \"exponential\", got " + quote(*factory));
}

// The core's next_delay with the protocol's cost limit in front; `where` is
// put before messages ("calls[3] " in a replay).
std::optional<double> next_delay(const RetryPolicy& policy, std::int64_t attempt,
                                 double message_age, const std::string& where, const auto& call) {
  if (!within_cost_limit(policy, attempt, message_age)) {
    fail(where + "attempt: " + std::to_string(attempt) +
         " needs more than 2^20 multiplications on this policy, which does not settle "
         "(no cap passed, no zero, no fixed point) within 2^20 steps: the protocol's cost limit");
  }
  try {
    const std::optional<Seconds> delay = call();
    if (!delay) return std::nullopt;
    return delay->count();
  } catch (const std::invalid_argument& e) {
    fail(where + e.what());  // the core's message names the field
  }
}

void append_optional(std::string& out, const std::optional<double>& value) {
  if (value) {
    append_number(out, *value);
  } else {
    out += "null";
  }
}

void answer_schedule(const RetryPolicy& policy, std::string& out) {
  const std::int64_t entries = policy.max_attempts() - 1;
  if (entries > kMaxScheduleEntries) {
    fail("policy.max_attempts: a schedule of " + std::to_string(entries) +
         " entries is more than the protocol's 65536");
  }
  out.push_back('[');
  bool first = true;
  for (const Seconds delay : policy.schedule()) {
    if (!first) out.push_back(',');
    first = false;
    append_number(out, delay.count());
  }
  out.push_back(']');
}

void answer_next_delay(const json& request, const RetryPolicy& policy, std::string& out) {
  const std::int64_t attempt =
      integer_at(required(request, "attempt", "attempt"), "attempt", kInt64Min, kInt64Max);
  const double message_age = optional_number(request, "message_age", "message_age", 0.0);
  bool jitter = true;
  if (const json* value = member(request, "jitter")) {
    if (!value->is_boolean()) fail("jitter: must be true or false, got " + quote(*value));
    jitter = value->get<bool>();
  }
  std::optional<double> delay;
  if (jitter) {
    const double r = draw_at(required(request, "r", "r"), "r");
    delay = next_delay(policy, attempt, message_age, "", [&] {
      return policy.next_delay(attempt, Seconds{message_age}, [r] { return r; });
    });
  } else {
    delay = next_delay(policy, attempt, message_age, "", [&] {
      return policy.next_delay(attempt, Seconds{message_age}, Jitter::off);
    });
  }
  append_optional(out, delay);
}

void answer_jittered(const json& request, const RetryPolicy& policy, std::string& out) {
  const double delay = number_at(required(request, "delay", "delay"), "delay");
  const double r = draw_at(required(request, "r", "r"), "r");
  try {
    append_number(out, policy.jittered_with_draw(Seconds{delay}, r).count());
  } catch (const std::invalid_argument& e) {
    fail(std::string("delay: ") + e.what());
  }
}

void answer_replay(const json& request, const RetryPolicy& policy, std::string& out) {
  const auto seed = static_cast<std::uint32_t>(
      integer_at(required(request, "seed", "seed"), "seed", 0, kSeedMax));
  const json& calls = required(request, "calls", "calls");
  if (!calls.is_array())
    fail("calls: must be an array of [attempt, message_age], got " + quote(calls));
  if (calls.size() > kMaxReplayCalls) {
    fail("calls: " + std::to_string(calls.size()) + " calls is more than the protocol's 256");
  }
  struct Call {
    std::int64_t attempt;
    double message_age;
  };
  std::vector<Call> parsed;
  parsed.reserve(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::string path = "calls[" + std::to_string(i) + "]";
    const json& call = calls[i];
    if (!call.is_array() || call.size() != 2) {
      fail(path + ": must be [attempt, message_age], got " + quote(call));
    }
    parsed.push_back({integer_at(call[0], path + "[0] (attempt)", kInt64Min, kInt64Max),
                      number_at(call[1], path + "[1] (message_age)")});
  }
  amqp::RubyRandom source(seed);
  out.push_back('[');
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (i > 0) out.push_back(',');
    const Call& c = parsed[i];
    append_optional(
        out, next_delay(policy, c.attempt, c.message_age, "calls[" + std::to_string(i) + "] ", [&] {
          return policy.next_delay(c.attempt, Seconds{c.message_age}, source);
        }));
  }
  out.push_back(']');
}

std::string too_long_message(std::size_t bytes) {
  return "line: " + std::to_string(bytes) + " bytes is longer than the protocol's " +
         std::to_string(kMaxLineBytes);
}

json parse_request(std::string_view line) {
  if (line.size() > kMaxLineBytes) fail(too_long_message(line.size()));
  if (!nesting_within(line, kMaxDepth)) {
    fail("line: arrays and objects nest deeper than the protocol's 32");
  }
  // nlohmann skips a byte-order mark; the protocol, like RFC 8259 for
  // network text, does not allow one.
  if (line.starts_with("\xEF\xBB\xBF")) fail("line: starts with a byte-order mark");
  try {
    return json::parse(line.begin(), line.end());
  } catch (const json::exception& e) {
    fail(std::string("line: not one JSON value: ") + e.what());
  }
}

std::string error_answer(const json& id, std::string_view message) {
  std::string out = "{\"id\":";
  append_json(out, id);
  out += ",\"ok\":false,\"error\":";
  append_json_string(out, message);
  out.push_back('}');
  return out;
}

}  // namespace

RetryPolicy policy_from_json(const json& policy) {
  if (!policy.is_object()) fail("policy: must be an object, got " + quote(policy));
  RetryPolicy result;
  try {
    result = base_policy(policy);
  } catch (const std::invalid_argument& e) {
    fail(std::string("policy: ") + e.what());
  }
  if (const json* age = member(policy, "give_up_after")) {
    const double seconds = number_at(*age, "policy.give_up_after");
    try {
      result = result.give_up_after(Seconds{seconds});
    } catch (const std::invalid_argument& e) {
      fail(std::string("policy.give_up_after: ") + e.what());
    }
  }
  if (const json* factor = member(policy, "with_jitter")) {
    const double f = number_at(*factor, "policy.with_jitter");
    try {
      result = result.with_jitter(f);
    } catch (const std::invalid_argument& e) {
      fail(std::string("policy.with_jitter: ") + e.what());
    }
  }
  return result;
}

bool within_cost_limit(const RetryPolicy& policy, std::int64_t attempt, double message_age) {
  return amqp::internal::walk_multiplications(policy, attempt, message_age, kMaxSteps) <= kMaxSteps;
}

// The last fallback is a 12-character literal, inside std::string's inline
// buffer, so nothing can escape; clang-tidy cannot see that.
// NOLINTNEXTLINE(bugprone-exception-escape)
std::string answer_line(std::string_view request_line) noexcept {
  json id;  // null until the request is known to have one
  try {
    try {
      const json request = parse_request(request_line);
      if (!request.is_object()) fail("line: must be a JSON object, got " + quote(request));
      if (const json* given = member(request, "id")) id = *given;
      const json& op_value = required(request, "op", "op");
      if (!op_value.is_string()) fail("op: must be a string, got " + quote(op_value));
      const auto& op = op_value.get_ref<const std::string&>();
      if (op != "schedule" && op != "next_delay" && op != "jittered" && op != "replay") {
        fail("op: must be \"schedule\", \"next_delay\", \"jittered\" or \"replay\", got " +
             quote(op_value));
      }
      const RetryPolicy policy = policy_from_json(required(request, "policy", "policy"));

      std::string out = "{\"id\":";
      append_json(out, id);
      out += ",\"ok\":true,\"result\":";
      if (op == "schedule") {
        answer_schedule(policy, out);
      } else if (op == "next_delay") {
        answer_next_delay(request, policy, out);
      } else if (op == "jittered") {
        answer_jittered(request, policy, out);
      } else {
        answer_replay(request, policy, out);
      }
      out.push_back('}');
      return out;
    } catch (const ProtocolError& e) {
      return error_answer(id, e.what());
    } catch (const std::exception& e) {
      // Not expected: every rule is checked above. Still an answer, so the
      // server goes on, and the message says where to look.
      return error_answer(id, std::string("internal: ") + e.what());
    }
  } catch (...) {
    // Out of memory while writing the error itself: the shortest answer that
    // still says no (15 characters fit std::string's inline buffer).
    return "{\"ok\":false}";
  }
}

// NOLINTNEXTLINE(bugprone-exception-escape): as answer_line.
std::string line_too_long_answer(std::size_t bytes) noexcept {
  try {
    return error_answer(json(), too_long_message(bytes));
  } catch (...) {
    return "{\"ok\":false}";
  }
}

}  // namespace acemq::conformance
