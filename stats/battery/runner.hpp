// runner: cells cut into segments, run on threads or on many machines, and
// merged back into one state a cell.
//
// A job is one cell's worth of draws: n of them, in segments of
// kSegmentSamples, segment s drawn from its own seed derive_seed(seed, s).
// Because every segment is an independent, seeded stream and states merge
// exactly (battery.hpp), any partition of the segments, over threads, over
// processes (shard()), over CI runners, gives bit for bit the states, and so
// the verdict, of one process running them all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stats/battery/battery.hpp"
#include "stats/battery/grid.hpp"
#include "stats/battery/progress.hpp"

namespace acemq::stats {

// What a job is, without the means to draw it: enough for a report, and
// what a state file records to check that its shards belong together.
struct JobInfo {
  std::string name;         // the cell's name, or "known_bad/<double>"
  std::string description;  // the double's bug; empty for a cell
  double delay = 0.0;
  double factor = 0.0;
  std::uint64_t seed = 0;
  std::uint64_t n = 0;
  bool in_family = true;  // a grid cell, judged with the family (Holm); a double alone

  std::uint64_t segments() const;
  BatteryConfig config() const;
  bool operator==(const JobInfo&) const = default;
};

struct Job {
  JobInfo info;
  // Makes the stream of one segment from its seed.
  std::function<JitterStream(std::uint64_t seed)> stream;
};

// Segments [begin, end) of job `job`.
struct Slice {
  std::size_t job = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

struct SliceResult {
  Slice slice;
  BatteryState state;
  double seconds = 0.0;
};

// Every segment of every job, one slice a job.
std::vector<Slice> whole(const std::vector<Job>& jobs);
// Shard k of `shards` (1-based): the k-th of `shards` contiguous, equal
// shares of all the jobs' segments in job order.
std::vector<Slice> shard(const std::vector<Job>& jobs, std::size_t k, std::size_t shards);
std::uint64_t samples_in(const std::vector<Job>& jobs, const std::vector<Slice>& slices);

// Draws and accumulates one slice on the calling thread.
BatteryState run_slice(const Job& job, std::uint64_t begin, std::uint64_t end,
                       Accumulator& accumulator, Progress* progress = nullptr);

// Runs the slices on `threads` threads; each finished slice is handed to
// `done`, one at a time, in the order they finish.
void run(const std::vector<Job>& jobs, const std::vector<Slice>& slices, unsigned threads,
         Progress& progress, const std::function<void(SliceResult&&)>& done);

}  // namespace acemq::stats
