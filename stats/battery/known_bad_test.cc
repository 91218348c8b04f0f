// Power, proved: every known-bad double is rejected at the per-commit n, by
// each of the tests its row in known_bad.cc names, at every jitter factor.
// The alpha is the grid's own per-test share, so a double caught here would
// also fail the grid.
#include <algorithm>
#include <functional>
#include <iostream>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "acemq/amqp/retry_policy.hpp"
#include "acemq/amqp/ruby_random.hpp"
#include "acemq/amqp/uniform_source.hpp"
#include "stats/battery/battery.hpp"
#include "stats/battery/family.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/jobs.hpp"
#include "stats/battery/known_bad.hpp"
#include "stats/battery/resolution.hpp"
#include "stats/battery/runs.hpp"
#include "stats/battery/test_support.hpp"
#include "stats/battery/verdict.hpp"

namespace acemq::stats {
namespace {

using amqp::RetryPolicy;
using amqp::Seconds;

constexpr std::uint64_t kKnownBadSeed = 20240004;

class KnownBadDouble : public testing::TestWithParam<std::tuple<std::size_t, double>> {};

TEST_P(KnownBadDouble, IsRejected) {
  const KnownBad bad = known_bad().at(std::get<0>(GetParam()));
  const double factor = std::get<1>(GetParam());
  const Job job = known_bad_job(bad, factor, kKnownBadSeed, kCommitSamples);
  const double alpha = per_test_alpha(family_size());
  std::cout << bad.name << " (" << bad.bug << "): d = " << job.info.delay << ", f = " << factor
            << ", seed " << kKnownBadSeed << ", n " << job.info.n << ", alpha " << alpha << "\n";

  Accumulator accumulator;
  const BatteryState state = run_slice(job, 0, job.info.segments(), accumulator);
  const Analysis a = analyze(state);
  print_analysis(std::cout, a, state.range, alpha);
  const std::vector<std::string> rejected = rejected_by(a, state.range, alpha);
  for (const std::string& expected : bad.caught_by) {
    if (expected == kResolution) continue;  // KnownBadResolution's
    EXPECT_NE(std::find(rejected.begin(), rejected.end(), expected), rejected.end())
        << expected << " does not reject " << bad.name;
  }
  if (!battery_sees(bad)) {
    // Why the resolution test exists: the battery passes this double.
    EXPECT_TRUE(rejected.empty()) << bad.name << " is rejected by the battery after all: say so in"
                                  << " its caught_by";
  }
}

std::string factor_name(const testing::TestParamInfo<std::tuple<std::size_t, double>>& info) {
  std::string name = known_bad().at(std::get<0>(info.param)).name + "_f" +
                     std::to_string(static_cast<int>(std::get<1>(info.param) * 100));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// The resolution test on each double's exact cell (d = 1, f = 1, where the
// delay is 2r: resolution.hpp), n = 10^6, at the grid's per-test alpha:
// those whose caught_by names it must be rejected, and it prints what it
// measures of every other.
class KnownBadResolution : public testing::TestWithParam<std::size_t> {};

ResolutionOutcome resolution_of(const JitterStream& stream, std::uint64_t n, double alpha) {
  ResolutionOutcome out;
  out.state = ResolutionState(kContractBits);
  ResolutionAccumulator accumulator;
  std::vector<double> chunk(65536);
  for (std::uint64_t segment = 0; segment * kSegmentSamples < n; ++segment) {
    const std::uint64_t size = std::min(kSegmentSamples, n - segment * kSegmentSamples);
    accumulator.begin(out.state, segment);
    for (std::uint64_t done = 0; done < size; done += chunk.size()) {
      const std::span<double> part(chunk.data(),
                                   std::min<std::uint64_t>(chunk.size(), size - done));
      stream(part);
      accumulator.add_jittered(part);
    }
    accumulator.end();
  }
  out.result = analyze_resolution(out.state, alpha);
  out.rejected = out.result.p_value < alpha || !out.state.range.ok();
  out.verdict = resolution_verdict(out.result, out.result.p_value < alpha, alpha);
  if (!out.state.range.ok())
    out.verdict += "; delays out of range: " + outside_text(out.state.range);
  return out;
}

TEST_P(KnownBadResolution, IsMeasured) {
  const KnownBad bad = known_bad().at(GetParam());
  const double alpha = per_test_alpha(family_size());
  const ResolutionOutcome o =
      resolution_of(bad.stream(kExactDelay, kExactFactor, kKnownBadSeed), kCommitSamples, alpha);
  std::cout << bad.name << " (" << bad.bug << "), exact cell, seed " << kKnownBadSeed << ", n "
            << kCommitSamples << ", alpha " << alpha << ": " << o.result.estimate << "; p "
            << o.result.p_value << "; " << o.verdict << "\n";
  const bool expected = std::find(bad.caught_by.begin(), bad.caught_by.end(),
                                  std::string(kResolution)) != bad.caught_by.end();
  if (expected) {
    EXPECT_TRUE(o.rejected) << bad.name;
  }
}

// The core's own sources meet the rule, exactly: every draw on the 2^-53
// grid and no coarser one, and a smallest gap as a 53-bit source leaves.
TEST(KnownBadResolution, TheCoresSourcesMeetTheContract) {
  const double alpha = per_test_alpha(family_size());
  for (const SourceKind source : {SourceKind::ruby, SourceKind::default_source}) {
    const Cell cell{kExactFactor, DelayKind::ordinary, Path::jittered, source};
    const RetryPolicy policy({.max_attempts = 2, .jitter_factor = kExactFactor});
    std::function<double()> draw;
    if (source == SourceKind::ruby) {
      draw = [random = amqp::RubyRandom(static_cast<std::uint32_t>(kKnownBadSeed))]() mutable {
        return random();
      };
    } else {
      amqp::DefaultSource::seed_this_thread(kKnownBadSeed);
      draw = [] { return amqp::DefaultSource{}(); };
    }
    const JitterStream stream = [&](std::span<double> out) {
      for (double& y : out) y = policy.jittered(Seconds{kExactDelay}, draw).count();
    };
    const ResolutionOutcome o = resolution_of(stream, kCommitSamples, alpha);
    std::cout << cell.name() << ": " << o.result.estimate << "; " << o.verdict << "\n";
    EXPECT_FALSE(o.rejected) << cell.name();
    EXPECT_EQ(o.result.dyadic_bits, kContractBits) << cell.name();
    EXPECT_GE(o.result.spacing_p, alpha) << cell.name();
    EXPECT_GE(o.result.repeats_p, alpha) << cell.name();
  }
}

std::string double_name(const testing::TestParamInfo<std::size_t>& info) {
  std::string name = known_bad().at(info.param).name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Stats, KnownBadResolution,
                         testing::Range<std::size_t>(0, known_bad().size()), double_name);

INSTANTIATE_TEST_SUITE_P(Stats, KnownBadDouble,
                         testing::Combine(testing::Range<std::size_t>(0, known_bad().size()),
                                          testing::ValuesIn(kFactors)),
                         factor_name);

}  // namespace
}  // namespace acemq::stats
