// stats_nightly: the large statistical run (ctest label `nightly`).
//
// A fresh seed each night, printed first so that any failure can be
// replayed (STATS_SEED or --seed); 10^7 samples per grid cell; Holm's
// correction holding the family-wise false-alarm rate at 1e-6; progress on
// stderr; a report directory with JSON, Markdown and pictures. Exits 1 when
// a cell fails or a known-bad double is not rejected.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "battery.hpp"
#include "family.hpp"
#include "grid.hpp"
#include "known_bad.hpp"
#include "kolmogorov.hpp"
#include "report.hpp"
#include "runs.hpp"

#ifndef STATS_DEFAULT_REPORT_DIR
#define STATS_DEFAULT_REPORT_DIR "stats-report"
#endif

namespace {

using namespace acemq::stats;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::uint64_t fresh_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32U) | device();
}

// A unit of work: one grid cell or one known-bad double.
struct Job {
  std::string name;
  std::string description;
  double delay;
  double factor;
  std::uint64_t seed;
  std::function<JitterSample(std::size_t)> sample;
};

int run(int argc, char** argv) {
  CLI::App app{"Nightly statistical test of jitter: uniform, symmetric, independent"};
  std::uint64_t seed = 0;
  std::size_t n = kNightlySamples;
  std::string report_dir = STATS_DEFAULT_REPORT_DIR;
  unsigned jobs = 2;
  std::string only;
  bool with_known_bad = true;
  app.add_option("--seed", seed, "replay this run's seed (default: fresh)")->envname("STATS_SEED");
  app.add_option("--n", n, "samples per cell (at least 10^7 for a real nightly)")
      ->envname("STATS_N");
  app.add_option("--report-dir", report_dir, "where the report goes")
      ->envname("STATS_REPORT_DIR")
      ->capture_default_str();
  app.add_option("--jobs", jobs, "worker threads")->envname("STATS_JOBS")->capture_default_str();
  app.add_option("--only", only, "run only the cells whose name matches this regex");
  app.add_flag("!--no-known-bad", with_known_bad, "skip the known-bad doubles");
  CLI11_PARSE(app, argc, argv);

  const bool replay = app.count("--seed") > 0 || std::getenv("STATS_SEED") != nullptr;
  if (!replay) seed = fresh_seed();
  std::cerr << "stats_nightly: seed " << seed << (replay ? " (replayed)" : " (fresh)")
            << "; replay with STATS_SEED=" << seed << "\n";
  std::cout << "seed " << seed << "\n" << std::flush;
  if (n < kMinimumSamples) {
    std::cerr << "stats_nightly: --n must be at least " << kMinimumSamples << "\n";
    return 2;
  }

  const std::vector<Cell> cells = grid();
  std::vector<Job> work;
  const std::regex filter(only.empty() ? ".*" : only);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Cell cell = cells[i];
    if (!std::regex_search(cell.name(), filter)) continue;
    const std::uint64_t s = cell_seed(seed, i);
    work.push_back({cell.name(), "", cell.delay_seconds(), cell.factor, s,
                    [cell, s](std::size_t count) { return sample(cell, count, s); }});
  }
  const std::size_t grid_jobs = work.size();
  if (with_known_bad) {
    // Each double once, at f = 0.2 (the exponential factory's) and the
    // ordinary delay: the report shows what a rejection looks like.
    const double delay = Cell{.factor = 0.2, .delay = DelayKind::ordinary}.delay_seconds();
    std::size_t i = cells.size();
    for (const KnownBad& bad : known_bad()) {
      const auto s = static_cast<std::uint32_t>(cell_seed(seed, i++));
      work.push_back(
          {"known_bad/" + bad.name, bad.bug, delay, 0.2, s,
           [bad, delay, s](std::size_t count) { return bad.sample(delay, 0.2, count, s); }});
    }
  }

  // The family is the full grid's tests even under --only, so a partial
  // run is never more lenient than the full one.
  const std::size_t family_size = cells.size() * kTestsPerSample;
  const double per_test = per_test_alpha(family_size);
  std::cerr << "stats_nightly: " << grid_jobs << " cells and " << work.size() - grid_jobs
            << " known-bad doubles, n = " << n << " each, " << jobs
            << " threads; family-wise alpha 1e-6 over " << family_size
            << " tests (Holm; Bonferroni share " << per_test << ")\n";

  std::vector<Outcome> outcomes(work.size());
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex progress;
  const Clock::time_point start = Clock::now();
  const auto worker = [&] {
    for (std::size_t i = next++; i < work.size(); i = next++) {
      const Job& job = work[i];
      const Clock::time_point begun = Clock::now();
      JitterSample s = job.sample(n);
      Outcome& o = outcomes[i];
      o.name = job.name;
      o.description = job.description;
      o.delay = job.delay;
      o.factor = job.factor;
      o.seed = job.seed;
      o.range = s.range;
      o.analysis = analyze(std::move(s.u), job.factor);
      o.seconds = seconds_since(begun);
      double smallest = 1.0;
      for (const TestResult& t : o.analysis.tests) smallest = std::min(smallest, t.p_value);
      const std::lock_guard<std::mutex> lock(progress);
      char line[256];
      std::snprintf(line, sizeof line,
                    "[%3zu/%zu] %-40s %5.1f s  range %s  smallest p %.3g  (%.0f s elapsed)\n",
                    ++done, work.size(), job.name.c_str(), o.seconds, o.range.ok() ? "ok" : "FAILS",
                    smallest, seconds_since(start));
      std::cerr << line << std::flush;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1U, jobs); ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();

  // Holm over the whole grid family; the doubles are judged alone, each
  // test at the Bonferroni share.
  std::vector<double> p;
  for (std::size_t i = 0; i < grid_jobs; ++i) {
    for (const TestResult& t : outcomes[i].analysis.tests) p.push_back(t.p_value);
  }
  // Padded with p = 1 for cells left out by --only: Holm's thresholds are
  // then those of the full family.
  p.resize(family_size, 1.0);
  const std::vector<bool> holm = holm_rejections(p, kFamilyAlpha);
  RunReport run;
  run.seed = seed;
  run.n = n;
  run.family_size = family_size;
  run.ks_critical = kolmogorov_critical_value(per_test);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    Outcome& o = outcomes[i];
    for (std::size_t k = 0; k < o.analysis.tests.size(); ++k) {
      o.rejected.push_back(i < grid_jobs ? holm[i * kTestsPerSample + k]
                                         : o.analysis.tests[k].p_value < per_test);
    }
    (i < grid_jobs ? run.cells : run.known_bad).push_back(std::move(o));
  }
  run.seconds = seconds_since(start);
  const std::filesystem::path summary = write_report(report_dir, run);

  for (const Outcome& o : run.cells) {
    if (o.failed()) std::cout << "FAIL " << o.name << "\n";
  }
  for (const Outcome& o : run.known_bad) {
    if (!o.failed()) std::cout << "NOT REJECTED " << o.name << "\n";
  }
  std::cout << (run.passed() ? "PASS" : "FAIL") << ": seed " << seed << ", " << run.seconds
            << " s; report " << summary.string() << "\n";
  std::cerr << "stats_nightly: report in " << std::filesystem::absolute(report_dir).string()
            << "\n";
  return run.passed() ? 0 : 1;
}

}  // namespace

// A bad --only regex or an unwritable --report-dir is the user's to fix: say
// so in one line, not with std::terminate's abort.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "stats_nightly: " << e.what() << "\n";
    return 2;
  }
}
