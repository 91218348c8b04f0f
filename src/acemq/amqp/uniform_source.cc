#include "acemq/amqp/uniform_source.hpp"

#include <random>

namespace acemq::amqp {
namespace {

// One engine per thread, seeded once from the OS: no lock, no shared state,
// no allocation per draw. mt19937_64 costs about 2 ns a draw here.
std::mt19937_64& thread_engine() noexcept {
  thread_local std::mt19937_64 engine = [] {
    std::random_device device;
    std::seed_seq seeds{device(), device(), device(), device()};
    return std::mt19937_64(seeds);
  }();
  return engine;
}

}  // namespace

double DefaultSource::operator()() const noexcept {
  // The top 53 bits scaled by 2^-53: exact, and never 1.0, unlike
  // std::generate_canonical, which can round up to 1.0 (LWG 2524).
  return static_cast<double>(thread_engine()() >> 11U) * 0x1.0p-53;
}

void DefaultSource::seed_this_thread(std::uint64_t seed) noexcept {
  thread_engine().seed(seed);
}

}  // namespace acemq::amqp
