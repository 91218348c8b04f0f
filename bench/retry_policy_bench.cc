// Google Benchmark suite for the policy core. The headline pair is
// BM_NextDelay_Jittered and BM_NextDelay_Unjittered on exponential(10, 0.5,
// 30) with attempts cycling through 1..9, the same work the Ruby reference is
// timed on in bench/ruby_reference_bench.rb, so the two figures compare.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <optional>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/amqp/ruby_random.hpp"

namespace {

using acemq::amqp::Jitter;
using acemq::amqp::RetryPolicy;
using acemq::amqp::RubyRandom;
using acemq::amqp::Seconds;
using namespace std::chrono_literals;

const RetryPolicy kExponential = RetryPolicy::exponential(10, 0.5s, 30s);

void BM_NextDelay_Jittered(benchmark::State& state) {
  std::int64_t attempt = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(kExponential.next_delay(attempt));
    attempt = attempt == 9 ? 1 : attempt + 1;
  }
}
BENCHMARK(BM_NextDelay_Jittered);

void BM_NextDelay_Unjittered(benchmark::State& state) {
  std::int64_t attempt = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(kExponential.next_delay(attempt, 0s, Jitter::off));
    attempt = attempt == 9 ? 1 : attempt + 1;
  }
}
BENCHMARK(BM_NextDelay_Unjittered);

// The Ruby-replay source costs two MT19937 outputs per draw.
void BM_NextDelay_JitteredRubyRandom(benchmark::State& state) {
  RubyRandom source(42);
  std::int64_t attempt = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(kExponential.next_delay(attempt, 0s, source));
    attempt = attempt == 9 ? 1 : attempt + 1;
  }
}
BENCHMARK(BM_NextDelay_JitteredRubyRandom);

void BM_Jittered(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(kExponential.jittered(3s));
}
BENCHMARK(BM_Jittered);

// A capped policy with multiplier >= 1 exits once the cap is passed, so
// attempt 10^9 costs what attempt 10 does.
void BM_NextDelay_HugeAttemptCapped(benchmark::State& state) {
  const RetryPolicy policy = RetryPolicy::exponential(2'000'000'000, 0.5s, 30s);
  for (auto _ : state) {
    benchmark::DoNotOptimize(policy.next_delay(1'000'000'000, 0s, Jitter::off));
  }
}
BENCHMARK(BM_NextDelay_HugeAttemptCapped);

// The worst case: no cap and a multiplier that neither overflows nor reaches
// a fixed point soon, so attempt k costs k - 1 multiplications.
void BM_NextDelay_UncappedLinear(benchmark::State& state) {
  const RetryPolicy policy(
      {.max_attempts = 2'000'000'000, .initial_delay = 1s, .multiplier = 1 + 1e-9});
  const std::int64_t attempt = state.range(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(policy.next_delay(attempt, 0s, Jitter::off));
  }
  state.SetComplexityN(attempt);
}
BENCHMARK(BM_NextDelay_UncappedLinear)->RangeMultiplier(100)->Range(10, 1'000'000)->Complexity();

void BM_Schedule(benchmark::State& state) {
  const RetryPolicy policy({.max_attempts = state.range(0) + 1,
                            .initial_delay = 0.5s,
                            .multiplier = 1.5,
                            .max_delay = 3600s,
                            .jitter_factor = 0.2});
  for (auto _ : state) benchmark::DoNotOptimize(policy.schedule());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Schedule)->Arg(9)->Arg(1000)->Arg(1'000'000);

void BM_DelaysLazy(benchmark::State& state) {
  const RetryPolicy policy({.max_attempts = state.range(0) + 1,
                            .initial_delay = 0.5s,
                            .multiplier = 1.5,
                            .max_delay = 3600s});
  for (auto _ : state) {
    double sum = 0.0;
    for (const Seconds delay : policy.delays()) sum += delay.count();
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DelaysLazy)->Arg(1000)->Arg(1'000'000);

}  // namespace

BENCHMARK_MAIN();
