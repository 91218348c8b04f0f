// mutants: deliberately broken copies of the policy core, for the test of
// the test.
//
// `mutant(Mutation::none)` is a line-by-line copy of the library's
// arithmetic and validation (src/acemq/amqp/retry_policy.cc, delay_range.hpp,
// ruby_random.hpp), its table of remembered running values and its early
// exits included, and must pass every property.
// Every other Mutation changes one plausible thing, the kind of slip a
// refactor makes; mutants_test.cc checks that the properties listed for it
// reject it. A property that no mutation can break would be a property that
// cannot fail.
#pragma once

#include <span>
#include <string_view>

#include "core.hpp"

namespace acemq::props {

enum class Mutation {
  none,
  // The schedule's arithmetic.
  cap_on_running_value,
  next_delay_ignores_cap,
  closed_form_pow,
  backoff_off_by_one,
  fast_path_any_multiplier,
  remembered_off_by_one,
  zero_sign_not_settled,
  no_early_exit,
  overflow_saturates,
  overflow_to_zero,
  zero_cap_is_a_cap,
  schedule_one_long,
  lazy_range_caps_running,
  lazy_range_one_short,
  clamp_drops_negative_zero,
  cap_after_jitter,
  // The jitter arithmetic.
  one_sided_jitter,
  half_width_jitter,
  flipped_jitter,
  reassociated_jitter,
  fused_jitter,
  jitter_without_one_plus,
  nan_guard_dropped,
  // Draws.
  draw_when_factor_zero,
  draw_for_zero_delay,
  draw_when_giving_up,
  two_draws_per_jitter,
  // Giving up.
  attempt_off_by_one,
  age_strict_comparison,
  zero_age_is_a_limit,
  age_uses_magnitude,
  // Validation.
  nan_jitter_accepted,
  negative_zero_rejected,
  subnormal_rejected,
  infinite_cap_accepted,
  zero_attempts_accepted,
  draw_of_one_accepted,
  nan_age_accepted,
  attempt_zero_accepted,
  wrong_field_named,
  value_loses_digits,
  copies_unvalidated,
  // Factories and copies.
  fixed_keeps_default_multiplier,
  exponential_without_jitter,
  give_up_after_resets_jitter,
  with_jitter_drops_age,
  // The Ruby-replay source.
  shared_ruby_engine,
  res32_draw,
};

struct MutationInfo {
  Mutation mutation;
  std::string_view name;  // CamelCase, as in the test names
  std::string_view what;  // the slip, in a sentence
};

// Every mutation, Mutation::none first.
std::span<const MutationInfo> all_mutations();
const MutationInfo& info(Mutation mutation);

// The copy of the core with `mutation` applied.
Core mutant(Mutation mutation);

}  // namespace acemq::props
