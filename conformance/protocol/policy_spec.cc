#include "conformance/protocol/policy_spec.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <variant>

#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using amqp::Parameter;
using amqp::RetryPolicy;
using amqp::Seconds;
using Options = RetryPolicy::Options;

double number(MemberValue value) { return std::get<double>(value); }

constexpr PolicyMember kMembers[] = {
    {"max_attempts", "--max-attempts", "total deliveries, including the first",
     Parameter::max_attempts, true,
     [](PolicySpec& s, MemberValue v) { s.fields.max_attempts = std::get<std::int64_t>(v); },
     [](const PolicySpec& s) -> MemberValue { return s.fields.max_attempts; }},
    {"initial_delay", "--initial-delay", "seconds before the second attempt",
     Parameter::initial_delay, false,
     [](PolicySpec& s, MemberValue v) { s.fields.initial_delay = Seconds{number(v)}; },
     [](const PolicySpec& s) -> MemberValue { return s.fields.initial_delay.count(); }},
    {"delay", "--delay", "seconds before every retry (fixed)", Parameter::initial_delay, false,
     [](PolicySpec& s, MemberValue v) { s.fields.initial_delay = Seconds{number(v)}; },
     [](const PolicySpec& s) -> MemberValue { return s.fields.initial_delay.count(); }},
    {"multiplier", "--multiplier", "what the delay is multiplied by each time",
     Parameter::multiplier, false,
     [](PolicySpec& s, MemberValue v) { s.fields.multiplier = number(v); },
     [](const PolicySpec& s) -> MemberValue { return s.fields.multiplier; }},
    {"max_delay", "--max-delay", "the ceiling in seconds, or 0 for none", Parameter::max_delay,
     false, [](PolicySpec& s, MemberValue v) { s.fields.max_delay = Seconds{number(v)}; },
     [](const PolicySpec& s) -> MemberValue { return s.fields.max_delay.count(); }},
    {"jitter_factor", "--jitter-factor", "how far a delay may move either side, 0 to 1",
     Parameter::jitter_factor, false,
     [](PolicySpec& s, MemberValue v) { s.fields.jitter_factor = number(v); },
     [](const PolicySpec& s) -> MemberValue { return s.fields.jitter_factor; }},
    {"max_message_age", "--max-message-age", "give up on anything older, or 0 for never",
     Parameter::max_message_age, false,
     [](PolicySpec& s, MemberValue v) { s.fields.max_message_age = Seconds{number(v)}; },
     [](const PolicySpec& s) -> MemberValue { return s.fields.max_message_age.count(); }},
    // The copies share their flags with the fields they set: on the command
    // line a factory takes --max-message-age and --jitter-factor through them.
    {"give_up_after", "--max-message-age", "give_up_after(age): the age limit of a copy",
     Parameter::max_message_age, false,
     [](PolicySpec& s, MemberValue v) { s.give_up_after = number(v); },
     [](const PolicySpec& s) -> MemberValue { return s.give_up_after.value_or(0.0); }},
    {"with_jitter", "--jitter-factor", "with_jitter(factor): the jitter factor of a copy",
     Parameter::jitter_factor, false,
     [](PolicySpec& s, MemberValue v) { s.with_jitter = number(v); },
     [](const PolicySpec& s) -> MemberValue { return s.with_jitter.value_or(0.0); }},
};

constexpr FactoryField kConstructorFields[] = {
    {"max_attempts", false}, {"initial_delay", false}, {"multiplier", false},
    {"max_delay", false},    {"jitter_factor", false}, {"max_message_age", false}};
constexpr FactoryField kFixedFields[] = {{"max_attempts", true}, {"delay", true}};
constexpr FactoryField kExponentialFields[] = {
    {"max_attempts", true}, {"initial_delay", true}, {"max_delay", false}};

