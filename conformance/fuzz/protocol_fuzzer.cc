// protocol_fuzzer: libFuzzer over the conformance protocol's request handler.
//
// Each input is one request line handed to answer_line. Surviving is not
// enough: the answer must also keep the protocol's promises, so each is
// checked and any broken promise traps (libFuzzer then saves the input):
//
//   - it is one line of JSON, an object with "id", a boolean "ok", and either
//     "result" or a non-empty string "error" that is not an "internal:" one
//     (those mean a rule the handler forgot to check) and carries none of
//     the JSON reader's or the core's own wording (the protocol speaks for
//     itself: docs/protocol.md, Errors);
//   - "id" is the request's id (the same value: a float id comes back in
//     shortest round-trip form), or null when the request had none or was
//     no JSON object;
//   - the same line answered again, and again after an unrelated request,
//     gives the same bytes: no state survives from one line to the next
//     (but a sample's draws, the default source's);
//   - a result has the op's shape and obeys the contract's arithmetic, as
//     the shared model (model/, docs/contract.md) computes it: schedule
//     entries and unjittered next_delay bit for bit, jittered bit for bit,
//     and every delay neither NaN nor below zero.
//
// Run it with conformance/fuzz/run; see conformance/fuzz/README.md.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/bits.hpp"
#include "acemq/model/contract.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/request.hpp"
#include "conformance/protocol/respond.hpp"
#include "conformance/protocol/wire.hpp"

namespace {

using acemq::amqp::RetryPolicy;
using nlohmann::json;
namespace conf = acemq::conformance;

// Prints what broke and traps, so libFuzzer records the input as a crash.
[[noreturn]] void broken(const char* promise, std::string_view request, std::string_view answer) {
  std::fprintf(stderr, "\nprotocol_fuzzer: broken promise: %s\n  request: %.*s\n  answer:  %.*s\n",
               promise, static_cast<int>(request.size() > 2000 ? 2000 : request.size()),
               request.data(), static_cast<int>(answer.size() > 2000 ? 2000 : answer.size()),
               answer.data());
  std::fflush(stderr);
  __builtin_trap();
}

using acemq::model::bits_of;
namespace model = acemq::model;

// Wire equality: a float id is written in wire form (shortest round trip),
// so it is compared by its bits.
bool same_wire(const json& sent, const json& echoed) {
  if (sent.is_number_float()) {
    const std::optional<double> back = conf::wire_number(echoed);
    return back && bits_of(*back) == bits_of(sent.get<double>());
  }
  if (sent.is_array()) {
    if (!echoed.is_array() || echoed.size() != sent.size()) return false;
    for (std::size_t i = 0; i < sent.size(); ++i) {
      if (!same_wire(sent[i], echoed[i])) return false;
    }
    return true;
  }
  if (sent.is_object()) {
    if (!echoed.is_object() || echoed.size() != sent.size()) return false;
    for (const auto& [key, value] : sent.items()) {
      const auto it = echoed.find(key);
      if (it == echoed.end() || !same_wire(value, *it)) return false;
    }
    return true;
  }
  return sent == echoed;
}

// A delay on the wire: a JSON number, or "Infinity"; never NaN, never below
// zero (-0.0 is allowed: Ruby's [x, 0.0].max keeps it).
std::optional<double> wire_delay(const json& value) {
  const std::optional<double> d = conf::wire_number(value);
  if (!d || std::isnan(*d) || *d < 0.0) return std::nullopt;
  return d;
}

// next_delay with jitter off, walked the slow way; only for small attempts,
// as each costs attempt - 1 multiplications.
constexpr std::int64_t kWalkLimit = 4096;

void check_schedule(const RetryPolicy& p, const json& result, std::string_view line,
                    std::string_view answer) {
  if (!result.is_array()) broken("schedule result is an array", line, answer);
  if (static_cast<std::int64_t>(result.size()) != p.max_attempts() - 1) {
    broken("a schedule has max_attempts - 1 entries", line, answer);
  }
  const std::vector<double> want = model::schedule(p.options());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::optional<double> d = wire_delay(result[i]);
    if (!d) broken("schedule entries are delays", line, answer);
    if (!model::same_bits(*d, want[i])) {
      broken("schedule entries are the reference's, bit for bit", line, answer);
    }
  }
}

