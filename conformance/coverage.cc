#include "coverage.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/bits.hpp"
#include "acemq/model/contract.hpp"
#include "acemq/model/edge_values.hpp"
#include "protocol.hpp"
#include "wire.hpp"

namespace acemq::conformance {
namespace {

using amqp::RetryPolicy;
using nlohmann::json;

constexpr RegimeName kRegimes[] = {
    {Regime::capped, "capped: a running value past max_delay"},
    {Regime::multiplier_below_one, "multiplier below 1, past the first entry"},
    {Regime::negative_zero, "-0.0 in the policy, the call or the answer"},
    {Regime::overflow, "overflow to +Infinity from finite input"},
    {Regime::subnormal, "a subnormal in the policy, the call or the answer"},
    {Regime::age_at_limit, "message age at max_message_age, or an ulp either side"},
    {Regime::past_remembered_prefix, "attempt past the core's 16 remembered running values"},
    {Regime::huge_attempt, "huge attempt: past 2^20 + 1, answered by the early exits"},
    {Regime::replay_skipped_draw, "replay with skipped draws, then a jittered call"},
    {Regime::draw_at_edge, "a draw taken at 0 or at 1 - 2^-53"},
};

static_assert(amqp::internal::kRememberedRunningValues == 16, "the name above says 16");

bool is_negative_zero(double x) { return x == 0.0 && std::signbit(x); }
bool is_subnormal(double x) { return std::fpclassify(x) == FP_SUBNORMAL; }

// A call of next_delay or replay, as the request states it.
struct Call {
  std::int64_t attempt;
  double message_age;
  std::optional<double> answer;  // nullopt: gave up
};

// Whether the running value before entry `attempt` has passed the cap, as
// far as the model's walk can tell within kCoverageWalk steps.
bool running_passed_cap(const RetryPolicy::Options& o, std::int64_t attempt) {
  const double cap = o.max_delay.count();
  if (!(cap > 0.0)) return false;
  const std::int64_t walked = std::min(attempt, kCoverageWalk);
  const bool past = model::running_value(o, walked) > cap;
  // Walking fewer steps than asked tells only for a growing value.
  return past && (walked == attempt || o.multiplier >= 1.0);
}

class Classifier {
 public:
  Classifier(const json& request, const Answer& answer)
      : request_(request),
        answer_(answer),
        policy_(policy_from_json(request.at("policy"))),
        o_(policy_.options()),
        op_(request.at("op").get_ref<const std::string&>()) {}

  std::vector<Regime> regimes() {
    read_calls();
    policy_and_values();
    if (op_ == "schedule") schedule();
    for (const Call& call : calls_) walked(call);
    if (op_ == "replay") replay_draws();
    draws();
    return found_;
  }

 private:
  void add(Regime r) {
    if (std::find(found_.begin(), found_.end(), r) == found_.end()) found_.push_back(r);
  }

  void read_calls() {
    if (op_ == "next_delay") {
      calls_.push_back({request_.at("attempt").get<std::int64_t>(), age(request_, "message_age"),
                        answer_.items.at(0)});
    } else if (op_ == "replay") {
      const json& calls = request_.at("calls");
      for (std::size_t i = 0; i < calls.size(); ++i) {
        calls_.push_back({calls[i].at(0).get<std::int64_t>(), *wire_number(calls[i].at(1)),
                          answer_.items.at(i)});
      }
    }
  }

  static double age(const json& object, const char* key) {
    return object.contains(key) ? *wire_number(object.at(key)) : 0.0;
  }

  // -0.0, subnormals and overflow, from every number the request and the
  // answer hold.
  void policy_and_values() {
    std::vector<double> inputs = {o_.initial_delay.count(), o_.multiplier, o_.max_delay.count(),
                                  o_.jitter_factor, o_.max_message_age.count()};
    for (const char* key : {"delay", "message_age", "r"}) {
      if (request_.contains(key)) {
        if (const auto x = wire_number(request_.at(key))) inputs.push_back(*x);
      }
    }
    for (const Call& call : calls_) inputs.push_back(call.message_age);
    bool finite = true;
    for (const double x : inputs) {
      if (is_negative_zero(x)) add(Regime::negative_zero);
      if (is_subnormal(x)) add(Regime::subnormal);
      finite = finite && std::isfinite(x);
    }
    for (const std::optional<double>& item : answer_.items) {
      if (!item) continue;
      if (is_negative_zero(*item)) add(Regime::negative_zero);
      if (is_subnormal(*item)) add(Regime::subnormal);
      if (finite && *item == HUGE_VAL) add(Regime::overflow);
    }
  }

  void schedule() {
    const std::int64_t entries = o_.max_attempts - 1;
    if (entries >= 1 && running_passed_cap(o_, 1)) add(Regime::capped);
    if (entries >= 1 && running_passed_cap(o_, entries)) add(Regime::capped);
    if (entries >= 2 && o_.multiplier < 1.0) add(Regime::multiplier_below_one);
  }

  void walked(const Call& call) {
    const double limit = o_.max_message_age.count();
    if (limit > 0.0 &&
        (call.message_age == limit || call.message_age == std::nextafter(limit, HUGE_VAL) ||
         call.message_age == std::nextafter(limit, -HUGE_VAL))) {
      add(Regime::age_at_limit);
    }
    if (!call.answer) return;  // gave up: nothing walked
    if (running_passed_cap(o_, call.attempt)) add(Regime::capped);
    if (call.attempt >= 2 && o_.multiplier < 1.0) add(Regime::multiplier_below_one);
    if (call.attempt > amqp::internal::kRememberedRunningValues) {
      add(Regime::past_remembered_prefix);
    }
    if (call.attempt - 1 > kMaxSteps) add(Regime::huge_attempt);
  }

  // Whether a call drew: it did not give up and jitter applied to its
  // entry (the core's unjittered answer, which the request was within the
  // cost limit for).
  bool drew(const Call& call) const {
    if (!call.answer) return false;
    const std::optional<amqp::Seconds> entry =
        policy_.next_delay(call.attempt, amqp::Seconds{call.message_age}, amqp::Jitter::off);
    return entry && model::jitter_applies(o_.jitter_factor, entry->count());
  }

  void replay_draws() {
    bool skipped = false;
    for (const Call& call : calls_) {
      const bool took = drew(call);
      if (took && skipped) {
        add(Regime::replay_skipped_draw);
        return;
      }
      skipped = skipped || !took;
    }
  }

  void draws() {
    if (!request_.contains("r")) return;
    const std::optional<double> r = wire_number(request_.at("r"));
    if (!r || !(*r == 0.0 || model::same_bits(*r, model::edges::kLargestDraw))) return;
    bool taken = false;
    if (op_ == "jittered") {
      taken = model::jitter_applies(o_.jitter_factor, *wire_number(request_.at("delay")));
    } else if (op_ == "next_delay") {
      const bool jitter = !request_.contains("jitter") || request_.at("jitter").get<bool>();
      taken = jitter && drew(calls_.at(0));
    }
    if (taken) add(Regime::draw_at_edge);
  }

  const json& request_;
  const Answer& answer_;
  const RetryPolicy policy_;
  const RetryPolicy::Options o_;
  const std::string op_;
  std::vector<Call> calls_;
  std::vector<Regime> found_;
};

}  // namespace

std::span<const RegimeName> regime_names() { return kRegimes; }

std::vector<Regime> regimes_of(const json& request, const Answer& answer) {
  if (!answer.ok) return {};
  return Classifier(request, answer).regimes();
}

}  // namespace acemq::conformance
