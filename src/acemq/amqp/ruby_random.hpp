// RubyRandom: the uniform source that replays Ruby's `srand(seed); rand`.
//
// Ruby seeds MT19937 with init_genrand(seed) for seeds below 2^32, which is
// exactly the state of std::mt19937{seed}, and makes each Float from two
// consecutive 32-bit outputs a, b (genrand_res53):
//
//   ((a >> 5) * 67108864.0 + (b >> 6)) / 9007199254740992.0
//
// so a Ruby consumer's jittered sequence can be replayed in C++ bit for bit.
// Anchor: seed 42 gives 0.3745401188473625, 0.9507143064099162,
// 0.7319939418114051, as Ruby 3.1 does.
#pragma once

#include <cstdint>
#include <random>

namespace acemq::amqp {

class RubyRandom {
 public:
  explicit RubyRandom(std::uint32_t seed) : engine_(seed) {}

  // One genrand_res53 draw, always in [0, 1). The products and the sum are
  // exact in binary64 (at most 53 significant bits), so only the final
  // division by 2^53 rounds, and it is exact too: a power of two.
  double operator()() noexcept {
    const std::uint32_t a = static_cast<std::uint32_t>(engine_()) >> 5U;
    const std::uint32_t b = static_cast<std::uint32_t>(engine_()) >> 6U;
    return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
  }

  friend bool operator==(const RubyRandom&, const RubyRandom&) = default;

 private:
  std::mt19937 engine_;
};

}  // namespace acemq::amqp
