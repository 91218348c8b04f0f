#include "conformance/check/valid_requests.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "conformance/check/choice.hpp"
#include "conformance/check/doubles.hpp"
#include "conformance/check/policies.hpp"
#include "conformance/check/value_tables.hpp"

namespace acemq::conformance::generator {
namespace {

using nlohmann::ordered_json;

std::int64_t within_reference(const Context& c, std::int64_t attempt) {
  return c.profile == Profile::reference ? std::min(attempt, kReferenceMaxAttempt) : attempt;
}

// Each op's own members, after the id, the op and the policy.
struct OpMembers {
  OpKind op;
  void (*add)(Dice& d, const Context& c, ordered_json& request);
};
constexpr OpMembers kOpMembers[] = {
    {OpKind::schedule, [](Dice&, const Context&, ordered_json&) {}},
    {OpKind::next_delay,
     [](Dice& d, const Context& c, ordered_json& request) {
       request["attempt"] = within_reference(c, choose_attempt(d, c));
       if (d.chance(0.8)) request["message_age"] = wire(choose_message_age(d, c));
       const JitterMember jitter = choose_jitter_member(d, c);
       if (jitter != JitterMember::absent) request["jitter"] = jitter == JitterMember::on;
       if (jitter != JitterMember::off) request["r"] = choose_draw(d, c);
     }},
    {OpKind::jittered,
     [](Dice& d, const Context& c, ordered_json& request) {
       request["delay"] = wire(choose_jittered_delay(d, c));
       request["r"] = choose_draw(d, c);
     }},
    {OpKind::replay,
     [](Dice& d, const Context& c, ordered_json& request) {
       request["seed"] = choose_seed(d, c);
       if (const std::optional<std::int64_t> skip = choose_skip(d, c)) {
         request["skip"] = *skip;
       }
       ordered_json calls = ordered_json::array();
       const std::int64_t count = choose_replay_length(d, c);
       for (std::int64_t i = 0; i < count; ++i) {
         const std::int64_t attempt = within_reference(c, choose_call_attempt(d, c));
         calls.push_back(ordered_json::array({attempt, wire(choose_call_age(d, c))}));
       }
       request["calls"] = std::move(calls);
     }},
};

// A kind without a row would make requests of its op with no op's members.
consteval bool a_row_for_every_kind() {
  return std::ranges::all_of(kOpKinds, [](OpKind kind) {
    return std::ranges::count(kOpMembers, kind, &OpMembers::op) == 1;
  });
}
static_assert(a_row_for_every_kind(), "kOpMembers: one row for each OpKind");

}  // namespace

ordered_json valid_request(Dice& d, Profile profile, std::int64_t id, OpKind op) {
  Context c;
  c.profile = profile;
  c.op = op;
  c.replay = op == OpKind::replay;
  const PolicyParameters p = policy_parameters(d, c);
  ordered_json request = ordered_json::object();
  request["id"] = id;
  request["op"] = op_name(op);
  request["policy"] = encode_policy(d, p);
  std::ranges::find(kOpMembers, op, &OpMembers::op)->add(d, c, request);
  return request;
}

}  // namespace acemq::conformance::generator
