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
#include "conformance/protocol/policy_spec.hpp"

namespace acemq::conformance {
namespace {

using amqp::RetryPolicy;

// The regimes only a protocol request reaches, after the model's.
constexpr std::size_t kReplaySkippedDraw = model::kRegimeCount;
constexpr std::size_t kDrawAtEdge = model::kRegimeCount + 1;
constexpr std::size_t kRefillsLastWord = model::kRegimeCount + 2;
constexpr std::size_t kPastFirstRefill = model::kRegimeCount + 3;
constexpr std::size_t kRowCount = model::kRegimeCount + 4;

// MT19937 refills its 624 words every 312 draws of two words each; the last
// word of a refill is made from the new word 0, where a port's twist can
// slip, and it sits in draws 311, 623, ... (from 0).
constexpr std::int64_t kDrawsPerRefill = 312;

constexpr std::array<std::string_view, kRowCount> kRows = [] {
  std::array<std::string_view, kRowCount> rows{};
  for (std::size_t i = 0; i < model::kRegimeCount; ++i) rows[i] = model::kRegimeRows[i].description;
  rows[kReplaySkippedDraw] = "replay with skipped draws, then a jittered call";
  rows[kDrawAtEdge] = "a draw taken at 0 or at 1 - 2^-53";
  rows[kRefillsLastWord] = "a replay draw holding the last word of an MT19937 refill (312k-th)";
  rows[kPastFirstRefill] = "a replay draw past MT19937's first refill (313th draw on)";
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
  Classifier(const Request& request, const Answer& answer)
      : request_(request),
        answer_(answer),
        policy_(make_policy(request.policy)),
        o_(policy_.options()) {}

  std::vector<std::size_t> regimes() {
    read_calls();
    contract();
    if (std::holds_alternative<ReplayCall>(request_.op)) replay_draws();
    draws();
    return found_;
  }

 private:
  void add(std::size_t row) {
    if (std::find(found_.begin(), found_.end(), row) == found_.end()) found_.push_back(row);
  }

  void read_calls() {
    if (const auto* call = std::get_if<NextDelayCall>(&request_.op)) {
      calls_.push_back({call->attempt, call->message_age, answer_.items.at(0)});
    } else if (const auto* replay = std::get_if<ReplayCall>(&request_.op)) {
      for (std::size_t i = 0; i < replay->calls.size(); ++i) {
        calls_.push_back(
            {replay->calls[i].attempt, replay->calls[i].message_age, answer_.items.at(i)});
      }
    }
  }

  // The draw the request gives, where it reads one.
  std::optional<double> given_draw() const {
    if (const auto* call = std::get_if<NextDelayCall>(&request_.op)) {
      return call->jitter ? std::optional<double>(call->r) : std::nullopt;
    }
    if (const auto* call = std::get_if<JitteredCall>(&request_.op)) return call->r;
    return std::nullopt;
  }

  // The model's regimes: of the policy and each call (or the schedule), and
  // of every other number the request and the answer hold.
  void contract() {
    model::Regimes reached = model::regimes_of_policy(o_);
    if (std::holds_alternative<ScheduleCall>(request_.op)) {
      reached |= model::regimes_of_schedule(o_, kCoverageWalk);
    }
    for (const Call& call : calls_) {
      reached |= model::regimes_of_call(o_, call.attempt, call.message_age,
                                        amqp::internal::kRememberedRunningValues, kCoverageWalk);
    }
    bool finite = std::isfinite(o_.initial_delay.count()) && std::isfinite(o_.multiplier) &&
                  std::isfinite(o_.max_delay.count());
    std::vector<double> given;
    if (const auto* call = std::get_if<JitteredCall>(&request_.op)) given.push_back(call->delay);
    if (const std::optional<double> r = given_draw()) given.push_back(*r);
    for (const double x : given) {
      reached |= model::regimes_of_value(x);
      finite = finite && std::isfinite(x);
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
    std::int64_t draw = std::get<ReplayCall>(request_.op).skip;
    for (const Call& call : calls_) {
      if (!drew(call)) continue;
      if (draw % kDrawsPerRefill == kDrawsPerRefill - 1) add(kRefillsLastWord);
      if (draw >= kDrawsPerRefill) add(kPastFirstRefill);
      ++draw;
    }
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
    const std::optional<double> r = given_draw();
    if (!r || !(*r == 0.0 || model::same_bits(*r, model::edges::kLargestDraw))) return;
    bool taken = false;
    if (const auto* call = std::get_if<JitteredCall>(&request_.op)) {
      taken = model::jitter_applies(o_.jitter_factor, call->delay);
    } else {
      taken = drew(calls_.at(0));
    }
    if (taken) add(kDrawAtEdge);
  }

  const Request& request_;
  const Answer& answer_;
  const RetryPolicy policy_;
  const RetryPolicy::Options o_;
  std::vector<Call> calls_;
  std::vector<std::size_t> found_;
};

}  // namespace

std::span<const std::string_view> coverage_rows() { return kRows; }

std::vector<std::size_t> regimes_of(const Request& request, const Answer& answer) {
  if (answer.ok) return Classifier(request, answer).regimes();
  // A refusal reaches a regime only as a far next_delay call on a valid
  // policy: the cost limit's regimes say which side of the limit it fell on.
  const auto* call = std::get_if<NextDelayCall>(&request.op);
  if (call == nullptr || call->attempt - 1 <= model::kHugeAttemptSteps) return {};
  std::optional<RetryPolicy> policy;
  try {
    policy.emplace(make_policy(request.policy));
  } catch (const PolicyRefused&) {
    return {};
  }
  const model::Regimes reached = model::regimes_of_far_call(policy->options(), call->attempt,
                                                            call->message_age, kCoverageWalk);
  std::vector<std::size_t> rows;
  for (const model::RegimeRow& row : model::kRegimeRows) {
    if (reached.has(row.regime)) rows.push_back(static_cast<std::size_t>(row.regime));
  }
  return rows;
}

}  // namespace acemq::conformance
