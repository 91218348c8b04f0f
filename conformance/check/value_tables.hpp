// The values of a generated request, each chosen from its table of regimes.
//
// Each function draws one row of its table by weight (choice.hpp), among
// the rows that fit the Context, and makes the row's value: a policy's
// parameters, a call's attempt, age and draw, a replay's seed, skip and
// calls. The tables, each row's name, weight and why it is there, are in
// value_tables.cc; a regime a port can slip on belongs there as a row.
#pragma once

#include <cstdint>
#include <optional>

#include "conformance/check/choice.hpp"
#include "conformance/check/dice.hpp"
#include "conformance/protocol/policy_spec.hpp"

namespace acemq::conformance::generator {

// The policy's.
Form choose_form(Dice& d, const Context& c);
std::int64_t choose_max_attempts(Dice& d, const Context& c);
// An initial delay, and a delay jittered is asked about.
double choose_delay(Dice& d, const Context& c);
double choose_multiplier(Dice& d, const Context& c);
double choose_cap(Dice& d, const Context& c);  // max_delay
double choose_jitter_factor(Dice& d, const Context& c);
double choose_age_limit(Dice& d, const Context& c);  // max_message_age

// next_delay's.
std::int64_t choose_attempt(Dice& d, const Context& c);
double choose_message_age(Dice& d, const Context& c);
// A next_delay request's `jitter` member: absent means true, and both then
// need `r`.
enum class JitterMember { absent, on, off };
JitterMember choose_jitter_member(Dice& d, const Context& c);
// `r`, next_delay's and jittered's.
double choose_draw(Dice& d, const Context& c);

// jittered's.
double choose_jittered_delay(Dice& d, const Context& c);

// replay's.
std::int64_t choose_seed(Dice& d, const Context& c);
std::optional<std::int64_t> choose_skip(Dice& d, const Context& c);  // absent: none written
std::int64_t choose_replay_length(Dice& d, const Context& c);
std::int64_t choose_call_attempt(Dice& d, const Context& c);
double choose_call_age(Dice& d, const Context& c);

}  // namespace acemq::conformance::generator
