// Google Benchmark suite for the statistics battery: what a sample costs to
// draw and jitter through the real policy (BM_DrawAndJitter, one case a
// path and source of the grid), what it costs the battery
// (BM_Battery, at the histogram of the per-commit and of the nightly n), and
// both together (BM_DrawJitterAndBattery). Items are samples, so the
// per-item time is the cost of one sample.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "stats/battery/battery.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/jobs.hpp"
#include "stats/battery/runner.hpp"
#include "stats/battery/runs.hpp"

namespace {

using namespace acemq::stats;

constexpr std::size_t kBuffer = 4096;

Cell cell_of(int path, int source) {
  return Cell{.factor = 0.2,
              .delay = DelayKind::ordinary,
              .path = path == 0 ? Path::jittered : Path::next_delay,
              .source = source == 0 ? SourceKind::default_source : SourceKind::ruby};
}

// Args: path (0 jittered, 1 next_delay), source (0 DefaultSource, 1 RubyRandom).
void BM_DrawAndJitter(benchmark::State& state) {
  const Cell cell = cell_of(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  state.SetLabel(cell.name());
  const JitterStream draw = stream(cell, 1);
  std::vector<double> buffer(kBuffer);
  for (auto _ : state) {
    draw(buffer);
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBuffer));
}
BENCHMARK(BM_DrawAndJitter)->ArgsProduct({{0, 1}, {0, 1}});

// One segment of pre-drawn delays through the battery; Arg: the samples the
// cell's histogram is sized for (the per-commit or the nightly n).
void BM_Battery(benchmark::State& state) {
  const Cell cell = cell_of(0, 0);
  const auto n = static_cast<std::uint64_t>(state.range(0));
  std::vector<double> segment(kSegmentSamples);
  stream(cell, 1)(segment);
  BatteryState battery(BatteryConfig::for_samples(cell.delay_seconds(), cell.factor, n));
  Accumulator accumulator;
  for (auto _ : state) {
    if (battery.n() + kSegmentSamples > kMaxSamples) {
      battery = BatteryState(battery.config);
    }
    accumulator.begin(battery, 0);
    for (std::size_t i = 0; i < segment.size(); i += kBuffer) {
      accumulator.add_jittered(std::span<const double>(segment).subspan(i, kBuffer));
    }
    accumulator.end();
  }
  benchmark::DoNotOptimize(battery.histogram.counts().data());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kSegmentSamples));
}
BENCHMARK(BM_Battery)->Arg(kCommitSamples)->Arg(kNightlySamples)->Unit(benchmark::kMillisecond);

// What the nightly does per sample: draw, jitter and the battery, one
// segment at a time. Args: path and source as for BM_DrawAndJitter.
void BM_DrawJitterAndBattery(benchmark::State& state) {
  const Cell cell = cell_of(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  state.SetLabel(cell.name());
  const Job job = grid_job(cell, 0, 1, kNightlySamples);
  Accumulator accumulator;
  std::uint64_t segment = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(run_slice(job, segment, segment + 1, accumulator).n());
    segment = (segment + 1) % job.info.segments();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kSegmentSamples));
}
BENCHMARK(BM_DrawJitterAndBattery)->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
