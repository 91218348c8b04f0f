#include "conformance/protocol/description.hpp"

#include <string_view>
#include <variant>

#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/policy_spec.hpp"
#include "conformance/protocol/refusals.hpp"
#include "conformance/protocol/request.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::ordered_json;

std::string_view type_name(MemberType type) {
  switch (type) {
    case MemberType::any: return "any";
    case MemberType::string: return "string";
    case MemberType::object: return "object";
    case MemberType::integer: return "integer";
    case MemberType::number: return "number";
    case MemberType::draw: return "draw";
    case MemberType::boolean: return "boolean";
    case MemberType::calls: return "calls";
  }
  return "any";
}

std::string_view presence_name(Presence presence) {
  switch (presence) {
    case Presence::required: return "required";
    case Presence::optional: return "optional";
    case Presence::with_jitter: return "required when jitter is true";
    case Presence::one_of_delay_attempt: return "exactly one of delay and attempt";
  }
  return "optional";
}

ordered_json member_of(const MemberRule& rule) {
  ordered_json m;
  m["name"] = rule.name;
  m["type"] = type_name(rule.type);
  m["presence"] = presence_name(rule.presence);
  if (rule.type == MemberType::integer) m["range"] = {rule.lowest, rule.highest};
  if (rule.type == MemberType::calls) m["at_most"] = rule.highest;
  if (!rule.absent_means.empty()) m["absent_means"] = ordered_json::parse(rule.absent_means);
  return m;
}

ordered_json refusals() {
  ordered_json holes = ordered_json::object();
  for (const RefusalHole& hole : refusal_holes()) holes[std::string(hole.name)] = hole.holds;
  ordered_json rows = ordered_json::array();
  for (const RefusalRow& row : refusal_rows()) {
    rows.push_back(
        {{"name", row.name}, {"field", row.field}, {"says", row.says}, {"when", row.when}});
  }
  return {{"about",
           "Every refusal the core answers with is one row: \"<field>: <says>\", each {hole} of "
           "says filled as holes describes. The words are the core's, for people: check "
           "compares only that the core and the adapter both answer with an error, never the "
           "field or the words, so a port may word its refusals its own way."},
          {"holes", holes},
          {"rows", rows}};
}

}  // namespace

ordered_json protocol_description() {
  ordered_json d;
  d["about"] =
      "The AceMQ retry-policy conformance protocol's table (docs/protocol.md), "
      "written by `retry-policy protocol`; do not edit by hand.";
  d["line"] = {
      {"encoding",
       "UTF-8 JSON, one object a line, ended by LF (a last line without one is still a request)"},
      {"refusal", "<field>: <what>"}};
  ordered_json limits = ordered_json::object();
  for (const Limit& limit : kLimits) {
    limits[std::string(limit.name)] = {
        {"value", limit.value}, {"error_names", limit.error_names}, {"what", limit.what}};
  }
  d["limits"] = limits;
  ordered_json ops = ordered_json::array();
  for (const OpSpec& op : protocol_ops()) {
    ordered_json row;
    row["name"] = op.name;
    row["result"] = op.result;
    row["members"] = ordered_json::array();
    for (const MemberRule& rule : op.members) row["members"].push_back(member_of(rule));
    if (!op.not_sent_by_check.empty()) row["not_sent_by_check"] = op.not_sent_by_check;
    ops.push_back(row);
  }
  d["ops"] = ops;
  // A constructor field's default is the core's own (RetryPolicy::Options).
  ordered_json members = ordered_json::array();
  const PolicySpec defaults;
  for (const PolicyMember& m : policy_members()) {
    ordered_json row = {{"name", m.name},
                        {"type", m.integer ? "integer" : "number"},
                        {"flag", m.flag},
                        {"meaning", m.meaning}};
    const MemberValue value = m.get(defaults);
    if (const auto* n = std::get_if<std::int64_t>(&value)) {
      row["default"] = *n;
    } else {
      row["default"] = std::get<double>(value);
    }
    members.push_back(row);
  }
  ordered_json forms = ordered_json::array();
  for (const Factory& f : factories()) {
    ordered_json form;
    form["factory"] = f.form == Form::constructor ? ordered_json(nullptr) : ordered_json(f.name);
    form["signature"] = f.signature;
    form["fields"] = ordered_json::array();
    for (const FactoryField& field : f.fields) {
      form["fields"].push_back({{"member", field.member}, {"required", field.required}});
    }
    forms.push_back(form);
  }
  ordered_json copies = ordered_json::array();
  for (const std::string_view copy : kCopyMembers) copies.push_back(copy);
  d["policy"] = {{"members", members}, {"forms", forms}, {"copies", copies}};
  ordered_json vector_members = ordered_json::array();
  for (const std::string_view m : vector_line_members()) vector_members.push_back(m);
  d["vector_line_members"] = vector_members;
  d["refusals"] = refusals();
  return d;
}

}  // namespace acemq::conformance
