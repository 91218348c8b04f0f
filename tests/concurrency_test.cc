// Many threads jittering at once with the default source: run under
// ThreadSanitizer by the tsan preset (tests named Concurrency.*), and as a plain
// unit test everywhere else. The default source is one engine per thread,
// so there is nothing to race on and no two threads share a sequence.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/amqp/uniform_source.hpp"

namespace acemq::amqp {
namespace {

using namespace std::chrono_literals;

constexpr int kThreads = 8;
constexpr int kCallsPerThread = 20000;
constexpr int kDrawsKept = 2000;

TEST(Concurrency, ManyThreadsShareOnePolicyAndNoSequence) {
  const RetryPolicy policy = RetryPolicy::exponential(10, 0.5s, 30s).give_up_after(60s);
  std::vector<std::vector<std::uint64_t>> draws(kThreads);
  std::vector<int> out_of_range(kThreads, 0);
  {
    std::vector<std::jthread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        DefaultSource source;
        for (int i = 0; i < kCallsPerThread; ++i) {
          const std::int64_t attempt = 1 + i % 9;
          const std::optional<Seconds> delay = policy.next_delay(attempt);
          const double nominal = policy.next_delay(attempt, 0s, Jitter::off)->count();
          if (!delay || delay->count() < nominal * 0.8 || delay->count() > nominal * 1.2) {
            ++out_of_range[static_cast<std::size_t>(t)];
          }
          if (i < kDrawsKept) {
            draws[static_cast<std::size_t>(t)].push_back(std::bit_cast<std::uint64_t>(source()));
          }
        }
      });
    }
  }
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(out_of_range[static_cast<std::size_t>(t)], 0);
  // 16,000 draws of 53 bits: a chance collision has probability ~1.4e-8,
  // while two threads on one seed would collide 2,000 times.
  std::set<std::uint64_t> seen;
  std::size_t total = 0;
  for (const auto& thread_draws : draws) {
    seen.insert(thread_draws.begin(), thread_draws.end());
    total += thread_draws.size();
  }
  EXPECT_EQ(seen.size(), total) << "two threads drew the same values: a shared sequence";
}

TEST(Concurrency, ReseedingOneThreadLeavesTheOthersAlone) {
  std::vector<double> a;
  std::vector<double> b;
  std::jthread first([&] {
    DefaultSource::seed_this_thread(7);
    for (int i = 0; i < 100; ++i) a.push_back(DefaultSource{}());
  });
  std::jthread second([&] {
    DefaultSource::seed_this_thread(7);
    for (int i = 0; i < 100; ++i) b.push_back(DefaultSource{}());
  });
  first.join();
  second.join();
  EXPECT_EQ(a, b) << "the same seed in two threads must give the same sequence";
  DefaultSource::seed_this_thread(7);
  EXPECT_EQ(DefaultSource{}(), a.front());
}

}  // namespace
}  // namespace acemq::amqp
