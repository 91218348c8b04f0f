#include "stats/battery/known_bad.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/amqp/ruby_random.hpp"
#include "acemq/model/contract.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/resolution.hpp"

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

// System.Random as Mono (and the .NET Framework) implement it: Knuth's
// subtractive generator, whose InternalSample() is an integer in
// [0, 2^31 − 1), and NextDouble() = InternalSample() · (1/(2^31 − 1)): 31
// bits, on no binary grid, so a grid test cannot see it, only spacing (and
// its repeats, since its period is long but its values few).
class KnuthSubtractive {
 public:
  explicit KnuthSubtractive(std::uint32_t seed) {
    constexpr std::int64_t kSeed = 161803398;
    // .NET takes |seed| here, and a seed above kSeed starts it from a
    // negative word, out of the generator's range; the seeds Mono's clock
    // gives are below it, and so are these.
    std::int64_t mj = kSeed - (seed % kSeed);
    state_[55] = mj;
    std::int64_t mk = 1;
    for (std::size_t i = 1; i < 55; ++i) {
      const std::size_t ii = (21 * i) % 55;
      state_[ii] = mk;
      mk = mj - mk;
      if (mk < 0) mk += kBig;
      mj = state_[ii];
    }
    for (int k = 1; k < 5; ++k) {
      for (std::size_t i = 1; i < 56; ++i) {
        state_[i] -= state_[1 + (i + 30) % 55];
        if (state_[i] < 0) state_[i] += kBig;
      }
    }
  }
  double operator()() {
    if (++next_ >= 56) next_ = 1;
    if (++nextp_ >= 56) nextp_ = 1;
    std::int64_t sample = state_[next_] - state_[nextp_];
    if (sample == kBig) --sample;
    if (sample < 0) sample += kBig;
    state_[next_] = sample;
    return static_cast<double>(sample) * (1.0 / static_cast<double>(kBig));
  }

 private:
  static constexpr std::int64_t kBig = 2147483647;  // Int32.MaxValue, 2^31 − 1
  std::array<std::int64_t, 56> state_{};
  std::size_t next_ = 0;
  std::size_t nextp_ = 21;
};

// xorshift32 with shifts (13, 17, 5), divided by 2^32: it visits every
// nonzero 32-bit state once a period, so it never repeats within 2^32 − 1
// calls, and the repeats test cannot see its 32 bits; the resolution test's
// binary grid does, exactly.
struct Xorshift32 {
  std::uint32_t x;
  double operator()() {
    x ^= x << 13U;
    x ^= x >> 17U;
    x ^= x << 5U;
    return static_cast<double>(x) * 0x1.0p-32;
  }
};

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
                       {kRepeats, kResolution}, [](std::uint32_t seed) {
                         return [engine = std::mt19937(seed)]() mutable {
                           return static_cast<double>(engine()) * 0x1.0p-32;
                         };
                       }));
  all.push_back(source("low_bits_24", "24-bit draws, a float: uniform_real_distribution<float>",
                       {kRepeats, kResolution}, [](std::uint32_t seed) {
                         return [engine = std::mt19937(seed)]() mutable {
                           return static_cast<double>(static_cast<float>(engine() >> 8U) *
                                                      0x1.0p-24F);
                         };
                       }));
  all.push_back(source("mono_31",
                       "31-bit draws on no binary grid: i·(1/(2^31 − 1)), Mono's "
                       "System.Random.NextDouble (Knuth's subtractive generator)",
                       {kRepeats, kResolution},
                       [](std::uint32_t seed) { return KnuthSubtractive(seed); }));
  all.push_back(source("xorshift_32",
                       "a full-period 32-bit generator, xorshift32(13, 17, 5) / 2^32: never "
                       "repeats in 2^32 − 1 calls",
                       {kResolution}, [](std::uint32_t seed) { return Xorshift32{seed | 1U}; }));
  return all;
}

bool battery_sees(const KnownBad& bad) {
  return std::any_of(bad.caught_by.begin(), bad.caught_by.end(),
                     [](const std::string& test) { return test != kResolution; });
}

}  // namespace acemq::stats
