#include "case_generator.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <string_view>

#include "acemq/model/contract.hpp"
#include "acemq/model/edge_values.hpp"
#include "acemq/model/unit_interval.hpp"
#include "protocol.hpp"
#include "wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::ordered_json;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// The reference's backoff walks every step; 5000 keeps one Ruby answer quick.
constexpr std::int64_t kReferenceMaxAttempt = 5000;

double next_up(double x) { return std::nextafter(x, HUGE_VAL); }
double next_down(double x) { return std::nextafter(x, -HUGE_VAL); }

// Wire form of a double inside a JSON document: a number, or the string for
// a non-finite value.
ordered_json wire(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

}  // namespace

struct CaseGenerator::PolicyParameters {
  std::string form;  // "constructor", "none", "fixed", "exponential"
  std::int64_t max_attempts = 1;
  double initial_delay = 0.0;
  double multiplier = 2.0;
  double max_delay = 0.0;
  double jitter_factor = 0.0;
  double max_message_age = 0.0;
  // Which constructor fields are written out (the rest take the defaults).
  bool has[6] = {true, true, true, true, true, true};
  std::optional<double> give_up_after;
  std::optional<double> with_jitter;

  // The values the policy ends up with, after the factory and the copies.
  double effective_jitter() const {
    if (with_jitter) return *with_jitter;
    if (form == "exponential") return 0.2;
    if (form == "constructor") return jitter_factor;
    return 0.0;
  }
  double effective_age_limit() const {
    if (give_up_after) return *give_up_after;
    return form == "constructor" ? max_message_age : 0.0;
  }
  std::int64_t effective_max_attempts() const { return form == "none" ? 1 : max_attempts; }
};

CaseGenerator::CaseGenerator(std::uint64_t seed, Profile profile)
    : engine_(seed), profile_(profile) {}

double CaseGenerator::uniform01() { return model::unit_interval_from_bits(engine_()); }

std::uint64_t CaseGenerator::below(std::uint64_t n) {
  // Rejection keeps it exactly uniform; n is never 0 here.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  for (;;) {
    const std::uint64_t x = engine_();
    if (x < limit) return x % n;
  }
}

std::int64_t CaseGenerator::between(std::int64_t lo, std::int64_t hi) {
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == std::numeric_limits<std::uint64_t>::max())
    return static_cast<std::int64_t>(engine_());
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
}

bool CaseGenerator::chance(double p) { return uniform01() < p; }

template <std::size_t N>
std::size_t CaseGenerator::pick(const double (&weights)[N]) {
  double total = 0.0;
  for (const double w : weights) total += w;
  double x = uniform01() * total;
  for (std::size_t i = 0; i < N; ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  return N - 1;
}

// A double with a random 52-bit mantissa and a binary exponent in [lo, hi]:
// log-uniform without libm, every bit pattern of those binades possible.
double CaseGenerator::with_exponent(int lo, int hi) {
  const double mantissa = 1.0 + static_cast<double>(engine_() >> 12U) * 0x1p-52;
  return std::ldexp(mantissa, static_cast<int>(between(lo, hi)));
}

double CaseGenerator::subnormal() {
  return std::ldexp(static_cast<double>((engine_() >> 12U) | 1U), -1074);
}

double CaseGenerator::delay_value() {
  static constexpr double kRound[] = {0.001, 0.1, 0.25, 0.5,  1.0,   1.5,
                                      2.0,   5.0, 30.0, 60.0, 100.0, 3600.0};
  switch (pick({2, 1, 1, 0.5, 2, 8, 4, 1.5, 0.5})) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return subnormal();
    case 3: return std::numeric_limits<double>::denorm_min();
    case 4: return with_exponent(-1022, -30);
    case 5: return with_exponent(-10, 12);
    case 6: return kRound[below(std::size(kRound))];
    case 7: return with_exponent(990, 1023);
    default: return std::numeric_limits<double>::max();
  }
}

