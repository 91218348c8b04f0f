#include "conformance/protocol/protocol.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/amqp/ruby_random.hpp"
#include "conformance/protocol/core_refusal.hpp"
#include "conformance/protocol/wire.hpp"

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

// Text quoted in an error message, cut short: the message must name the
// field, not repeat a megabyte of input.
std::string clipped(std::string text) {
  constexpr std::size_t kShown = 60;
  if (text.size() > kShown) {
    text.resize(kShown);
    text += "...";
  }
  return text;
}

std::string quote(const json& value) { return clipped(to_line(value)); }

// A member's name as an error message shows it: a JSON string, so that any
// key (control characters, a megabyte of it) reads back unambiguously.
std::string quoted_key(std::string_view key) {
  std::string text;
  append_json_string(text, key);
  return clipped(text);
}

std::string joined(std::span<const std::string_view> names) {
  std::string out;
  for (const std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
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

// The core's rule for a value it refused, in the protocol's words: the
// protocol names its own field, "<path>: must be <rule>, got <value>", the
// value in wire form. A NaN refused by a rule that names NaN is not shown
// twice.
[[noreturn]] void fail_core(const std::string& path, double value, const std::exception& e) {
  const std::optional<CoreRefusal> refusal = read_refusal(e.what());
  if (!refusal) fail(path + ": " + e.what());  // not the core's form: its own words
  std::string out = path + ": must be " + std::string(refusal->rule);
  if (!(std::isnan(value) && refusal->rule.find("NaN") != std::string_view::npos)) {
    out += ", got " + format_number(value);
  }
  fail(out);
}

// The parameter the core names in its refusal, or "" if it names none.
std::string_view core_field(const std::exception& e) {
  const std::optional<CoreRefusal> refusal = read_refusal(e.what());
  return refusal ? refusal->name : std::string_view();
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
    // nlohmann reads every non-negative integer as unsigned, 0 included, so
    // the lower bound is checked here too (count's is 1).
    const std::uint64_t n = value.get<std::uint64_t>();
    if (n <= static_cast<std::uint64_t>(highest) && static_cast<std::int64_t>(n) >= lowest) {
      return static_cast<std::int64_t>(n);
    }
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

// Every member of `object` is one of `allowed` (or of `also`); `what` says
// whose members they are in the message, which lists the allowed ones.
void only_members(const json& object, std::span<const std::string_view> allowed,
                  std::span<const std::string_view> also, std::string_view prefix,
                  std::string_view what) {
  const auto listed = [](std::span<const std::string_view> names, std::string_view key) {
    return std::find(names.begin(), names.end(), key) != names.end();
  };
  for (const auto& [key, value] : object.items()) {
    if (listed(allowed, key) || listed(also, key)) continue;
    fail(std::string(prefix) + quoted_key(key) + ": not a member of " + std::string(what) +
         " (its members: " + joined(allowed) + ")");
  }
}

// ---- policy --------------------------------------------------------------

constexpr std::string_view kConstructorFields[] = {
    "max_attempts",  "initial_delay",   "multiplier",    "max_delay",
    "jitter_factor", "max_message_age", "give_up_after", "with_jitter"};
constexpr std::string_view kNoneFields[] = {"factory", "give_up_after", "with_jitter"};
constexpr std::string_view kFixedFields[] = {"factory", "max_attempts", "delay", "give_up_after",
                                             "with_jitter"};
constexpr std::string_view kExponentialFields[] = {"factory",   "max_attempts",  "initial_delay",
                                                   "max_delay", "give_up_after", "with_jitter"};

// The value of the field the core refused, for the message.
double field_value(const RetryPolicy::Options& o, std::string_view name) {
  if (name == "max_attempts") return static_cast<double>(o.max_attempts);
  if (name == "initial_delay") return o.initial_delay.count();
  if (name == "multiplier") return o.multiplier;
  if (name == "max_delay") return o.max_delay.count();
  if (name == "jitter_factor") return o.jitter_factor;
  return o.max_message_age.count();
}

// Makes the base policy with the core, which validates it; a refusal names
// the request's field (`delay` for the core's initial_delay in fixed).
RetryPolicy made(const RetryPolicy::Options& o, std::string_view delay_field, const auto& make) {
  try {
    return make();
  } catch (const std::invalid_argument& e) {
    const std::string_view name = core_field(e);
    if (name == "max_attempts") {
      fail("policy.max_attempts: must be at least 1, got " + std::to_string(o.max_attempts));
    }
    const std::string_view field = name == "initial_delay" ? delay_field : name;
    fail_core("policy." + std::string(field), field_value(o, name), e);
  }
}

RetryPolicy base_policy(const json& p) {
  const json* factory = member(p, "factory");
  if (factory == nullptr) {
    only_members(p, kConstructorFields, {}, "policy.", "a constructor policy");
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
    return made(o, "initial_delay", [&] { return RetryPolicy(o); });
  }
  const std::string name = factory->is_string() ? factory->get<std::string>() : "";
  if (name == "none") {
    only_members(p, kNoneFields, {}, "policy.", "a policy of factory none");
    return RetryPolicy::none();
  }
  if (name == "fixed") {
    only_members(p, kFixedFields, {}, "policy.", "a policy of factory fixed");
    RetryPolicy::Options o;
    o.max_attempts = integer_at(required(p, "max_attempts", "policy.max_attempts"),
                                "policy.max_attempts", kInt64Min, kInt64Max);
    o.initial_delay = Seconds{number_at(required(p, "delay", "policy.delay"), "policy.delay")};
    return made(o, "delay", [&] { return RetryPolicy::fixed(o.max_attempts, o.initial_delay); });
  }
  if (name == "exponential") {
    only_members(p, kExponentialFields, {}, "policy.", "a policy of factory exponential");
    RetryPolicy::Options o;
    o.max_attempts = integer_at(required(p, "max_attempts", "policy.max_attempts"),
                                "policy.max_attempts", kInt64Min, kInt64Max);
    o.initial_delay = Seconds{
        number_at(required(p, "initial_delay", "policy.initial_delay"), "policy.initial_delay")};
    o.max_delay = Seconds{optional_number(p, "max_delay", "policy.max_delay", 0.0)};
    return made(o, "initial_delay", [&] {
      return RetryPolicy::exponential(o.max_attempts, o.initial_delay, o.max_delay);
    });
  }
  fail("policy.factory: must be \"none\", \"fixed\" or \"exponential\", got " + quote(*factory));
}

// ---- ops -----------------------------------------------------------------

// The core's next_delay with the protocol's cost limit in front; `where` is
// put before field names ("calls[3]" in a replay, whose attempt is
// "calls[3][0] (attempt)").
std::optional<double> next_delay(const RetryPolicy& policy, std::int64_t attempt,
                                 double message_age, const std::string& attempt_path,
                                 const std::string& age_path, const auto& call) {
  try {
    if (!within_cost_limit(policy, attempt, message_age)) {
      fail(attempt_path + ": " + std::to_string(attempt) +
           " needs more than 2^20 multiplications on this policy, which does not settle "
           "(no cap passed, no zero, no fixed point) within 2^20 steps: the protocol's cost "
           "limit");
    }
    const std::optional<Seconds> delay = call();
    if (!delay) return std::nullopt;
    return delay->count();
  } catch (const std::invalid_argument& e) {
    if (core_field(e) == "attempt") {
      fail(attempt_path + ": must be at least 1, got " + std::to_string(attempt));
    }
    fail_core(age_path, message_age, e);
  }
}

void append_optional(std::string& out, const std::optional<double>& value) {
  if (value) {
    append_number(out, *value);
  } else {
    out += "null";
  }
}

void answer_schedule(const json& /*request*/, const RetryPolicy& policy, std::string& out) {
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
    delay = next_delay(policy, attempt, message_age, "attempt", "message_age", [&] {
      return policy.next_delay(attempt, Seconds{message_age}, [r] { return r; });
    });
  } else {
    // Without jitter `r` is not read at all: neither required nor checked.
    delay = next_delay(policy, attempt, message_age, "attempt", "message_age", [&] {
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
    fail_core("delay", delay, e);
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
      fail(path + ": must be [attempt, message_age], exactly two elements, got " + quote(call));
    }
    parsed.push_back({integer_at(call[0], path + "[0] (attempt)", kInt64Min, kInt64Max),
                      number_at(call[1], path + "[1] (message_age)")});
  }
  amqp::RubyRandom source(seed);
  out.push_back('[');
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (i > 0) out.push_back(',');
    const Call& c = parsed[i];
    const std::string path = "calls[" + std::to_string(i) + "]";
    append_optional(out, next_delay(policy, c.attempt, c.message_age, path + "[0] (attempt)",
                                    path + "[1] (message_age)", [&] {
                                      return policy.next_delay(c.attempt, Seconds{c.message_age},
                                                               source);
                                    }));
  }
  out.push_back(']');
}

// Draws from the core's own default source (DefaultSource, through the
// overloads that take none), as a user of this port gets them: the one op
// whose answer is random, for `retry-policy stats --impl`.
void answer_sample(const json& request, const RetryPolicy& policy, std::string& out) {
  const std::int64_t count = integer_at(required(request, "count", "count"), "count", 1, kInt64Max);
  if (count > kMaxSampleCount) {
    fail("count: " + std::to_string(count) + " draws is more than the protocol's 65536");
  }
  const json* delay_member = member(request, "delay");
  const json* attempt_member = member(request, "attempt");
  if ((delay_member == nullptr) == (attempt_member == nullptr)) {
    fail(delay_member == nullptr ? "delay: missing, and so is attempt: give exactly one"
                                 : "attempt: not allowed with delay: give exactly one");
  }
  out.push_back('[');
  if (delay_member != nullptr) {
    const double delay = number_at(*delay_member, "delay");
    // NaN is refused once, before any draw, so the answer is all or nothing.
    try {
      append_number(out, policy.jittered(Seconds{delay}).count());
    } catch (const std::invalid_argument& e) {
      fail_core("delay", delay, e);
    }
    for (std::int64_t i = 1; i < count; ++i) {
      out.push_back(',');
      append_number(out, policy.jittered(Seconds{delay}).count());
    }
  } else {
    const std::int64_t attempt = integer_at(*attempt_member, "attempt", kInt64Min, kInt64Max);
    for (std::int64_t i = 0; i < count; ++i) {
      if (i > 0) out.push_back(',');
      append_optional(out, next_delay(policy, attempt, 0.0, "attempt", "message_age",
                                      [&] { return policy.next_delay(attempt); }));
    }
  }
  out.push_back(']');
}

// The ops, each with the members a request of it takes besides id, op and
// policy, and its answer.
constexpr std::string_view kScheduleMembers[] = {"id", "op", "policy"};
constexpr std::string_view kNextDelayMembers[] = {"id",          "op",     "policy", "attempt",
                                                  "message_age", "jitter", "r"};
constexpr std::string_view kJitteredMembers[] = {"id", "op", "policy", "delay", "r"};
constexpr std::string_view kReplayMembers[] = {"id", "op", "policy", "seed", "calls"};
constexpr std::string_view kSampleMembers[] = {"id", "op", "policy", "delay", "attempt", "count"};
// A vector line is a request with its expected answer added; these ride
// along and are never read.
constexpr std::string_view kVectorLineMembers[] = {"expect", "expect_error"};

struct Op {
  std::string_view name;
  std::span<const std::string_view> members;
  void (*answer)(const json& request, const RetryPolicy& policy, std::string& out);
};

constexpr Op kOps[] = {
    {"schedule", kScheduleMembers, answer_schedule},
    {"next_delay", kNextDelayMembers, answer_next_delay},
    {"jittered", kJitteredMembers, answer_jittered},
    {"replay", kReplayMembers, answer_replay},
    {"sample", kSampleMembers, answer_sample},
};

const Op& op_of(const json& request) {
  const json& op = required(request, "op", "op");
  if (op.is_string()) {
    for (const Op& candidate : kOps) {
      if (op.get_ref<const std::string&>() == candidate.name) return candidate;
    }
  }
  fail("op: must be \"schedule\", \"next_delay\", \"jittered\", \"replay\" or \"sample\", got " +
       quote(op));
}

// ---- lines ---------------------------------------------------------------

std::string too_long_message(std::size_t bytes) {
  return "line: " + std::to_string(bytes) + " bytes is longer than the protocol's " +
         std::to_string(kMaxLineBytes);
}

// Why a line is not one JSON value, in the protocol's words. The JSON
// reader's message is only looked at to tell the cases apart; none of its
// text reaches the answer.
std::string malformed(std::string_view line, const json::exception& e) {
  const std::string_view what = e.what();
  const auto says = [&](std::string_view text) {
    return what.find(text) != std::string_view::npos;
  };
  if (e.id == 406) {  // out_of_range.406: number overflow parsing '<literal>'
    const std::size_t open = what.find('\'');
    const std::size_t close = what.rfind('\'');
    const std::string literal =
        open < close ? std::string(what.substr(open + 1, close - open - 1)) : std::string("?");
    return "line: the number " + clipped(literal) +
           " is beyond binary64's range (write \"Infinity\" for an infinite value)";
  }
  std::size_t column = 0;
  if (const auto* parse = dynamic_cast<const json::parse_error*>(&e)) column = parse->byte;
  const std::string at = " at column " + std::to_string(column);
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return "line: empty; a request is one JSON object";
  }
  if (says("expected end of input")) return "line: more than one JSON value," + at;
  if (says("unexpected end of input") || says("missing closing quote")) {
    return "line: ends inside a JSON value (truncated?)";
  }
  if (says("ill-formed UTF-8")) return "line: a string holds invalid UTF-8," + at;
  if (says("surrogate")) return "line: a string holds a lone surrogate (\\ud800 to \\udfff)," + at;
  if (says("control character")) {
    return "line: a string holds an unescaped control character," + at;
  }
  if (says("invalid string")) return "line: a string holds an invalid escape," + at;
  if (says("invalid number")) return "line: a malformed number," + at;
  if (says("invalid literal") && column >= 1 && column <= line.size()) {
    const std::string_view rest = line.substr(column - 1);
    if (rest.starts_with("NaN") || rest.starts_with("Infinity") || rest.starts_with("-Infinity")) {
      return "line: bare NaN or Infinity," + at + "; write the strings \"NaN\", \"Infinity\"";
    }
  }
  return "line: not JSON," + at;
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
    fail(malformed(line, e));
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
  // The base policy is made, and validated, first; then each copy, which
  // validates only its own argument.
  RetryPolicy result = base_policy(policy);
  if (const json* age = member(policy, "give_up_after")) {
    const double seconds = number_at(*age, "policy.give_up_after");
    try {
      result = result.give_up_after(Seconds{seconds});
    } catch (const std::invalid_argument& e) {
      fail_core("policy.give_up_after", seconds, e);
    }
  }
  if (const json* factor = member(policy, "with_jitter")) {
    const double f = number_at(*factor, "policy.with_jitter");
    try {
      result = result.with_jitter(f);
    } catch (const std::invalid_argument& e) {
      fail_core("policy.with_jitter", f, e);
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
      const Op& op = op_of(request);
      only_members(request, op.members, kVectorLineMembers, "",
                   "a " + std::string(op.name) + " request");
      const RetryPolicy policy = policy_from_json(required(request, "policy", "policy"));

      std::string out = "{\"id\":";
      append_json(out, id);
      out += ",\"ok\":true,\"result\":";
      op.answer(request, policy, out);
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