void check_next_delay(const RetryPolicy& p, const conf::NextDelayCall& call, const json& result,
                      std::string_view line, std::string_view answer) {
  const bool gives_up = model::gives_up(p.options(), call.attempt, call.message_age);
  if (result.is_null() != gives_up) broken("null exactly when the policy gives up", line, answer);
  if (gives_up) return;
  const std::optional<double> d = wire_delay(result);
  if (!d) broken("next_delay is a delay", line, answer);
  if (!call.jitter && call.attempt <= kWalkLimit) {
    if (!model::same_bits(*d, *model::next_delay(p.options(), call.attempt, call.message_age))) {
      broken("unjittered next_delay is the schedule's entry, clamped at 0", line, answer);
    }
  }
}

void check_jittered(const RetryPolicy& p, const conf::JitteredCall& call, const json& result,
                    std::string_view line, std::string_view answer) {
  const std::optional<double> got = conf::wire_number(result);
  if (!got || std::isnan(*got)) broken("jittered is a number, not NaN", line, answer);
  if (!model::same_bits(*got, model::jittered(p.options(), call.delay, call.r))) {
    broken("jittered is the reference's formula", line, answer);
  }
}

void check_replay(const conf::ReplayCall& call, const json& result, std::string_view line,
                  std::string_view answer) {
  if (!result.is_array() || result.size() != call.calls.size()) {
    broken("a replay answers each call", line, answer);
  }
  for (const json& delay : result) {
    if (!delay.is_null() && !wire_delay(delay)) broken("replay entries are delays", line, answer);
  }
}

void check_sample(const conf::SampleCall& call, const json& result, std::string_view line,
                  std::string_view answer) {
  // Draws from the default source: only their count and form are known.
  if (!result.is_array() || static_cast<std::int64_t>(result.size()) != call.count) {
    broken("a sample answers count delays", line, answer);
  }
  for (const json& delay : result) {
    if (!wire_delay(delay)) broken("sample entries are delays", line, answer);
  }
}

template <typename... Checks>
struct Overloaded : Checks... {
  using Checks::operator()...;
};
template <typename... Checks>
Overloaded(Checks...) -> Overloaded<Checks...>;

void check_result(const json& result, std::string_view line, std::string_view answer) {
  // An ok answer means the line was a Request with a valid policy, so
  // making that policy again must work.
  const conf::ParsedLine parsed = conf::parse_request(line);
  const auto* valid = std::get_if<conf::Request>(&parsed);
  if (valid == nullptr) broken("an ok answer is to a line that parses as a request", line, answer);
  const RetryPolicy policy = conf::make_policy(valid->policy);
  // One check an op, on the typed call: an op added to the protocol does
  // not compile here until it has one.
  std::visit(Overloaded{
                 [&](const conf::ScheduleCall&) { check_schedule(policy, result, line, answer); },
                 [&](const conf::NextDelayCall& call) {
                   check_next_delay(policy, call, result, line, answer);
                 },
                 [&](const conf::JitteredCall& call) {
                   check_jittered(policy, call, result, line, answer);
                 },
                 [&](const conf::ReplayCall& call) { check_replay(call, result, line, answer); },
                 [&](const conf::SampleCall& call) { check_sample(call, result, line, answer); },
             },
             valid->op);
}

// The line as the handler should have read it: nullopt when it is no JSON
// within the protocol's limits.
std::optional<json> request_value(std::string_view line) {
  // A NUL byte is never JSON; the reader would stop at it.
  if (line.size() > conf::kMaxLineBytes || !conf::nesting_within(line, conf::kMaxDepth) ||
      line.starts_with("\xEF\xBB\xBF") || line.find('\0') != std::string_view::npos) {
    return std::nullopt;
  }
  json parsed = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return std::nullopt;
  return parsed;
}

// The request: nullopt when the line is no JSON object (and then the id
// must be null).
std::optional<json> request_object(std::string_view line) {
  std::optional<json> parsed = request_value(line);
  if (!parsed || !parsed->is_object()) return std::nullopt;
  return parsed;
}