double CaseGenerator::multiplier_value(bool for_replay) {
  static constexpr double kExact[] = {0.5, 1.5, 3.0, 10.0, 0.1};
  // A replay leans on multiplier 0: the first delay is jittered, every later
  // one is 0 and must take no draw.
  switch (pick({for_replay ? 4.0 : 2.0, 0.5, 3, 1, 2, 1, 1, 1, 3, 4, 2, 1, 0.5})) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return uniform01();
    case 3: return with_exponent(-1074 + 52, -20);
    case 4: return 1.0;
    case 5: return next_up(1.0);  // 1 + 2^-52: grows by an ulp a step
    case 6: return 1.000000001;   // 1 + 1e-9: 7e11 steps to overflow
    case 7: return 1.0 + with_exponent(-30, -5);
    case 8: return 2.0;
    case 9: return 1.0 + 3.0 * uniform01();
    case 10: return kExact[below(std::size(kExact))];
    case 11: return with_exponent(4, 40);
    default: return 1e300;
  }
}

double CaseGenerator::draw_value() {
  switch (pick({2, 1, 1, 1, 5, 0.5, 0.5})) {
    case 0: return 0.0;
    case 1: return model::edges::kSmallestPositiveDraw;
    case 2: return 0.5;
    case 3: return model::edges::kLargestDraw;
    case 4: return uniform01();
    case 5: return next_down(0.5);
    default: return with_exponent(-1074 + 52, -60);
  }
}

double CaseGenerator::jitter_factor_value() {
  switch (pick({3, 1.5, 1, 1, 3, 0.5, 0.5})) {
    case 0: return 0.0;
    case 1: return 1.0;
    case 2: return 0.2;
    case 3: return 0.5;
    case 4: return uniform01();
    case 5: return model::edges::kSmallestPositiveDraw;
    default: return model::edges::kLargestDraw;
  }
}

std::int64_t CaseGenerator::max_attempts_value(const std::string& op) {
  const bool schedule = op == "schedule";
  const bool reference = profile_ == Profile::reference;
  switch (pick({1, 5, 2, 1.5, schedule ? 0.0 : 1.0, schedule ? 0.0 : 0.2,
                schedule && !reference ? 0.05 : 0.0})) {
    case 0: return 1;
    case 1: return between(2, 10);
    case 2: return between(11, 100);
    case 3: return between(1000, 2000);  // uncapped doubling overflows past 1025
    case 4: return between(std::int64_t{1} << 20, std::int64_t{1} << 62);
    case 5: return kInt64Max;
    default: return kMaxScheduleEntries + 1;  // the longest schedule answered
  }
}

std::int64_t CaseGenerator::attempt_value(std::int64_t max_attempts) {
  const bool huge = max_attempts > 100000;
  const std::int64_t top = std::min<std::int64_t>(max_attempts, huge ? 2000 : max_attempts);
  std::int64_t attempt = 1;
  switch (pick({2, 5, 2, 1, 0.5, huge ? 1.0 : 0.0})) {
    case 0: attempt = 1; break;
    case 1: attempt = between(1, std::max<std::int64_t>(1, top)); break;
    case 2: attempt = std::max<std::int64_t>(1, max_attempts - 1); break;
    case 3: attempt = max_attempts; break;
    case 4: attempt = max_attempts == kInt64Max ? max_attempts : max_attempts + 1; break;
    default: {
      // Far along a huge policy: settles (capped, zero, overflowed) or hits
      // the protocol's cost limit, and both sides must say which.
      static constexpr std::int64_t kFar[] = {std::int64_t{1000000000}, std::int64_t{1} << 40,
                                              std::int64_t{1000000000000000}, kInt64Max - 1};
      attempt = std::min(kFar[below(std::size(kFar))], max_attempts - 1);
    }
  }
  if (profile_ == Profile::reference) attempt = std::min(attempt, kReferenceMaxAttempt);
  return attempt;
}

double CaseGenerator::age_value(double limit) {
  if (limit > 0.0 && chance(0.6)) {
    switch (pick({2, 1, 1, 1, 0.5})) {
      case 0: return limit * uniform01();
      case 1: return limit;  // the limit is inclusive: gives up
      case 2: return next_up(limit);
      case 3: return next_down(limit);
      default: return limit * (1.0 + 100.0 * uniform01());
    }
  }
  switch (pick({4, 0.5, 1, 0.5, 0.5, 1})) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return -with_exponent(-10, 12);
    case 3: return HUGE_VAL;
    case 4: return -HUGE_VAL;
    default: return with_exponent(-10, 12);
  }
}