constexpr Factory kFactories[] = {
    {Form::constructor, "", kConstructorFields,
     "RetryPolicy(max_attempts = 1, initial_delay = 0, multiplier = 2, max_delay = 0, "
     "jitter_factor = 0, max_message_age = 0)",
     [](const Options& o) { return RetryPolicy(o); }},
    {Form::none,
     "none",
     {},
     "none(): max_attempts 1",
     [](const Options&) { return RetryPolicy::none(); }},
    {Form::fixed, "fixed", kFixedFields, "fixed(max_attempts, delay), multiplier 1",
     [](const Options& o) { return RetryPolicy::fixed(o.max_attempts, o.initial_delay); }},
    {Form::exponential, "exponential", kExponentialFields,
     "exponential(max_attempts, initial_delay, max_delay = 0), multiplier 2, jitter 0.2",
     [](const Options& o) {
       return RetryPolicy::exponential(o.max_attempts, o.initial_delay, o.max_delay);
     }},
};

// The member of `factory` that gave the core's refused parameter.
std::string_view member_for(const Factory& factory, Parameter parameter) {
  for (const FactoryField& field : factory.fields) {
    if (policy_member(field.member)->parameter == parameter) return field.member;
  }
  return amqp::parameter_name(parameter);
}

}  // namespace

std::span<const PolicyMember> policy_members() { return kMembers; }
std::span<const Factory> factories() { return kFactories; }

const Factory& factory_of(Form form) { return kFactories[static_cast<std::size_t>(form)]; }

const Factory* factory_named(std::string_view name) {
  const auto it = std::find_if(std::begin(kFactories) + 1, std::end(kFactories),
                               [&](const Factory& f) { return f.name == name; });
  return it == std::end(kFactories) ? nullptr : &*it;
}

const PolicyMember* policy_member(std::string_view name) {
  const auto it = std::find_if(std::begin(kMembers), std::end(kMembers),
                               [&](const PolicyMember& m) { return m.name == name; });
  return it == std::end(kMembers) ? nullptr : &*it;
}

std::string policy_json(const PolicySpec& spec) {
  const Factory& factory = factory_of(spec.form);
  std::string out = "{";
  const auto key = [&](std::string_view name) {
    if (out.size() > 1) out += ',';
    append_json_string(out, name);
    out += ':';
  };
  const auto value = [&](const PolicyMember& member) {
    const MemberValue v = member.get(spec);
    if (const auto* n = std::get_if<std::int64_t>(&v)) {
      out += std::to_string(*n);
    } else {
      append_number(out, std::get<double>(v));
    }
  };
  if (spec.form != Form::constructor) {
    key("factory");
    append_json_string(out, factory.name);
  }
  for (const FactoryField& field : factory.fields) {
    key(field.member);
    value(*policy_member(field.member));
  }
  const std::optional<double> copies[] = {spec.give_up_after, spec.with_jitter};
  for (std::size_t i = 0; i < std::size(kCopyMembers); ++i) {
    if (!copies[i]) continue;
    key(kCopyMembers[i]);
    value(*policy_member(kCopyMembers[i]));
  }
  out += '}';
  return out;
}

RetryPolicy make_policy(const PolicySpec& spec) {
  const Factory& factory = factory_of(spec.form);
  RetryPolicy policy;
  try {
    policy = factory.make(spec.fields);
  } catch (const amqp::InvalidParameter& e) {
    throw PolicyRefused{member_for(factory, e.parameter()), e};
  }
  if (spec.give_up_after) {
    try {
      policy = policy.give_up_after(Seconds{*spec.give_up_after});
    } catch (const amqp::InvalidParameter& e) {
      throw PolicyRefused{"give_up_after", e};
    }
  }
  if (spec.with_jitter) {
    try {
      policy = policy.with_jitter(*spec.with_jitter);
    } catch (const amqp::InvalidParameter& e) {
      throw PolicyRefused{"with_jitter", e};
    }
  }
  return policy;
}

}  // namespace acemq::conformance
