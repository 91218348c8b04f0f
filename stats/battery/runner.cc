#include "stats/battery/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "stats/battery/runs.hpp"

namespace acemq::stats {
namespace {

// Draws are made this many at a time, a buffer that stays in L1.
constexpr std::size_t kDrawBuffer = 4096;

}  // namespace

std::uint64_t JobInfo::segments() const { return (n + kSegmentSamples - 1) / kSegmentSamples; }

BatteryConfig JobInfo::config() const { return BatteryConfig::for_samples(delay, factor, n); }

std::vector<Slice> whole(const std::vector<Job>& jobs) {
  std::vector<Slice> slices;
  for (std::size_t i = 0; i < jobs.size(); ++i) slices.push_back({i, 0, jobs[i].info.segments()});
  return slices;
}

std::vector<Slice> shard(const std::vector<Job>& jobs, std::size_t k, std::size_t shards) {
  std::uint64_t total = 0;
  for (const Job& job : jobs) total += job.info.segments();
  // Shares by segment count: a segment costs about the same in every job.
  const std::uint64_t first = total * (k - 1) / shards;
  const std::uint64_t last = total * k / shards;
  std::vector<Slice> slices;
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const std::uint64_t segments = jobs[i].info.segments();
    const std::uint64_t begin = std::max(first, offset);
    const std::uint64_t end = std::min(last, offset + segments);
    if (begin < end) slices.push_back({i, begin - offset, end - offset});
    offset += segments;
  }
  return slices;
}

std::uint64_t samples_in(const std::vector<Job>& jobs, const std::vector<Slice>& slices) {
  std::uint64_t total = 0;
  for (const Slice& s : slices) {
    const std::uint64_t n = jobs[s.job].info.n;
    total += std::min(n, s.end * kSegmentSamples) - s.begin * kSegmentSamples;
  }
  return total;
}

BatteryState run_slice(const Job& job, std::uint64_t begin, std::uint64_t end,
                       Accumulator& accumulator, Progress* progress) {
  BatteryState state(job.info.config());
  std::vector<double> buffer(kDrawBuffer);
  for (std::uint64_t segment = begin; segment < end; ++segment) {
    const std::uint64_t start = segment * kSegmentSamples;
    const std::uint64_t size = std::min(kSegmentSamples, job.info.n - start);
    const JitterStream draw = job.stream(derive_seed(job.info.seed, segment));
    accumulator.begin(state, segment);
    for (std::uint64_t done = 0; done < size; done += kDrawBuffer) {
      const std::span<double> chunk(buffer.data(),
                                    std::min<std::uint64_t>(kDrawBuffer, size - done));
      draw(chunk);
      accumulator.add_jittered(chunk);
    }
    accumulator.end();
    if (progress != nullptr) progress->add_samples(size);
  }
  return state;
}

void run(const std::vector<Job>& jobs, const std::vector<Slice>& slices, unsigned threads,
         Progress& progress, const std::function<void(SliceResult&&)>& done) {
  std::atomic<std::size_t> next{0};
  std::mutex handing;
  std::exception_ptr failure;
  const auto worker = [&] {
    Accumulator accumulator;
    for (std::size_t i = next++; i < slices.size(); i = next++) {
      try {
        const Slice& s = slices[i];
        const auto begun = std::chrono::steady_clock::now();
        BatteryState state = run_slice(jobs[s.job], s.begin, s.end, accumulator, &progress);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
        const std::lock_guard<std::mutex> lock(handing);
        if (!failure) done(SliceResult{s, std::move(state), seconds});
      } catch (...) {
        const std::lock_guard<std::mutex> lock(handing);
        if (!failure) failure = std::current_exception();
        next = slices.size();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::max(1U, threads); ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace acemq::stats