CaseGenerator::PolicyParameters CaseGenerator::policy_parameters(const std::string& op) {
  PolicyParameters p;
  static constexpr const char* kForms[] = {"constructor", "exponential", "fixed", "none"};
  p.form = kForms[pick({6, 2, 2, 1})];
  p.max_attempts = max_attempts_value(op);
  const bool replay = op == "replay";
  if (replay && chance(0.15)) {
    // Underflow to zero part-way: tiny delays times a tiny multiplier.
    p.initial_delay = with_exponent(-1070, -1000);
    p.multiplier = with_exponent(-60, -10);
  } else {
    p.initial_delay = delay_value();
    p.multiplier = multiplier_value(replay);
  }
  switch (pick({4, 1.5, 1, 1.5, 2, 1, 0.5, 0.5})) {
    case 0: p.max_delay = 0.0; break;
    case 1: p.max_delay = std::fabs(p.initial_delay) * uniform01(); break;
    case 2: p.max_delay = std::fabs(p.initial_delay); break;
    case 3:
      p.max_delay = std::min(std::fabs(p.initial_delay) * (1.0 + 99.0 * uniform01()),
                             std::numeric_limits<double>::max());
      break;
    case 4: p.max_delay = with_exponent(-10, 12); break;
    case 5: p.max_delay = 30.0 * static_cast<double>(between(1, 120)); break;
    case 6: p.max_delay = subnormal(); break;
    default: p.max_delay = with_exponent(990, 1023);
  }
  p.jitter_factor = replay && chance(0.7)
                        ? (chance(0.2) ? 1.0 : uniform01() + model::edges::kSmallestPositiveDraw)
                        : jitter_factor_value();
  switch (pick({5, 2, 1, 0.5})) {
    case 0: p.max_message_age = 0.0; break;
    case 1: p.max_message_age = with_exponent(-10, 12); break;
    case 2: p.max_message_age = 30.0 * static_cast<double>(between(1, 120)); break;
    default: p.max_message_age = with_exponent(-1074 + 52, -30);
  }
  for (bool& present : p.has) present = chance(0.75);
  p.has[0] = true;  // max_attempts: the default 1 makes a dull policy
  if (chance(0.2)) p.give_up_after = chance(0.3) ? 0.0 : with_exponent(-10, 12);
  if (chance(replay && p.form != "exponential" ? 0.5 : 0.2)) {
    p.with_jitter =
        replay ? uniform01() + model::edges::kSmallestPositiveDraw : jitter_factor_value();
  }
  // A factor of 0 never draws, which would make a replay say nothing about
  // draws; keep most replays jittered.
  return p;
}

ordered_json CaseGenerator::encode_policy(const PolicyParameters& p) {
  ordered_json policy = ordered_json::object();
  if (p.form == "constructor") {
    static constexpr const char* kNames[] = {"max_attempts", "initial_delay", "multiplier",
                                             "max_delay",    "jitter_factor", "max_message_age"};
    const double values[] = {0.0,         p.initial_delay, p.multiplier,
                             p.max_delay, p.jitter_factor, p.max_message_age};
    for (int i = 0; i < 6; ++i) {
      if (!p.has[i]) continue;
      if (i == 0) {
        policy[kNames[i]] = p.max_attempts;
      } else {
        policy[kNames[i]] = wire(values[i]);
      }
    }
  } else {
    policy["factory"] = p.form;
    if (p.form == "fixed") {
      policy["max_attempts"] = p.max_attempts;
      policy["delay"] = wire(p.initial_delay);
    } else if (p.form == "exponential") {
      policy["max_attempts"] = p.max_attempts;
      policy["initial_delay"] = wire(p.initial_delay);
      if (p.max_delay != 0.0 || chance(0.3)) policy["max_delay"] = wire(p.max_delay);
    }
  }
  if (p.give_up_after) policy["give_up_after"] = wire(*p.give_up_after);
  if (p.with_jitter) policy["with_jitter"] = wire(*p.with_jitter);
  return policy;
}

