// Wire variants: the spellings of one valid request's line, which must not
// change its answer: the JSON form of its id, echoed back as the same value
// (check compares ids as values), and the line's layout.
//
// The id's form and the layout are drawn by weight (kIdForms, kLayouts in
// wire_variants.cc). The numeric ids a port mangles (kNumericIds) are sent
// in turn instead: every kNumericIdEvery-th valid case takes the next row's
// text in place of its drawn id, after the draw, so every other case's dice
// are as they were.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "conformance/check/dice.hpp"
#include "conformance/check/reference_profile.hpp"

namespace acemq::conformance::generator {

// A valid request's id, as the JSON text its line holds.
std::string drawn_id_text(Dice& d, std::int64_t id);

struct NumericId {
  std::string_view name;
  std::string_view text;
  std::string_view why;
};

// 37 valid cases apart, the 17 rows come round every 629 valid cases, about
// 700 cases (9 in 10 are valid): a run of 5000 sends each row about 7
// times, and any 2000 cases (about 1800 valid, 48 of them numeric ids) send
// each at least twice.
inline constexpr std::size_t kNumericIdEvery = 37;

// The numeric id the valid-th valid case of a run (from 1) sends in place
// of its drawn id, or none.
const NumericId* numeric_id_in_turn(std::size_t valid);

// The line in a layout drawn for the profile.
std::string laid_out(Dice& d, Profile profile, const std::string& line);

}  // namespace acemq::conformance::generator
