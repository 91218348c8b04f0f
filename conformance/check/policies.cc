#include "conformance/check/policies.hpp"

#include <string_view>
#include <variant>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/model/edge_values.hpp"
#include "conformance/check/doubles.hpp"
#include "conformance/check/value_tables.hpp"

namespace acemq::conformance::generator {
namespace {

using nlohmann::ordered_json;
namespace edges = model::edges;

// A factor for a replay: above zero, so that most replays draw.
double replay_jitter(Dice& d) {
  return d.chance(0.2) ? 1.0 : d.uniform01() + edges::kSmallestPositiveDraw;
}

ordered_json member_json(const PolicyMember& member, const PolicySpec& spec) {
  const MemberValue value = member.get(spec);
  if (member.integer) return std::get<std::int64_t>(value);
  return wire(std::get<double>(value));
}

}  // namespace

PolicyParameters policy_parameters(Dice& d, Context& c) {
  PolicyParameters p;
  amqp::RetryPolicy::Options& o = p.spec.fields;
  p.spec.form = choose_form(d, c);
  o.max_attempts = choose_max_attempts(d, c);
  if (c.replay && d.chance(0.15)) {
    // Underflow to zero part-way: tiny delays times a tiny multiplier.
    o.initial_delay = amqp::Seconds{d.with_exponent(-1070, -1000)};
    o.multiplier = d.with_exponent(-60, -10);
  } else {
    o.initial_delay = amqp::Seconds{choose_delay(d, c)};
    o.multiplier = choose_multiplier(d, c);
  }
  c.initial_delay = o.initial_delay.count();
  o.max_delay = amqp::Seconds{choose_cap(d, c)};
  o.jitter_factor = c.replay && d.chance(0.7) ? replay_jitter(d) : choose_jitter_factor(d, c);
  o.max_message_age = amqp::Seconds{choose_age_limit(d, c)};
  for (bool& present : p.has) present = d.chance(0.75);
  // max_attempts: the default 1 makes a dull policy, but the default must
  // be seen too.
  p.has[0] = !d.chance(0.05);
  if (d.chance(0.2)) p.spec.give_up_after = d.chance(0.3) ? 0.0 : d.with_exponent(-10, 12);
  // A factor of 0 never draws, which would make a replay say nothing about
  // draws; keep most replays jittered.
  if (d.chance(c.replay && p.spec.form != Form::exponential ? 0.5 : 0.2)) {
    p.spec.with_jitter = c.replay ? replay_jitter(d) : choose_jitter_factor(d, c);
  }
  c.max_attempts = p.effective_max_attempts();
  c.age_limit = p.effective_age_limit();
  return p;
}

ordered_json encode_policy(Dice& d, const PolicyParameters& p) {
  const Factory& factory = factory_of(p.spec.form);
  ordered_json policy = ordered_json::object();
  if (p.spec.form != Form::constructor) policy["factory"] = factory.name;
  for (std::size_t i = 0; i < factory.fields.size(); ++i) {
    const FactoryField& field = factory.fields[i];
    const PolicyMember& member = *policy_member(field.member);
    if (!field.required) {
      // The constructor's presence was drawn with the policy; a factory's
      // optional max_delay is written when it is not the default, and
      // sometimes when it is.
      const bool present = p.spec.form == Form::constructor
                               ? p.has[i]
                               : std::get<double>(member.get(p.spec)) != 0.0 || d.chance(0.3);
      if (!present) continue;
    }
    policy[field.member] = member_json(member, p.spec);
  }
  for (const std::string_view copy : kCopyMembers) {
    const PolicyMember& member = *policy_member(copy);
    const bool given =
        copy == "give_up_after" ? p.spec.give_up_after.has_value() : p.spec.with_jitter.has_value();
    if (given) policy[copy] = member_json(member, p.spec);
  }
  return policy;
}

}  // namespace acemq::conformance::generator