ordered_json CaseGenerator::valid_request(std::int64_t id, const std::string& op) {
  PolicyParameters p = policy_parameters(op);
  ordered_json request = ordered_json::object();
  request["id"] = id;
  request["op"] = op;
  request["policy"] = encode_policy(p);
  const std::int64_t max_attempts = p.effective_max_attempts();
  const double age_limit = p.effective_age_limit();

  if (op == "next_delay") {
    request["attempt"] = attempt_value(max_attempts);
    if (chance(0.8)) request["message_age"] = wire(age_value(age_limit));
    const std::size_t jitter = pick({3, 2, 1});
    if (jitter == 0) request["jitter"] = true;
    if (jitter == 1) request["jitter"] = false;
    if (jitter != 1) request["r"] = draw_value();
  } else if (op == "jittered") {
    double delay = 0.0;
    switch (pick({6, 1, 0.5, 0.3, 1})) {
      case 0: delay = delay_value(); break;
      case 1: delay = -with_exponent(-10, 12); break;
      case 2: delay = HUGE_VAL; break;
      case 3: delay = -HUGE_VAL; break;
      default: delay = p.initial_delay;
    }
    request["delay"] = wire(delay);
    request["r"] = draw_value();
  } else if (op == "replay") {
    switch (pick({8, 1, 1, 1})) {
      case 0: request["seed"] = between(0, 4294967295); break;
      case 1: request["seed"] = 0; break;
      case 2: request["seed"] = 4294967295; break;
      default: request["seed"] = 42;
    }
    ordered_json calls = ordered_json::array();
    const std::int64_t count = chance(0.1) ? between(13, 40) : between(1, 12);
    for (std::int64_t i = 0; i < count; ++i) {
      std::int64_t attempt = 1;
      switch (pick({6, 2, 2, 0.3})) {
        case 0:
          attempt = between(1, std::max<std::int64_t>(1, std::min<std::int64_t>(max_attempts, 60)));
          break;
        case 1:
          attempt = max_attempts == kInt64Max ? max_attempts : max_attempts + between(0, 1);
          break;  // gives up: must take no draw
        case 2: attempt = 1; break;
        default: attempt = attempt_value(max_attempts);
      }
      if (profile_ == Profile::reference) attempt = std::min(attempt, kReferenceMaxAttempt);
      double age = 0.0;
      switch (pick({5, 2, 0.5, 0.3, 0.2})) {
        case 0: age = 0.0; break;
        case 1: age = age_value(age_limit); break;
        case 2: age = -with_exponent(-10, 12); break;
        case 3: age = HUGE_VAL; break;
        default: age = -HUGE_VAL;
      }
      calls.push_back(ordered_json::array({attempt, wire(age)}));
    }
    request["calls"] = std::move(calls);
  }
  return request;
}

GeneratedCase CaseGenerator::malformed_line(std::int64_t id) {
  const std::string valid = to_line(valid_request(id, "schedule"));
  std::string line;
  switch (below(14)) {
    case 0:
      line = valid.substr(
          0, static_cast<std::size_t>(between(0, static_cast<std::int64_t>(valid.size()) - 1)));
      break;
    case 1: line = valid + " x"; break;
    case 2: line = valid + valid; break;
    case 3: line = "[" + valid + "]"; break;
    case 4: line = ""; break;
    case 5: line = "   \t "; break;
    case 6: line = "\xEF\xBB\xBF" + valid; break;
    case 7: {
      line = valid;
      line.insert(1, "\"deep\":" + std::string(40, '[') + std::string(40, ']') + ",");
      break;
    }
    case 8: {
      line = valid;
      line.insert(1, "\"note\":\"\xFF\xFE\",");
      break;
    }
    case 9: {
      line = valid;
      line.insert(1, "\"note\":\"\\ud800\",");
      break;
    }
    case 10: {
      line = valid;
      line.insert(1, "\"note\":\"tab\there\",");
      break;
    }
    case 11: {
      line = valid;
      line.insert(1, "\"x\":NaN,");
      break;
    }
    case 12: {
      line = valid;
      line.insert(1, "\"x\":1e400,");
      break;
    }
    default: {
      line = valid;
      line.insert(1, "\"pad\":\"" + std::string(kMaxLineBytes, 'p') + "\",");
    }
  }
  return {line, "malformed line"};
}

