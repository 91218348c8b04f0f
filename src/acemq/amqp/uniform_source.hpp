// Uniform sources: where jitter gets its randomness.
//
// A UniformSource is any callable that returns a double in [0, 1): the `r` of
// the contract (docs/contract.md), standing in for Ruby's `Kernel.rand`.
// Jitter draws exactly one value per jittered delay, and none when jitter does
// not apply, so a caller can inject a seeded source and replay a sequence.
//
// DefaultSource is what jitter uses when the caller passes none: a
// thread-local generator seeded once per thread from std::random_device. It
// takes no lock and allocates nothing per draw, so a fleet of threads can
// jitter at once without sharing a sequence.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace acemq::amqp {

// Any callable, invoked as an lvalue, whose result converts to double.
// Whether the value lies in [0, 1) is checked at each draw, not here: a source
// that drifts out of range is an error at the call that sees it.
// clang-format 14 reads the concept's `<` as a comparison, and mangles it.
// clang-format off
template <typename Source>
concept UniformSource =
    std::invocable<Source&> && std::convertible_to<std::invoke_result_t<Source&>, double>;
// clang-format on

// The default source. Cheap to construct (it holds nothing); every call reads
// the calling thread's own pcg64 engine (O'Neill's PCG, from Debian's
// libpcg-cpp-dev), seeded from std::random_device on the thread's first
// draw. pcg64 draws several times faster than std::mt19937_64 (README.md,
// Performance), and jitter needs speed more than a 2^19937 period.
class DefaultSource {
 public:
  // A uniform draw in [0, 1) with 53 random bits, the resolution of Ruby's
  // genrand_res53; never 1.0.
  double operator()() const noexcept;

  // Reseeds the calling thread's engine, for tests that want a replayable
  // default source. Other threads are unaffected.
  static void seed_this_thread(std::uint64_t seed) noexcept;
};

}  // namespace acemq::amqp
