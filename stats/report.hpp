// The nightly report: results.json, summary.md and two SVG pictures a cell
// (svg.hpp), all in one directory.
//
// JSON holds every number (p-values, statistics, range, seeds) for tools;
// the Markdown summary is for a person: the verdict, the seed and how to
// replay it, one row a cell with links to its pictures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "battery.hpp"
#include "jitter_sample.hpp"

namespace acemq::stats {

struct Outcome {
  std::string name;         // the cell's name, or the double's
  std::string description;  // the delay, or the double's bug
  double delay = 0.0;
  double factor = 0.0;
  std::uint64_t seed = 0;
  RangeCheck range;
  Analysis analysis;
  std::vector<bool> rejected;  // by Holm, one per test of analysis
  double seconds = 0.0;
  // The file names of the pictures, relative to the report directory.
  std::string ecdf_svg;
  std::string histogram_svg;

  bool failed() const;  // out of range, or any test rejected
};

struct RunReport {
  std::uint64_t seed = 0;
  std::size_t n = 0;
  std::size_t family_size = 0;  // tests sharing the 1e-6 budget
  double ks_critical = 0.0;     // c at the per-test alpha
  double seconds = 0.0;
  std::vector<Outcome> cells;
  std::vector<Outcome> known_bad;  // each must fail; not in the family
  bool passed() const;             // every cell passes, every double fails
};

// Writes results.json, summary.md and svg/*.svg into dir (created if need
// be); returns the summary's path.
std::filesystem::path write_report(const std::filesystem::path& dir, const RunReport& run);

// The file-name form of a cell's name: letters, digits, '.', '-' and '_'.
std::string file_stem(const std::string& name);

}  // namespace acemq::stats
