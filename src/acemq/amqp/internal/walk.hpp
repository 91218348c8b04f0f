// What next_delay costs: the facts about the core's walk that harnesses need,
// exported once so that none of them re-derives the core's early exits.
//
// Private to the build tree (never installed): the protocol's cost limit and
// the properties read it; a consumer of acemq::retry has no use for it.
#pragma once

#include <cstdint>

#include "acemq/amqp/retry_policy.hpp"

namespace acemq::amqp::internal {

// kRememberedRunningValues, defined in retry_policy.hpp beside the table it
// sizes: a policy walks the contract's loop for its first 16 entries when it
// is made, so next_delay(attempt) for attempt <= 16 reads its answer from a
// table and walks only past it.
static_assert(kRememberedRunningValues == 16);

// How many multiplications of the contract's loop (docs/contract.md §3,
// counted from initial_delay) the answer of next_delay(attempt, message_age)
// rests on, as the core walks it: 0 when the call gives up or rejects its
// arguments; attempt - 1 up to kRememberedRunningValues; past that, fewer
// wherever one of the core's early exits stops the walk (the running value
// has passed the cap with multiplier >= 1; it is zero, its sign under
// multiplier -0.0 settled by parity; or multiplying leaves its bits
// unchanged, which costs the one multiplication that shows it). Counting
// stops after `limit`: a walk that needs more returns limit + 1, in at most
// limit + 1 steps. Never throws.
std::int64_t walk_multiplications(const RetryPolicy& policy, std::int64_t attempt,
                                  double message_age, std::int64_t limit) noexcept;

}  // namespace acemq::amqp::internal
