// stats_nightly: the large statistical run (ctest label `nightly`), whole or
// in shards.
//
// A fresh seed each night, printed first so that any failure can be replayed
// (STATS_SEED or --seed); kNightlySamples per grid cell, streamed through the
// battery in segments; Holm's correction holding the family-wise false-alarm
// rate at 1e-6; progress on stderr; a report directory with JSON, Markdown
// and pictures. Exits 1 when a cell fails or a known-bad double is not
// rejected, 2 on a usage error.
//
// `--shard K/N` draws the K-th of N equal shares of the night's segments and
// writes their states to a file instead of a report; `--merge` reads the N
// files and writes the verdict and report one process would have.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "stats/battery/family.hpp"
#include "stats/battery/jobs.hpp"
#include "stats/battery/progress.hpp"
#include "stats/battery/runner.hpp"
#include "stats/battery/runs.hpp"
#include "stats/battery/verdict.hpp"
#include "stats/nightly/night.hpp"
#include "stats/nightly/state_file.hpp"
#include "stats/report/report.hpp"

#ifndef STATS_DEFAULT_REPORT_DIR
#define STATS_DEFAULT_REPORT_DIR "stats-report"
#endif

namespace {

using namespace acemq::stats;

std::uint64_t fresh_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32U) | device();
}

struct ShardId {
  std::size_t k = 1;
  std::size_t n = 1;
};

