// Choice: one row of a generator's table, and the weighted draw of a row.
//
// Every choice the case generator makes is a table of rows, each with its
// name, its weight relative to the other rows and how its value is made,
// side by side, so a reader sees what is sent and how often in one place.
// A row may fit only some requests (`applies`): it is then left out of the
// draw, and the weights of the rows that fit are the odds. The Context is
// all a row may read: the profile, the op, and the policy chosen so far.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "conformance/check/dice.hpp"
#include "conformance/check/op_kind.hpp"
#include "conformance/check/reference_profile.hpp"

namespace acemq::conformance::generator {

struct Context {
  Profile profile = Profile::full;
  OpKind op = OpKind::schedule;
  bool replay = false;
  double initial_delay = 0.0;
  std::int64_t max_attempts = 1;  // after the factory
  double age_limit = 0.0;         // after the factory and give_up_after
};

template <typename T>
struct Choice {
  std::string_view name;
  double weight;
  T (*make)(Dice&, const Context&);
  bool (*applies)(const Context&) = nullptr;
};

// One row of `rows` that `fits`, chosen by weight.
template <typename Row, typename Fits>
const Row& weighted(Dice& dice, std::span<const Row> rows, const Fits& fits) {
  double total = 0.0;
  for (const Row& row : rows) total += fits(row) ? row.weight : 0.0;
  double x = dice.uniform01() * total;
  const Row* last = nullptr;
  for (const Row& row : rows) {
    if (!fits(row)) continue;
    if (x < row.weight) return row;
    x -= row.weight;
    last = &row;
  }
  return *last;
}

template <typename Row>
const Row& weighted(Dice& dice, std::span<const Row> rows) {
  return weighted(dice, rows, [](const Row&) { return true; });
}

template <typename T>
const Choice<T>& pick(Dice& dice, std::span<const Choice<T>> table, const Context& context) {
  return weighted(dice, table,
                  [&](const Choice<T>& c) { return c.applies == nullptr || c.applies(context); });
}

template <typename T>
T choose(Dice& dice, std::span<const Choice<T>> table, const Context& context) {
  return pick(dice, table, context).make(dice, context);
}

}  // namespace acemq::conformance::generator
