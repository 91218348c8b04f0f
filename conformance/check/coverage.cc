#include "conformance/check/coverage.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "acemq/amqp/internal/walk.hpp"
#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/bits.hpp"
#include "acemq/model/contract.hpp"
#include "acemq/model/edge_values.hpp"
#include "acemq/model/regimes.hpp"
#include "conformance/protocol/protocol.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using amqp::RetryPolicy;
using nlohmann::json;

// The two regimes only a protocol request reaches, after the model's.
constexpr std::size_t kReplaySkippedDraw = model::kRegimeCount;
constexpr std::size_t kDrawAtEdge = model::kRegimeCount + 1;

constexpr std::array<std::string_view, model::kRegimeCount + 2> kRows = [] {
  std::array<std::string_view, model::kRegimeCount + 2> rows{};
  for (std::size_t i = 0; i < model::kRegimeCount; ++i) rows[i] = model::kRegimeRows[i].description;
  rows[kReplaySkippedDraw] = "replay with skipped draws, then a jittered call";
  rows[kDrawAtEdge] = "a draw taken at 0 or at 1 - 2^-53";
  return rows;
}();

// A call of next_delay or replay, as the request states it.
struct Call {
  std::int64_t attempt;
  double message_age;
  std::optional<double> answer;  // nullopt: gave up
};

class Classifier {
 public:
  Classifier(const json& request, const Answer& answer)
      : request_(request),
        answer_(answer),
        policy_(policy_from_json(request.at("policy"))),
        o_(policy_.options()),
        op_(request.at("op").get_ref<const std::string&>()) {}

  std::vector<std::size_t> regimes() {
    read_calls();
    contract();
    if (op_ == "replay") replay_draws();
    draws();
    return found_;
  }

 private:
  void add(std::size_t row) {
    if (std::find(found_.begin(), found_.end(), row) == found_.end()) found_.push_back(row);
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

  // The model's regimes: of the policy and each call (or the schedule), and
  // of every other number the request and the answer hold.
  void contract() {
    model::Regimes reached = model::regimes_of_policy(o_);
    if (op_ == "schedule") reached |= model::regimes_of_schedule(o_, kCoverageWalk);
    for (const Call& call : calls_) {
      reached |= model::regimes_of_call(o_, call.attempt, call.message_age,
                                        amqp::internal::kRememberedRunningValues, kCoverageWalk);
    }
    bool finite = std::isfinite(o_.initial_delay.count()) && std::isfinite(o_.multiplier) &&
                  std::isfinite(o_.max_delay.count());
    for (const char* key : {"delay", "r"}) {
      if (!request_.contains(key)) continue;
      if (const auto x = wire_number(request_.at(key))) {
        reached |= model::regimes_of_value(*x);
        finite = finite && std::isfinite(*x);
      }
    }
    for (const std::optional<double>& item : answer_.items) {
      if (item) reached |= model::regimes_of_value(*item, finite);
    }
    for (const model::RegimeRow& row : model::kRegimeRows) {
      if (reached.has(row.regime)) add(static_cast<std::size_t>(row.regime));
    }
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
        add(kReplaySkippedDraw);
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
    if (taken) add(kDrawAtEdge);
  }

  const json& request_;
  const Answer& answer_;
  const RetryPolicy policy_;
  const RetryPolicy::Options o_;
  const std::string op_;
  std::vector<Call> calls_;
  std::vector<std::size_t> found_;
};

}  // namespace

std::span<const std::string_view> coverage_rows() { return kRows; }

std::vector<std::size_t> regimes_of(const json& request, const Answer& answer) {
  if (!answer.ok) return {};
  return Classifier(request, answer).regimes();
}

}  // namespace acemq::conformance