GeneratedCase CaseGenerator::invalid_case(std::int64_t id) {
  static constexpr const char* kOps[] = {"schedule", "next_delay", "jittered", "replay"};
  const std::string op = kOps[pick({1, 1, 1, 1})];
  ordered_json request = valid_request(id, op);
  ordered_json& policy = request["policy"];
  const ordered_json nan = "NaN";
  // Each mutation breaks exactly one rule; the answer must be an error.
  switch (below(30)) {
    case 0: policy = ordered_json::object({{"initial_delay", -with_exponent(-10, 3)}}); break;
    case 1: policy = ordered_json::object({{"max_attempts", 3}, {"multiplier", nan}}); break;
    case 2: policy = ordered_json::object({{"max_attempts", 3}, {"max_delay", "Infinity"}}); break;
    case 3: policy = ordered_json::object({{"jitter_factor", next_up(1.0)}}); break;
    case 4: policy = ordered_json::object({{"max_message_age", -1.0}}); break;
    case 5: {
      static const ordered_json kBad[] = {0,    -3,   2.5,    5.0, "5", std::uint64_t{1} << 63,
                                          1e19, true, nullptr};
      policy = ordered_json::object({{"max_attempts", kBad[below(std::size(kBad))]}});
      break;
    }
    case 6: policy["give_up_after"] = chance(0.5) ? ordered_json(-1.0) : nan; break;
    case 7: policy["with_jitter"] = chance(0.5) ? ordered_json(1.5) : ordered_json(-0.25); break;
    case 8: policy["max_atempts"] = 3; break;
    case 9: policy = ordered_json::object({{"factory", "linear"}}); break;
    case 10: policy = ordered_json::object({{"factory", "fixed"}, {"max_attempts", 3}}); break;
    case 11: policy = ordered_json::object({{"factory", "none"}, {"max_attempts", 3}}); break;
    case 12: policy = chance(0.5) ? ordered_json::array() : ordered_json("exponential"); break;
    case 13: request["op"] = chance(0.5) ? ordered_json("sched") : ordered_json(1); break;
    case 14: request.erase("op"); break;
    case 15: request.erase("policy"); break;
    case 16: {
      request["op"] = "next_delay";
      static const ordered_json kBad[] = {0,    -1,     1.5, 2.0, "1", std::uint64_t{1} << 63,
                                          1e19, nullptr};
      request["attempt"] = kBad[below(std::size(kBad))];
      request["r"] = 0.5;
      break;
    }
    case 17: {
      request["op"] = "next_delay";
      request["attempt"] = 1;
      request["message_age"] = nan;
      request["jitter"] = false;
      break;
    }
    case 18: {
      request["op"] = "next_delay";
      request["attempt"] = 1;
      request["jitter"] = chance(0.5) ? ordered_json("yes") : ordered_json(1);
      request["r"] = 0.5;
      break;
    }
    case 19: {
      request["op"] = "next_delay";
      request["attempt"] = 1;
      request.erase("jitter");
      static const ordered_json kBad[] = {1.0, -5e-324, "NaN", 1.5, nullptr};
      if (chance(0.3)) {
        request.erase("r");
      } else {
        request["r"] = kBad[below(std::size(kBad))];
      }
      break;
    }
    case 20: {
      request["op"] = "jittered";
      request["delay"] = chance(0.5) ? nan : ordered_json("x");
      request["r"] = 0.5;
      break;
    }
    case 21: {
      request["op"] = "jittered";
      request["delay"] = 1.0;
      request["r"] = chance(0.5) ? ordered_json(1.0) : ordered_json(nullptr);
      break;
    }
    case 22: {
      request["op"] = "replay";
      static const ordered_json kBad[] = {-1, 4294967296, 1.5, "42", nullptr};
      request["seed"] = kBad[below(std::size(kBad))];
      request["calls"] = ordered_json::array({ordered_json::array({1, 0})});
      break;
    }
    case 23: {
      request["op"] = "replay";
      request["seed"] = 1;
      static const ordered_json kBad[] = {
          ordered_json::array({ordered_json::array({1})}),
          ordered_json::array({ordered_json::array({1, 0, 0})}),
          ordered_json::array({"x"}),
          ordered_json::array({ordered_json::array({1.5, 0})}),
          ordered_json::array({ordered_json::array({1, 0}), ordered_json::array({0, 0})}),
          ordered_json::array({ordered_json::array({1, "NaN"})}),
          ordered_json::object()};
      request["calls"] = kBad[below(std::size(kBad))];
      break;
    }
    case 24: {
      request["op"] = "replay";
      request["seed"] = 1;
      ordered_json calls = ordered_json::array();
      for (std::size_t i = 0; i <= kMaxReplayCalls; ++i)
        calls.push_back(ordered_json::array({1, 0}));
      request["calls"] = std::move(calls);
      break;
    }
    case 25: {
      request["op"] = "schedule";
      policy = ordered_json::object(
          {{"max_attempts", chance(0.5) ? kMaxScheduleEntries + 2 : std::int64_t{1} << 40}});
      break;
    }
    case 26: {
      // No cap and a multiplier that creeps: the running value does not
      // settle, so an attempt past 2^20 + 1 is beyond the cost limit.
      request["op"] = "next_delay";
      policy = ordered_json::object({{"max_attempts", kInt64Max},
                                     {"initial_delay", 1.0},
                                     {"multiplier", chance(0.5) ? 1.000000001 : next_up(1.0)}});
      request["attempt"] = chance(0.5) ? (std::int64_t{1} << 20) + 2 : std::int64_t{1} << 40;
      request["jitter"] = false;
      break;
    }
    case 27: {
      request.erase("id");
      request["policy"] = 7;
      break;
    }
    case 28: return malformed_line(id);
    default: {
      request["op"] = "next_delay";
      request["attempt"] = 1;
      request.erase("r");
      request["jitter"] = true;
    }
  }
  return {to_line(request), "invalid"};
}

