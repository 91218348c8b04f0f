// The run's report: results.json, summary.md and two SVG pictures a cell
// (svg.hpp), all in one directory.
//
// JSON holds every number (p-values, statistics, range, seeds, the power
// table) for tools; the Markdown summary is for a person: the verdict, the
// seed and how to replay it, the power at this n, one row a cell with links
// to its pictures. A merged night writes the same report as one process,
// but for the seconds.
#pragma once

#include <filesystem>
#include <string>

#include "stats/battery/verdict.hpp"

namespace acemq::stats {

// Writes results.json, summary.md and svg/*.svg into dir (created if need
// be); returns the summary's path.
std::filesystem::path write_report(const std::filesystem::path& dir, const RunReport& run);

// A run that judged nothing (the adapter could not start, died, hung or
// wrote a non-answer before the first cell was drawn, or exited badly at
// the end): what drew, where it failed, the adapter's words, clipped.
struct FailedToTest {
  std::string source;
  std::string stage;
  std::string failure;
  double wall_seconds = 0.0;
};
// Writes results.json (outcome "failed_to_test", exit_code 2) and
// summary.md into dir, and removes the pictures an earlier run left there;
// returns the summary's path.
std::filesystem::path write_failure_report(const std::filesystem::path& dir,
                                           const FailedToTest& failure);

// The file-name form of a cell's name: letters, digits, '.', '-' and '_'.
std::string file_stem(const std::string& name);

}  // namespace acemq::stats
