// PolicySpec: a policy as a request or a command line describes it, before
// the core makes it: which form (the constructor or a factory), the values
// of its fields, and the copies applied after it (give_up_after, then
// with_jitter, docs/protocol.md, `policy`).
//
// The forms and their members are written once, in two tables: the
// protocol reads and names members by them, the command line maps them to
// its flags, and the case generator writes policies from them. A refusal
// from the core arrives as an amqp::InvalidParameter; make_policy says
// which member of the spec gave the refused value, so each caller names its
// own field ("policy.delay", "--delay") without reading the core's text.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::conformance {

// The forms a policy can be made in, in the tables' order.
enum class Form : std::uint8_t { constructor, none, fixed, exponential };

struct PolicySpec {
  Form form = Form::constructor;
  // The fields the form takes, as given, or the constructor's defaults.
  amqp::RetryPolicy::Options fields;
  std::optional<double> give_up_after;
  std::optional<double> with_jitter;
};

// A member's value as written: max_attempts is a whole number, the others
// numbers. The same alternatives as amqp::InvalidParameter::Value.
using MemberValue = std::variant<std::int64_t, double>;

// One member a policy may have: its name in a request's `policy`, its
// command-line flag, the core's parameter it sets, and how it is read from
// and written to a spec. fixed's `delay` sets the core's initial_delay; the
// copies set the age limit and the jitter factor through give_up_after and
// with_jitter (reading an absent copy gives 0).
struct PolicyMember {
  std::string_view name;
  std::string_view flag;
  std::string_view meaning;  // for a person: the command line's help
  amqp::Parameter parameter;
  bool integer;  // a JSON integer (max_attempts), not a number
  void (*set)(PolicySpec& spec, MemberValue value);
  MemberValue (*get)(const PolicySpec& spec);
};

// One form: its `factory` value (the constructor has none: its policies have
// no `factory` member), the members it takes, which of them it needs, its
// signature as the command line's help and errors show it, and how the core
// makes it from the fields.
struct FactoryField {
  std::string_view member;
  bool required;
};
struct Factory {
  Form form;
  std::string_view name;
  std::span<const FactoryField> fields;
  std::string_view signature;
  amqp::RetryPolicy (*make)(const amqp::RetryPolicy::Options& fields);
};

// Every member, copies last; every form, in Form's order. Every form also
// takes the two copies, kCopyMembers.
std::span<const PolicyMember> policy_members();
std::span<const Factory> factories();
inline constexpr std::string_view kCopyMembers[] = {"give_up_after", "with_jitter"};

const Factory& factory_of(Form form);
// The factory whose `factory` value is `name`, or nullptr (the constructor
// is never named).
const Factory* factory_named(std::string_view name);
// The member called `name`, or nullptr.
const PolicyMember* policy_member(std::string_view name);

// What make_policy throws: the core's refusal, and the member of the spec
// whose value it refused (for fixed's initial_delay, "delay").
struct PolicyRefused {
  std::string_view member;
  amqp::InvalidParameter refusal;
};

// The spec as a request's `policy` member, one JSON object written through
// the tables: the form's factory (none for the constructor), every field
// the form takes, then each copy that is set. Reading it back gives the
// same spec, every number to the bit, so a tool that writes requests (stats
// --impl) names no member by hand.
std::string policy_json(const PolicySpec& spec);

// The policy the spec describes: the form's base policy, validated by the
// core, then each copy, validating its own argument, so that a copy cannot
// repair its base. Throws PolicyRefused.
amqp::RetryPolicy make_policy(const PolicySpec& spec);

}  // namespace acemq::conformance
