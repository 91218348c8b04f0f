// Far calls: next_delay requests at attempts past 2^20 + 1, each made with
// its policy so that the walk settles, or fails to, within a step of the
// protocol's cost limit. There a port that orders the give-up test, the cap
// exit or the count differently answers a different set of calls, and most
// slips a port's author makes there show on no other request.
//
// The full profile sends them, every kFarCallEvery-th case; the rows of
// kFarCalls (far_calls.cc), one for each edge of the limit, go in turn with
// their variants. The reference profile sends none: the Ruby reference
// walks every step and would take minutes.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "conformance/check/dice.hpp"

namespace acemq::conformance::generator {

// One case in 150 of the full profile is a far call: 33 in a run of 5000
// cases, every variant of every row (9 rows of at most 4), each a walk of a
// million steps in a port (about 0.2 s in Python, 7 s a run).
inline constexpr std::size_t kFarCallEvery = 150;

// The far call of turn `turn` (the t-th far call of a run), as a request.
nlohmann::ordered_json far_call_request(Dice& d, std::int64_t id, std::size_t turn);

}  // namespace acemq::conformance::generator
