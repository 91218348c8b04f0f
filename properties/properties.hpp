// properties: what must hold of any implementation of the policy core, for
// any input the generators reach.
//
// Each property is a function of a Core (core.hpp) and of the Cases it tags
// with the regimes each case reaches (coverage.hpp). Inside, a property draws
// its inputs with `*generator` and fails with RC_ASSERT or RC_FAIL; the
// messages print every double exactly (show.hpp). kProperties in
// properties.cc is the one table that registers them (properties_test.cc).
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>

#include "properties/core.hpp"
#include "properties/coverage.hpp"

namespace acemq::props {

// Length: the schedule has max_attempts - 1 entries, and so does delays();
// past kMaxScheduleLength schedule() refuses with std::length_error.
void schedule_length(const Core& core, Cases& cases);
// The cap: every schedule entry and every unjittered next_delay <= max_delay.
void schedule_respects_cap(const Core& core, Cases& cases);
// A jittered delay lies in [d * (1 - f), d * (1 + f)] and below
// max_delay * (1 + f), each bound computed in binary64.
void jitter_stays_in_band(const Core& core, Cases& cases);
// Jitter moves both ways: r < 1/2 never lengthens, r > 1/2 never shortens,
// r = 1/2 is the identity, and the extreme draws really move the delay.
void jitter_is_two_sided(const Core& core, Cases& cases);
// Age: at or past a positive max_message_age, nullopt; younger, a delay.
void gives_up_at_age_limit(const Core& core, Cases& cases);
// Attempts: attempt >= max_attempts gives nullopt, whatever else is true;
// a retrying attempt with a young message gives a delay.
void gives_up_after_last_attempt(const Core& core, Cases& cases);
// No delay, jittered or not, is negative or NaN.
void never_negative_nor_nan(const Core& core, Cases& cases);
// next_delay(k) without jitter is bit-equal to schedule()[k - 1], every k.
void next_delay_matches_schedule(const Core& core, Cases& cases);
// delays() is bit-equal to schedule().
void lazy_range_matches_schedule(const Core& core, Cases& cases);
// schedule() is bit-equal to the model's.
void schedule_matches_model(const Core& core, Cases& cases);
// next_delay, with and without jitter, is bit-equal to the model's.
void next_delay_matches_model(const Core& core, Cases& cases);
// jittered(d) for any d and any r is bit-equal to the model's.
void jittered_matches_model(const Core& core, Cases& cases);
// The early exits give the plain O(k) loop's bits, attempts up to 10^6.
void fast_path_matches_plain_loop(const Core& core, Cases& cases);
// A policy that settles answers attempt ~10^9 at once, with the right bits.
void huge_attempt_answers_at_once(const Core& core, Cases& cases);
// With multiplier >= 1 the delays never decrease.
void non_decreasing_when_multiplier_at_least_one(const Core& core, Cases& cases);
// fixed(n, d) has the schedule d, d, ..., d, and no jitter.
void fixed_is_constant(const Core& core, Cases& cases);
// none(), fixed() and exponential() set what the doc page says.
void factories_match_doc_page(const Core& core, Cases& cases);
// give_up_after and with_jitter change one field and leave the original.
void copies_change_one_field(const Core& core, Cases& cases);
// No draw is taken when the factor is 0, the delay <= 0, or it gives up;
// jittered() then returns the delay unchanged.
void no_draw_without_jitter(const Core& core, Cases& cases);
// Every call that jitters takes exactly one draw.
void one_draw_per_jitter(const Core& core, Cases& cases);
// RubyRandom gives the same sequence for the same seed, however
// interleaved, and so replays a run of jittered next_delay calls.
void ruby_random_replays(const Core& core, Cases& cases);
// RubyRandom's draws are genrand_res53 over MT19937 init_genrand(seed).
void ruby_random_matches_genrand_res53(const Core& core, Cases& cases);
// A bad policy, from the constructor, a factory or a copy, throws
// std::invalid_argument naming the first bad field and its value.
void bad_policy_rejected_naming_field(const Core& core, Cases& cases);
// A bad call (attempt < 1, NaN age, NaN delay, r outside [0, 1)) throws
// std::invalid_argument naming the argument, exactly when the model does.
void bad_call_rejected_naming_field(const Core& core, Cases& cases);
// Every valid policy is accepted, with its fields kept bit for bit.
void valid_policies_accepted(const Core& core, Cases& cases);

// The cost model the core exports (internal::walk_multiplications) is the
// model's plain walk (model::protocol_cost) wherever that walk counts at
// least the remembered prefix; below it, the core's count lies between the
// model's and the prefix length, since the core walks only past the prefix.
void walk_matches_plain_walk(const Core& core, Cases& cases);

// DefaultSource, seeded, gives draws that are multiples of 2^-53 in [0, 1),
// on both sides of 1/2; next_delay(attempt, age) and jittered(d) with it take
// exactly one draw where jitter applies (as the model decides) and none
// elsewhere, Jitter::off included, so they replay like an injected source.
void default_source_draws_only_when_jitter_applies(const Core& core, Cases& cases);
// RetryPolicy's == compares the six values (0.0 == -0.0), symmetrically.
void equality_compares_the_six_values(const Core& core, Cases& cases);

// A regime and the least share of a property's cases that must reach it.
struct Share {
  Regime regime;
  double at_least;
};

// One row per property: its name (the test is Properties.<name>), its body,
// the regimes it must keep reaching, and the mutants of the real core it was
// seen to reject (mutation/ keys: file | function | operator | occurrence),
// which the test of the test (scripts/mutate) checks it still does.
struct Property {
  std::string_view name;
  void (*check)(const Core&, Cases&);
  std::initializer_list<Share> shares;
  std::initializer_list<std::string_view> rejects;
};

// Every property, in the order above.
std::span<const Property> all_properties();

}  // namespace acemq::props