// Whether a member name or a string anywhere in the request holds
// `phrase`: the protocol echoes an unknown member's name and a bad value
// (a factory, an op) in its messages, so such a phrase is the request's own
// words, not a leak. The fuzzer spliced "json.exception" into a key once,
// and into a factory's name since, and into a string of a line that is an
// array, which "line: must be a JSON object, got [...]" echoes whole.
bool the_request_holds(const json& value, std::string_view phrase) {
  if (value.is_string()) {
    return value.get_ref<const std::string&>().find(phrase) != std::string::npos;
  }
  if (value.is_array()) {
    for (const json& item : value) {
      if (the_request_holds(item, phrase)) return true;
    }
  }
  if (!value.is_object()) return false;
  for (const auto& [key, item] : value.items()) {
    if (key.find(phrase) != std::string::npos || the_request_holds(item, phrase)) return true;
  }
  return false;
}

bool leaks(std::string_view line, const std::string& message, std::string_view phrase) {
  if (message.find(phrase) == std::string::npos) return false;
  const std::optional<json> request = request_value(line);
  return !(request && the_request_holds(*request, phrase));
}

void check_answer(std::string_view line, const std::string& answer) {
  if (answer.find_first_of("\n\r") != std::string::npos) broken("one line", line, answer);
  const json a = json::parse(answer, nullptr, /*allow_exceptions=*/false);
  if (!a.is_object()) broken("the answer is a JSON object", line, answer);
  if (!a.contains("ok") || !a["ok"].is_boolean()) broken("a boolean \"ok\"", line, answer);
  if (!a.contains("id")) broken("an \"id\", null when there is none", line, answer);
  const bool ok = a["ok"].get<bool>();
  if (a.size() != 3 || !a.contains(ok ? "result" : "error")) {
    broken("exactly id, ok and result or error", line, answer);
  }
  if (!ok) {
    const json& error = a["error"];
    if (!error.is_string() || error.get_ref<const std::string&>().empty()) {
      broken("an error is a non-empty string", line, answer);
    }
    const std::string& message = error.get_ref<const std::string&>();
    if (message.starts_with("internal:")) {
      broken("no internal errors: every rule is checked by name", line, answer);
    }
    if (leaks(line, message, "json.exception") || leaks(line, message, "RetryPolicy")) {
      broken("errors in the protocol's words, not the JSON reader's or the core's", line, answer);
    }
  }
  std::string why;
  if (!conf::parse_answer(answer, why)) broken("parse_answer reads it", line, answer);

  const std::optional<json> request = request_object(line);
  if (!request) {
    if (ok) broken("a line that is no JSON object is an error", line, answer);
    if (!a["id"].is_null()) broken("no id without a request object", line, answer);
    return;
  }
  const json no_id;
  if (!same_wire(request->contains("id") ? (*request)["id"] : no_id, a["id"])) {
    broken("the id is echoed", line, answer);
  }
  if (ok) check_result(a["result"], line, answer);
}

// A request answered between the two calls on the fuzzed line, so state left
// behind by either would show as a change in one of them.
constexpr std::string_view kProbe =
    R"({"op":"replay","policy":{"factory":"exponential","max_attempts":5,"initial_delay":0.5},)"
    R"("seed":42,"calls":[[1,0],[2,0],[3,0]],"id":"probe"})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string probe_answer = conf::answer_line(kProbe);
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const std::string first = conf::answer_line(line);
  check_answer(line, first);
  if (conf::answer_line(kProbe) != probe_answer) broken("no state: the probe changed", line, first);
  // A sample draws from the default source, the one state a conversation
  // keeps (docs/protocol.md, Ops): asked again, it gives the next draws.
  const conf::ParsedLine parsed = conf::parse_request(line);
  const auto* asked = std::get_if<conf::Request>(&parsed);
  const bool samples = asked != nullptr && std::holds_alternative<conf::SampleCall>(asked->op);
  if (!samples && conf::answer_line(line) != first) {
    broken("no state: the same line, the same bytes", line, first);
  }
  return 0;
}