// "K/N" with 1 <= K <= N.
std::optional<ShardId> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  try {
    std::size_t used_k = 0;
    std::size_t used_n = 0;
    const unsigned long k = std::stoul(text.substr(0, slash), &used_k);
    const unsigned long n = std::stoul(text.substr(slash + 1), &used_n);
    if (used_k != slash || used_n != text.size() - slash - 1 || k < 1 || k > n) return std::nullopt;
    return ShardId{k, n};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The verdict's last words, on stdout, and the exit status.
int finish(const RunReport& run, const std::filesystem::path& report_dir) {
  const std::filesystem::path summary = write_report(report_dir, run);
  for (const Outcome& o : run.cells) {
    if (o.failed()) std::cout << "FAIL " << o.job.name << "\n";
  }
  for (const Outcome& o : run.known_bad) {
    if (!o.failed()) std::cout << "NOT REJECTED " << o.job.name << "\n";
  }
  std::cout << (run.passed() ? "PASS" : "FAIL") << ": seed " << run.seed << ", " << run.cells.size()
            << " cells at n " << run.n << "; report " << summary.string() << "\n";
  std::cerr << "stats_nightly: report in " << std::filesystem::absolute(report_dir).string()
            << "\n";
  return run.passed() ? 0 : 1;
}

// Merges a night's shards; `seed`, when given, must be the night's.
int merge(const std::vector<std::filesystem::path>& paths, const std::filesystem::path& report_dir,
          std::optional<std::uint64_t> seed) {
  const std::vector<std::filesystem::path> files = state_files(paths);
  std::cerr << "stats_nightly: merging " << files.size() << " state files\n";
  std::vector<Outcome> outcomes;
  const StateFileHeader night = merge_shards(
      files, [&](std::size_t job, const JobInfo& info, BatteryState&& state, double seconds) {
        if (outcomes.size() <= job) outcomes.resize(job + 1);
        outcomes[job] = outcome_of(info, state, seconds);
        std::cerr << "  merged " << outcomes[job].one_line() << "\n";
      });
  if (seed && *seed != night.night_seed) {
    std::cerr << "stats_nightly: the state files are of the night of seed " << night.night_seed
              << ", not " << *seed << " (--seed or STATS_SEED)\n";
    return 2;
  }
  RunReport run = judge(std::move(outcomes), night.family_size);
  run.seed = night.night_seed;
  run.plan = night.plan;
  run.replay = night.replay;
  run.shards = night.shards;
  std::cout << "seed " << run.seed << " (merged from " << night.shards << " shards)\n";
  return finish(run, report_dir);
}

int night_main(int argc, char** argv) {
  CLI::App app{"Nightly statistical test of jitter: uniform, symmetric, independent"};
  NightPlan plan;
  std::string report_dir = STATS_DEFAULT_REPORT_DIR;
  unsigned threads = 2;
  std::string shard_text;
  std::string state_file;
  std::vector<std::string> merge_paths;
  double interval = 30.0;
  app.add_option("--seed", plan.seed, "replay this night's seed (default: fresh)")
      ->envname("STATS_SEED");
  app.add_option("--n", plan.n, "samples per cell")->envname("STATS_N")->capture_default_str();
  app.add_option("--report-dir", report_dir, "where the report goes")
      ->envname("STATS_REPORT_DIR")
      ->capture_default_str();
  app.add_option("--jobs", threads, "worker threads")->envname("STATS_JOBS")->capture_default_str();
  app.add_option("--only", plan.only, "run only the cells whose name matches this regex");
  app.add_flag("!--no-known-bad", plan.with_known_bad, "skip the known-bad doubles");
  app.add_option("--shard", shard_text,
                 "draw shard K of N (K/N) and write its state file instead of a report")
      ->envname("STATS_SHARD");
  app.add_option("--state-file", state_file,
                 "where a shard's state goes (default: <report-dir>/shard-K-of-N.state)")
      ->envname("STATS_STATE_FILE");
  app.add_option("--merge", merge_paths,
                 "merge these shard state files (or every *.state in these directories) into "
                 "the night's verdict and report")
      ->envname("STATS_MERGE");
  app.add_option("--progress-every", interval, "seconds between progress lines")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const bool replay = app.count("--seed") > 0 || std::getenv("STATS_SEED") != nullptr;
  if (!merge_paths.empty()) {
    // The files say which night they are; an option that would draw another
    // is a mistake on the command line (the environment may hold the
    // shards' own settings, which the merge ignores).
    for (const std::string option : {"--n", "--only", "--no-known-bad", "--shard"}) {
      for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == option || arg.rfind(option + "=", 0) == 0) {
          std::cerr << "stats_nightly: --merge takes the night from its files; " << option
                    << " does not apply\n";
          return 2;
        }
      }
    }
    std::vector<std::filesystem::path> paths(merge_paths.begin(), merge_paths.end());
    return merge(paths, report_dir,
                 replay ? std::optional<std::uint64_t>(plan.seed) : std::nullopt);
  }

  std::optional<ShardId> shard_id;
  if (!shard_text.empty()) {
    shard_id = parse_shard(shard_text);
    if (!shard_id) {
      std::cerr << "stats_nightly: --shard must be K/N with 1 <= K <= N, got '" << shard_text
                << "'\n";
      return 2;
    }
    if (!replay) {
      std::cerr << "stats_nightly: --shard " << shard_text
                << " needs the night's seed (--seed or STATS_SEED), the same for all "
                << shard_id->n << " shards\n";
      return 2;
    }
  }
  if (plan.n < kMinimumSamples || plan.n > kMaxSamples) {
    std::cerr << "stats_nightly: --n must be in [" << kMinimumSamples << ", " << kMaxSamples
              << "], got " << plan.n << "\n";
    return 2;
  }
  if (!replay) plan.seed = fresh_seed();
  const std::string replay_hint =
      "stats_nightly " + plan.arguments() + (shard_id ? " --shard " + shard_text : std::string());
  std::cerr << "stats_nightly: seed " << plan.seed << (replay ? " (replayed)" : " (fresh)")
            << "; replay with " << replay_hint << "\n";
  std::cout << "seed " << plan.seed << "\n" << std::flush;

  const std::vector<Job> all_jobs = jobs(plan);
  const std::vector<Slice> slices =
      shard_id ? shard(all_jobs, shard_id->k, shard_id->n) : whole(all_jobs);
  const std::uint64_t samples = samples_in(all_jobs, slices);
  const std::size_t family = family_size();
  std::cerr << "stats_nightly: " << plan.describe() << "; " << slices.size() << " cells, "
            << samples << " samples on " << threads << " threads; family-wise alpha 1e-6 over "
            << family << " tests (Holm; Bonferroni share " << per_test_alpha(family) << ")\n";
  Progress progress(std::cerr, slices.size(), samples, interval);

  if (shard_id) {
    std::cerr << "stats_nightly: shard " << shard_text << " of the night of seed " << plan.seed
              << ": each segment draws from a seed derived from the night's, its cell's index "
                 "and its own, so the shards of any N merge into the one-process night\n";
    const std::filesystem::path path =
        state_file.empty()
            ? std::filesystem::path(report_dir) / ("shard-" + std::to_string(shard_id->k) + "-of-" +
                                                   std::to_string(shard_id->n) + ".state")
            : std::filesystem::path(state_file);
    StateFileHeader header{plan.seed, plan.describe(), plan.arguments(), family,
                           {},        shard_id->k,     shard_id->n};
    for (const Job& job : all_jobs) header.jobs.push_back(job.info);
    StateFileWriter writer(path, header);
    run(all_jobs, slices, threads, progress, [&](SliceResult&& r) {
      writer.write(r);
      const JobInfo& info = all_jobs[r.slice.job].info;
      progress.cell_done(info.name + " segments " + std::to_string(r.slice.begin) + ".." +
                         std::to_string(r.slice.end) + " of " + std::to_string(info.segments()));
    });
    writer.finish();
    std::cout << "shard " << shard_text << ": seed " << plan.seed << ", state in " << path.string()
              << "; merge the " << shard_id->n << " files with stats_nightly --merge <files>\n";
    return 0;
  }

  std::vector<Outcome> outcomes(all_jobs.size());
  run(all_jobs, slices, threads, progress, [&](SliceResult&& r) {
    Outcome& o = outcomes[r.slice.job];
    o = outcome_of(all_jobs[r.slice.job].info, r.state, r.seconds);
    progress.cell_done(o.one_line());
  });
  RunReport report = judge(std::move(outcomes), family);
  report.seed = plan.seed;
  report.plan = plan.describe();
  report.replay = plan.arguments();
  return finish(report, report_dir);
}

}  // namespace

// A bad --only regex, an unwritable --report-dir or a damaged state file is
// the user's to fix: say so in one line, not with std::terminate's abort.
int main(int argc, char** argv) {
  try {
    return night_main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "stats_nightly: " << e.what() << "\n";
    return 2;
  }
}
