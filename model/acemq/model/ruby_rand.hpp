// ruby_rand: Ruby's Kernel.rand after srand(seed), written from the contract
// (docs/contract.md §5), to check RubyRandom and every replay against.
//
// For seeds below 2^32 Ruby seeds MT19937 with init_genrand(seed), which is
// the state of std::mt19937{seed}, and makes each Float from two consecutive
// 32-bit outputs a, b by genrand_res53. Anchor: seed 42 gives
// 0.3745401188473625, 0.9507143064099162, 0.7319939418114051 (Ruby 3.1).
#pragma once

#include <cstdint>
#include <random>

namespace acemq::model {

// ((a >> 5) * 67108864.0 + (b >> 6)) / 9007199254740992.0: every operation
// exact (at most 53 significant bits, and a division by 2^53).
constexpr double genrand_res53(std::uint32_t a, std::uint32_t b) noexcept {
  return (static_cast<double>(a >> 5U) * 67108864.0 + static_cast<double>(b >> 6U)) /
         9007199254740992.0;
}

class RubyRand {
 public:
  explicit RubyRand(std::uint32_t seed) : engine_(seed) {}

  double operator()() {
    const auto a = static_cast<std::uint32_t>(engine_());
    const auto b = static_cast<std::uint32_t>(engine_());
    return genrand_res53(a, b);
  }

 private:
  std::mt19937 engine_;
};

}  // namespace acemq::model
