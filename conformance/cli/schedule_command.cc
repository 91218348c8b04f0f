// retry-policy schedule: a policy's delays, jitter ranges and waits, for
// people (a table), machines (--json) or the eye (--svg).
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "conformance/cli/flags.hpp"
#include "conformance/cli/schedule_svg.hpp"
#include "conformance/cli/schedule_table.hpp"
#include "conformance/cli/subcommand.hpp"
#include "conformance/protocol/policy_spec.hpp"

namespace acemq::conformance::cli {
namespace {

using amqp::RetryPolicy;

// A factory flag, and the form it picks.
struct FactoryFlag {
  std::string_view flag;
  Form form;
  std::string_view help;
};
constexpr FactoryFlag kFactoryFlags[] = {
    {"--exponential", Form::exponential, "doubling, 20% jitter"},
    {"--fixed", Form::fixed, "the same wait, no jitter"},
    {"--none", Form::none, "one delivery, no second chance"},
};

// The policy's flags are the constructor's six fields, named, explained and
// defaulted by the protocol's table of members; fixed's `delay` is
// --initial-delay's alias (the same parameter), and a factory's copies
// (give_up_after, with_jitter) take their flags from the fields they set.
struct FieldFlag {
  const PolicyMember* member;
  std::string names;     // "--initial-delay,--delay"
  std::string fallback;  // the default, as it would be typed
};

std::vector<FieldFlag> field_flags() {
  std::vector<FieldFlag> flags;
  const PolicySpec defaults;
  for (const FactoryField& field : factory_of(Form::constructor).fields) {
    const PolicyMember& m = *policy_member(field.member);
    FieldFlag flag{&m, std::string(m.flag), {}};
    for (const PolicyMember& other : policy_members()) {
      const bool alias = other.parameter == m.parameter && other.flag != m.flag;
      if (alias) flag.names.append(",").append(other.flag);
    }
    const MemberValue value = m.get(defaults);
    if (const auto* whole = std::get_if<std::int64_t>(&value)) {
      flag.fallback = std::to_string(*whole);
    } else {
      char text[32];
      const auto end = std::to_chars(text, text + sizeof text, std::get<double>(value)).ptr;
      flag.fallback.assign(text, end);
    }
    flags.push_back(std::move(flag));
  }
  return flags;
}

class ScheduleCommand final : public Subcommand {
 public:
  explicit ScheduleCommand(CLI::App& parent)
      : Subcommand(parent.add_subcommand(
            "schedule", "Print a policy's delays, jitter ranges and cumulative waits")) {
    texts_.resize(fields_.size());
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      texts_[i] = fields_[i].fallback;
      value_option(
          fields_[i].names, texts_[i],
          std::string(fields_[i].member->meaning) + " (default " + fields_[i].fallback + ")");
    }
    for (std::size_t i = 0; i < std::size(kFactoryFlags); ++i) {
      const Factory& factory = factory_of(kFactoryFlags[i].form);
      app().add_flag(std::string(kFactoryFlags[i].flag), factories_[i],
                     std::string(factory.signature) + ": " + std::string(kFactoryFlags[i].help));
    }
    app().add_flag("--json", json_, "print JSON for machines, every value exact");
    value_option("--svg", svg_,
                 "also draw the schedule to FILE: delays with their jitter, and the waits "
                 "against the age limit");
  }

  int run() override {
    for (const FieldFlag& flag : fields_) {
      require_value(app(), flag.member->flag, text_of(flag.member->flag), "a number");
    }
    require_value(app(), "--svg", svg_, "the file to draw to");
    const RetryPolicy policy = policy_from_flags();
    std::vector<ScheduleRow> rows;
    try {
      rows = schedule_rows(policy);
    } catch (const std::length_error&) {
      usage("--max-attempts",
            "at most 65537, a table of 65,536 rows, got " + text_of("--max-attempts"));
    }
    if (given(app(), "--svg")) {
      std::ofstream svg(svg_);
      svg << schedule_svg(policy, rows);
      if (!svg.flush()) usage("--svg", "cannot write " + svg_ + ": " + std::strerror(errno));
    }
    std::cout << (json_ ? schedule_json(policy) + "\n" : schedule_table(policy));
    return 0;
  }

