// The calling thread's pcg64 engine behind DefaultSource. Private to the
// library: included by the .cc files that draw, so each can inline the draw
// (a call across translation units cost about half of a draw's time when it
// was measured), and the installed headers never need pcg-cpp.
#pragma once

#include <cstdint>
#include <random>

#include <pcg_random.hpp>

namespace acemq::amqp::internal {

inline pcg64& thread_engine() noexcept {
  // 256 bits from the OS per thread (state and stream), so no two threads
  // share a sequence short of a 2^-128 collision.
  thread_local pcg64 engine(pcg_extras::seed_seq_from<std::random_device>{});
  return engine;
}

// The top 53 bits of a 64-bit output times 2^-53: exact, in [0, 1), the
// resolution of Ruby's genrand_res53, and never 1.0, unlike
// std::generate_canonical, which can round up to 1.0 (LWG 2524).
inline double draw_from_thread_engine() noexcept {
  return static_cast<double>(thread_engine()() >> 11U) * 0x1.0p-53;
}

}  // namespace acemq::amqp::internal
