#include "conformance/check/valid_requests.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "conformance/check/choice.hpp"
#include "conformance/check/doubles.hpp"
#include "conformance/check/policies.hpp"
#include "conformance/check/value_tables.hpp"

namespace acemq::conformance::generator {

using nlohmann::ordered_json;

ordered_json valid_request(Dice& d, Profile profile, std::int64_t id, std::string_view op) {
  Context c;
  c.profile = profile;
  c.op = op;
  c.replay = op == "replay";
  const PolicyParameters p = policy_parameters(d, c);
  ordered_json request = ordered_json::object();
  request["id"] = id;
  request["op"] = op;
  request["policy"] = encode_policy(d, p);
  const auto within_reference = [&](std::int64_t attempt) {
    return profile == Profile::reference ? std::min(attempt, kReferenceMaxAttempt) : attempt;
  };

  if (op == "next_delay") {
    request["attempt"] = within_reference(choose_attempt(d, c));
    if (d.chance(0.8)) request["message_age"] = wire(choose_message_age(d, c));
    const JitterMember jitter = choose_jitter_member(d, c);
    if (jitter != JitterMember::absent) request["jitter"] = jitter == JitterMember::on;
    if (jitter != JitterMember::off) request["r"] = choose_draw(d, c);
  } else if (op == "jittered") {
    request["delay"] = wire(choose_jittered_delay(d, c));
    request["r"] = choose_draw(d, c);
  } else if (op == "replay") {
    request["seed"] = choose_seed(d, c);
    if (const std::optional<std::int64_t> skip = choose_skip(d, c)) {
      request["skip"] = *skip;
    }
    ordered_json calls = ordered_json::array();
    const std::int64_t count = choose_replay_length(d, c);
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t attempt = within_reference(choose_call_attempt(d, c));
      calls.push_back(ordered_json::array({attempt, wire(choose_call_age(d, c))}));
    }
    request["calls"] = std::move(calls);
  }
  return request;
}

}  // namespace acemq::conformance::generator
