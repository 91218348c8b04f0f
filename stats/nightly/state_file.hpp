// state_file: a shard's states on disk, and the merge of a night's shards.
//
// `stats_nightly --shard K/N` writes one file: a header that says which
// night it belongs to (the seed, the plan, every job with its delay, factor,
// seed and n, and K of N), then one record a slice as it finishes (the job,
// the segments, the seconds it took, the state), then a footer with the
// record count and a checksum of everything before it. Integers and doubles
// are little-endian, doubles by their bits, so a merged state is the same bit
// for bit as one process's.
//
// merge_shards() reads the N files of a night and refuses, naming the file
// and the reason, anything that is not exactly one night's N shards: a
// different night or plan, a repeated or missing K, a file cut short or
// changed, a slice that overlaps another or a segment no shard drew. Jobs
// finish as the files are read in shard order, so it holds only the cells
// that straddle a shard boundary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "stats/battery/runner.hpp"

namespace acemq::stats {

struct StateFileHeader {
  std::uint64_t night_seed = 0;
  std::string plan;    // NightPlan::describe()
  std::string replay;  // NightPlan::arguments()
  std::size_t family_size = 0;
  std::vector<JobInfo> jobs;
  std::size_t shard = 1;   // K, from 1
  std::size_t shards = 1;  // N

  // Everything but K: what the shards of one night share.
  bool same_night(const StateFileHeader& other) const;
};

class StateFileWriter {
 public:
  // Writes to `path` + ".partial" and renames it at finish(), so a file at
  // `path` is always complete.
  StateFileWriter(std::filesystem::path path, const StateFileHeader& header);
  void write(const SliceResult& result);
  void finish();

 private:
  void put(const void* data, std::size_t size);

  std::filesystem::path path_;
  std::filesystem::path partial_;
  std::ofstream out_;
  std::uint64_t records_ = 0;
  std::uint64_t checksum_;
};

// The night's header (shard 1 of 1 once merged) and, for each job whose
// segments are all there, its merged state, handed over as it completes.
// Throws std::runtime_error naming the file and what is wrong with it.
StateFileHeader merge_shards(const std::vector<std::filesystem::path>& files,
                             const std::function<void(std::size_t job, const JobInfo& info,
                                                      BatteryState&& state, double seconds)>& done);

// The files named, with each directory replaced by the *.state files in it.
std::vector<std::filesystem::path> state_files(const std::vector<std::filesystem::path>& paths);

}  // namespace acemq::stats
