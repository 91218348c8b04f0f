// Turns: the order in which a generator walks a table whose rows each have
// several variants (hard numbers, malformations): every (row, variant) pair,
// the first variant of every row first, so a short run still sends every row
// and a run as long as the table's variants sends every variant.
#pragma once

#include <cstddef>
#include <vector>

namespace acemq::conformance::generator {

struct Turn {
  std::size_t row;
  std::size_t variant;
};

// `rows` is a table whose rows have a `variants` count.
template <typename Rows>
std::vector<Turn> turns_of(const Rows& rows) {
  std::vector<Turn> turns;
  for (std::size_t variant = 0;; ++variant) {
    const std::size_t before = turns.size();
    std::size_t row = 0;
    for (const auto& r : rows) {
      if (variant < r.variants) turns.push_back({row, variant});
      ++row;
    }
    if (turns.size() == before) return turns;
  }
}

}  // namespace acemq::conformance::generator
