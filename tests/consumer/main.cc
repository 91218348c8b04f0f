// Proves the installed package works: headers found, library linked, and the
// doc page's anchor reproduced bit for bit. Exits non-zero on any mismatch.
#include <acemq/amqp/retry_policy.hpp>
#include <acemq/amqp/ruby_random.hpp>

#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>

int main() {
  using namespace std::chrono_literals;
  using acemq::amqp::RetryPolicy;
  const RetryPolicy policy = RetryPolicy::exponential(5, 0.5s, 3s);
  const double want[] = {0.5, 1.0, 2.0, 3.0};
  int i = 0;
  for (const auto delay : policy.schedule()) {
    if (std::bit_cast<std::uint64_t>(delay.count()) != std::bit_cast<std::uint64_t>(want[i++])) {
      std::puts("consumer: schedule differs from the reference");
      return 1;
    }
  }
  acemq::amqp::RubyRandom rand(42);
  const auto first = RetryPolicy::exponential(5, 0.5s).next_delay(1, 0s, rand);
  if (!first || std::bit_cast<std::uint64_t>(first->count()) !=
                    std::bit_cast<std::uint64_t>(0.4749080237694725)) {
    std::puts("consumer: replayed jitter differs from the reference");
    return 1;
  }
  std::puts("consumer: acemq::retry installed and bit-exact");
  return 0;
}