bool reference_agrees(const std::string& line) {
  const std::string answer = answer_line(line);
  if (answer.find("\"ok\":true") == std::string::npos) return false;
  // The one documented deviation on valid input: +Infinity jittered by a
  // factor that rounds to 0 is +Infinity here, NaN (or ArgumentError) in
  // Ruby. That needs jitter_factor 1 and r <= 2^-55 (then r * 2 - 1 rounds
  // to -1), not only r = 0: Ruby's own draws are multiples of 2^-53, but an
  // injected r need not be.
  const nlohmann::json request = nlohmann::json::parse(line);
  const std::string& op = request.at("op").get_ref<const std::string&>();
  // Far attempts: the reference walks every step, so 10^9 takes it minutes.
  if (op == "next_delay" && request.at("attempt").get<std::int64_t>() > kReferenceMaxAttempt) {
    return false;
  }
  if (op == "replay") {
    for (const auto& call : request.at("calls")) {
      if (call.at(0).get<std::int64_t>() > kReferenceMaxAttempt) return false;
    }
  }
  if (op != "jittered" && op != "next_delay") return true;
  if (!request.contains("r")) return true;
  const double r = wire_number(request.at("r")).value_or(0.5);
  const amqp::RetryPolicy policy = policy_from_json(request.at("policy"));
  if (model::jitter_scale(policy.jitter_factor(), r) != 0.0) return true;
  if (op == "jittered") return wire_number(request.at("delay")) != HUGE_VAL;
  if (request.contains("jitter") && !request.at("jitter").get<bool>()) return true;
  nlohmann::json unjittered = request;
  unjittered["jitter"] = false;
  return answer_line(to_line(unjittered)).find("\"Infinity\"") == std::string::npos;
}

GeneratedCase CaseGenerator::next(std::int64_t id) {
  if (profile_ == Profile::full && chance(0.1)) return invalid_case(id);
  static constexpr const char* kOps[] = {"schedule", "next_delay", "jittered", "replay"};
  for (;;) {
    const std::string op = kOps[pick({25, 35, 15, 25})];
    GeneratedCase generated{to_line(valid_request(id, op)), op};
    if (profile_ == Profile::full || reference_agrees(generated.line)) return generated;
  }
}

}  // namespace acemq::conformance
