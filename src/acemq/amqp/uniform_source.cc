#include "acemq/amqp/uniform_source.hpp"

#include "acemq/amqp/internal/thread_engine.hpp"

namespace acemq::amqp {

double DefaultSource::operator()() const noexcept { return internal::draw_from_thread_engine(); }

void DefaultSource::seed_this_thread(std::uint64_t seed) noexcept {
  internal::thread_engine().seed(seed);
}

}  // namespace acemq::amqp
