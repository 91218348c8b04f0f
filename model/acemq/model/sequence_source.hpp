// sequence_source: a uniform source that yields the draws it is given, in
// order, and counts how many were taken.
//
// The contract says exactly when a draw is taken (docs/contract.md §5: only
// when jitter applies, once, after deciding not to give up), so tests inject
// the draws they mean and then ask how many were used. In the pattern of
// abseil's absl::random_internal::sequence_urbg. Copies share the sequence
// and the count, so the source can be passed by value to RetryPolicy.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace acemq::model {

class SequenceSource {
 public:
  // Yields `draws` in order; asking for one more throws std::out_of_range.
  SequenceSource(std::initializer_list<double> draws)
      : state_(std::make_shared<State>(State{std::vector<double>(draws), 0, false})) {}
  explicit SequenceSource(std::vector<double> draws)
      : state_(std::make_shared<State>(State{std::move(draws), 0, false})) {}

  // Yields `r` for ever.
  static SequenceSource constant(double r) {
    SequenceSource source{r};
    source.state_->cycles = true;
    return source;
  }

  double operator()() const {
    State& s = *state_;
    if (s.cycles) {
      ++s.taken;
      return s.draws.front();
    }
    if (s.taken >= s.draws.size()) {
      throw std::out_of_range("SequenceSource: draw " + std::to_string(s.taken + 1) +
                              " asked of a sequence of " + std::to_string(s.draws.size()));
    }
    return s.draws[s.taken++];
  }

  // How many draws have been taken, by this source and its copies.
  std::size_t taken() const noexcept { return state_->taken; }

 private:
  struct State {
    std::vector<double> draws;
    std::size_t taken;
    bool cycles;
  };
  std::shared_ptr<State> state_;
};

}  // namespace acemq::model