 private:
  // The text typed for `flag` (either spelling of a flag with an alias), or
  // its default.
  const std::string& text_of(std::string_view flag) const {
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      std::string_view names = fields_[i].names;
      while (!names.empty()) {
        const std::size_t comma = names.find(',');
        if (names.substr(0, comma) == flag) return texts_[i];
        names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
      }
    }
    throw std::logic_error("schedule: no flag " + std::string(flag));
  }

  // The policy the flags describe, validated as the protocol's policies
  // are: a factory takes what its signature takes and needs what it needs,
  // and a value the core refuses is reported against the flag that gave it.
  RetryPolicy policy_from_flags() const {
    const FactoryFlag* chosen = nullptr;
    for (std::size_t i = 0; i < std::size(kFactoryFlags); ++i) {
      if (!factories_[i]) continue;
      if (chosen != nullptr) {
        usage(chosen->flag,
              "cannot be used with " + std::string(kFactoryFlags[i].flag) + ": pick one factory");
      }
      chosen = &kFactoryFlags[i];
    }
    const Factory& factory = factory_of(chosen != nullptr ? chosen->form : Form::constructor);
    PolicySpec spec;
    spec.form = factory.form;
    // The members this form takes: its fields, and for a factory the copies,
    // through which it takes an age limit and a jitter factor.
    std::vector<std::string_view> taken;
    for (const FactoryField& field : factory.fields) taken.push_back(field.member);
    if (chosen != nullptr)
      taken.insert(taken.end(), std::begin(kCopyMembers), std::end(kCopyMembers));
    for (const FieldFlag& flag : fields_) {
      const std::string_view name = flag.member->flag;
      const bool is_taken = std::any_of(taken.begin(), taken.end(), [&](std::string_view m) {
        return policy_member(m)->flag == name || (name == "--initial-delay" && m == "delay");
      });
      if (!is_taken && given(app(), name)) {
        usage(fixed_spelling(factory, name), "not taken by " + std::string(chosen->flag) +
                                                 ", which is " + std::string(factory.signature));
      }
    }
    for (const FactoryField& field : factory.fields) {
      const PolicyMember& member = *policy_member(field.member);
      if (field.required && !given(app(), member.flag)) {
        usage(chosen->flag,
              "needs " + std::string(member.flag) + ": " + std::string(factory.signature));
      }
      read(member, spec);
    }
    if (chosen != nullptr) {
      for (const std::string_view copy : kCopyMembers) {
        const PolicyMember& member = *policy_member(copy);
        if (given(app(), member.flag)) read(member, spec);
      }
    }
    try {
      return make_policy(spec);
    } catch (const PolicyRefused& refused) {
      // The core names its parameter; the message names the flag and the
      // text as typed.
      const PolicyMember& member = *policy_member(refused.member);
      usage(member.flag, "must be " + std::string(amqp::rule_text(refused.refusal.rule())) +
                             ", got " + text_of(member.flag));
    }
  }

  // --delay and --initial-delay are one flag; a factory that refuses it is
  // told with the spelling its own signature uses.
  static std::string_view fixed_spelling(const Factory& factory, std::string_view name) {
    return factory.form == Form::fixed && name == "--initial-delay" ? "--delay" : name;
  }

  void read(const PolicyMember& member, PolicySpec& spec) const {
    const std::string& text = text_of(member.flag);
    if (member.integer) {
      member.set(spec, integer_flag(member.flag, text));
    } else {
      member.set(spec, number_flag(member.flag, text));
    }
  }

  const std::vector<FieldFlag> fields_ = field_flags();
  std::vector<std::string> texts_;
  bool factories_[std::size(kFactoryFlags)] = {};
  bool json_ = false;
  std::string svg_;
};

}  // namespace

std::unique_ptr<Subcommand> schedule_command(CLI::App& app) {
  return std::make_unique<ScheduleCommand>(app);
}

}  // namespace acemq::conformance::cli
