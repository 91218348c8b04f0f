#include "stats/known_bad.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/amqp/ruby_random.hpp"
#include "acemq/model/contract.hpp"
#include "stats/battery.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::RubyRandom;
using amqp::Seconds;

// A wrong formula, drawing r from a good 53-bit stream (the low 32 bits of
// the seed, as Ruby's srand keeps them).
template <class Formula>
KnownBad formula(std::string name, std::string bug, std::vector<std::string> caught_by,
                 Formula jitter) {
  return KnownBad{std::move(name), std::move(bug), std::move(caught_by),
                  [jitter](double d, double f, std::uint64_t seed) -> JitterStream {
                    auto source = std::make_shared<RubyRandom>(static_cast<std::uint32_t>(seed));
                    return [jitter, d, f, source](std::span<double> out) {
                      for (double& j : out) j = jitter(d, f, (*source)());
                    };
                  }};
}

// A wrong source, fed through the real policy.
template <class MakeSource>
KnownBad source(std::string name, std::string bug, std::vector<std::string> caught_by,
                MakeSource make) {
  return KnownBad{
      std::move(name), std::move(bug), std::move(caught_by),
      [make](double d, double f, std::uint64_t seed) -> JitterStream {
        const RetryPolicy policy({.max_attempts = 2, .jitter_factor = f});
        auto bad = std::make_shared<decltype(make(0U))>(make(static_cast<std::uint32_t>(seed)));
        return [policy, d, bad](std::span<double> out) {
          for (double& j : out) j = policy.jittered(Seconds{d}, *bad).count();
        };
      }};
}

// Serves every draw of a good stream twice: a draw reused between calls.
struct ReusedDraw {
  RubyRandom stream;
  double last = 0.0;
  bool fresh = true;
  double operator()() {
    if (fresh) last = stream();
    fresh = !fresh;
    return last;
  }
};

// Restarts from the same seed every `period` calls, as a source constructed
// per batch would.
struct Cycle {
  std::uint32_t seed;
  std::size_t period;
  RubyRandom stream{seed};
  std::size_t calls = 0;
  double operator()() {
    if (calls++ % period == 0) stream = RubyRandom(seed);
    return stream();
  }
};

constexpr std::size_t kCyclePeriod = 100'000;

// The formula doubles are the model's jitter, d·jitter_scale(f, r), with one
// change each. The scale takes any r, so a double that folds the draw may
// reach r = 1, which the port's own checks (model::jittered) would refuse.
using model::jitter_scale;
double model_jitter(double factor, double delay, double r) {
  return delay * jitter_scale(factor, r);
}

}  // namespace

std::vector<KnownBad> known_bad() {
  std::vector<KnownBad> all;
  all.push_back(formula(
      "one_sided", "only ever delays: the draw folded onto [1/2, 1)",
      {kSign, kMean, kKolmogorovSmirnov, kChiSquare, kMirror},
      [](double d, double f, double r) { return model_jitter(f, d, 0.5 + std::abs(r - 0.5)); }));
  all.push_back(formula("width_x0.5", "half the promised spread: jittered with factor f·0.5",
                        {kKolmogorovSmirnov, kChiSquare, kVariance},
                        [](double d, double f, double r) { return model_jitter(f * 0.5, d, r); }));
  all.push_back(formula("width_x1.02", "2% more than the promised spread: factor f·1.02",
                        {kRange, kKolmogorovSmirnov, kVariance},
                        [](double d, double f, double r) { return model_jitter(f * 1.02, d, r); }));
  all.push_back(
      formula("r_for_2r-1", "r used where 2r − 1 belongs: d·(1 + r·f)",
              {kSign, kMean, kKolmogorovSmirnov, kChiSquare, kMirror},
              [](double d, double f, double r) { return model_jitter(f, d, (r + 1) / 2); }));
  all.push_back(formula("skewed_r2", "u skewed: the draw squared, d·(1 + (2r² − 1)·f)",
                        {kSign, kMean, kKolmogorovSmirnov, kChiSquare, kMirror},
                        [](double d, double f, double r) { return model_jitter(f, d, r * r); }));
  all.push_back(formula("additive",
                        "additive, not multiplicative: d + (2r − 1)·f (the same as d = 1 only)",
                        {kKolmogorovSmirnov, kChiSquare, kVariance},
                        [](double d, double f, double r) { return d + (jitter_scale(f, r) - 1); }));
  all.push_back(
      formula("recapped", "the cap re-applied after jitter: min(jittered(cap), cap)",
              {kSign, kMean, kKolmogorovSmirnov, kChiSquare, kMirror},
              [](double d, double f, double r) { return std::min(model_jitter(f, d, r), d); }));
  all.push_back(source("stuck_source",
                       "a stuck source: each call draws from a copy of the same generator "
                       "(a generator passed by value)",
                       {kKolmogorovSmirnov, kChiSquare, kRuns, kLag1, kRepeats, kVariance},
                       [](std::uint32_t seed) {
                         // Drawn from once first, so that each copy draws
                         // without regenerating MT19937's 624 words.
                         RubyRandom started(seed);
                         started();
                         return [stream = started] {
                           RubyRandom copy = stream;
                           return copy();
                         };
                       }));
  all.push_back(source("reused_draw", "each draw used for two calls in a row",
                       {kRuns, kLag1, kRepeats},
                       [](std::uint32_t seed) { return ReusedDraw{RubyRandom(seed)}; }));
  all.push_back(source("cycle_100000", "a source re-created from the same seed every 100,000 calls",
                       {kRepeats, kChiSquare}, [](std::uint32_t seed) {
                         return Cycle{seed, kCyclePeriod};
                       }));
  all.push_back(source("low_bits_32",
                       "32-bit draws, engine() / 2^32: one call of a 32-bit generator, not two",
                       {kRepeats}, [](std::uint32_t seed) {
                         return [engine = std::mt19937(seed)]() mutable {
                           return static_cast<double>(engine()) * 0x1.0p-32;
                         };
                       }));
  all.push_back(source("low_bits_24", "24-bit draws, a float: uniform_real_distribution<float>",
                       {kRepeats}, [](std::uint32_t seed) {
                         return [engine = std::mt19937(seed)]() mutable {
                           return static_cast<double>(static_cast<float>(engine() >> 8U) *
                                                      0x1.0p-24F);
                         };
                       }));
  return all;
}

}  // namespace acemq::stats
