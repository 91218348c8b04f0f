// Shards that merge: a night drawn in N shards, written to state files and
// merged, gives bit for bit the states, and so the verdict and the report,
// of the same night drawn in one process; and the merge refuses files that
// are not exactly one night's N shards.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "acemq/model/bits.hpp"
#include "stats/battery/jobs.hpp"
#include "stats/battery/runner.hpp"
#include "stats/battery/verdict.hpp"
#include "stats/nightly/night.hpp"
#include "stats/nightly/state_file.hpp"
#include "stats/report/report.hpp"

namespace acemq::stats {
namespace {

namespace fs = std::filesystem;

// A temporary directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() /
             (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
              std::to_string(reinterpret_cast<std::uintptr_t>(this)))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// Four cells of two segments each (the second one short), and the doubles
// at a small n: enough for the shards to cut cells in the middle.
NightPlan small_night() {
  NightPlan plan;
  plan.seed = 20240012;
  plan.n = kSegmentSamples + 12345;
  plan.known_bad_n = 20000;
  plan.only = "^jittered/(ruby|default)/f0\\.2/(ordinary|cap)$";
  return plan;
}

std::vector<BatteryState> one_process(const std::vector<Job>& jobs) {
  std::vector<BatteryState> states(jobs.size());
  std::ostringstream quiet;
  Progress progress(quiet, jobs.size(), 0, 1e9);
  run(jobs, whole(jobs), 2, progress,
      [&](SliceResult&& r) { states[r.slice.job] = std::move(r.state); });
  return states;
}

std::vector<fs::path> write_shards(const NightPlan& plan, const std::vector<Job>& jobs,
                                   std::size_t shards, const fs::path& dir) {
  std::vector<fs::path> files;
  for (std::size_t k = 1; k <= shards; ++k) {
    StateFileHeader header{plan.seed, plan.describe(), plan.arguments(), family_size(), {},
                           k,         shards};
    for (const Job& job : jobs) header.jobs.push_back(job.info);
    files.push_back(dir / ("shard-" + std::to_string(k) + ".state"));
    StateFileWriter writer(files.back(), header);
    std::ostringstream quiet;
    Progress progress(quiet, jobs.size(), 0, 1e9);
    run(jobs, shard(jobs, k, shards), 1, progress, [&](SliceResult&& r) { writer.write(r); });
    writer.finish();
  }
  return files;
}

RunReport report_of(const NightPlan& plan, const std::vector<Job>& jobs,
                    const std::vector<BatteryState>& states) {
  std::vector<Outcome> outcomes;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    outcomes.push_back(outcome_of(jobs[j].info, states[j], 0.0));
  }
  RunReport run = judge(std::move(outcomes), family_size());
  run.seed = plan.seed;
  run.plan = plan.describe();
  run.replay = plan.arguments();
  return run;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// results.json without what depends on how the night was cut: the seconds
// and the number of shards.
nlohmann::json comparable(const fs::path& results) {
  nlohmann::json json = nlohmann::json::parse(read(results));
  json.erase("seconds");
  json.erase("shards");
  for (const char* list : {"cells", "known_bad"}) {
    for (nlohmann::json& o : json[list]) o.erase("seconds");
  }
  return json;
}

TEST(Shards, MergedShardsGiveTheOneProcessVerdictAndReport) {
  const NightPlan plan = small_night();
  const std::vector<Job> jobs = stats::jobs(plan);
  const std::vector<KnownBad> all_doubles = known_bad();
  const auto doubles =
      static_cast<std::size_t>(std::count_if(all_doubles.begin(), all_doubles.end(), battery_sees));
  ASSERT_EQ(jobs.size(), 4U + doubles);
  const std::vector<BatteryState> single = one_process(jobs);

  TempDir dir("acemq-stats-shards");
  const std::vector<fs::path> files = write_shards(plan, jobs, 4, dir.path / "shards");
  std::vector<BatteryState> merged(jobs.size());
  const StateFileHeader night =
      merge_shards(files, [&](std::size_t job, const JobInfo& info, BatteryState&& s, double) {
        EXPECT_EQ(info, jobs[job].info);
        merged[job] = std::move(s);
      });
  EXPECT_EQ(night.shards, 4U);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    EXPECT_TRUE(merged[j] == single[j]) << jobs[j].info.name;
  }

  const RunReport one = report_of(plan, jobs, single);
  const RunReport many = report_of(plan, jobs, merged);
  EXPECT_EQ(one.passed(), many.passed());
  ASSERT_EQ(one.cells.size(), many.cells.size());
  for (std::size_t i = 0; i < one.cells.size(); ++i) {
    EXPECT_EQ(one.cells[i].rejected, many.cells[i].rejected);
    for (std::size_t t = 0; t < kTestsPerSample; ++t) {
      EXPECT_TRUE(model::same_bits(one.cells[i].analysis.tests[t].p_value,
                                   many.cells[i].analysis.tests[t].p_value));
    }
  }
  write_report(dir.path / "one", one);
  RunReport many_shards = many;
  many_shards.shards = 4;
  write_report(dir.path / "many", many_shards);
  EXPECT_EQ(comparable(dir.path / "one" / "results.json"),
            comparable(dir.path / "many" / "results.json"));
  EXPECT_EQ(read(dir.path / "one" / "svg" / "jittered_ruby_f0.2_cap-ecdf.svg"),
            read(dir.path / "many" / "svg" / "jittered_ruby_f0.2_cap-ecdf.svg"));
  std::cout << "4 cells of " << plan.n << " and " << doubles
            << " doubles: the 4 merged shards match one process; verdict "
            << (one.passed() ? "PASS" : "FAIL") << "\n";
}

TEST(Shards, EverySegmentIsInExactlyOneShard) {
  NightPlan plan = small_night();
  const std::vector<Job> jobs = stats::jobs(plan);
  std::uint64_t segments = 0;
  for (const Job& job : jobs) segments += job.info.segments();
  for (std::size_t shards = 1; shards <= segments + 3; ++shards) {
    std::vector<std::vector<int>> drawn(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) drawn[j].assign(jobs[j].info.segments(), 0);
    std::uint64_t samples = 0;
    for (std::size_t k = 1; k <= shards; ++k) {
      const std::vector<Slice> slices = shard(jobs, k, shards);
      samples += samples_in(jobs, slices);
      for (const Slice& s : slices) {
        for (std::uint64_t g = s.begin; g < s.end; ++g) ++drawn[s.job][g];
      }
    }
    for (const std::vector<int>& job : drawn) {
      EXPECT_TRUE(std::all_of(job.begin(), job.end(), [](int c) { return c == 1; })) << shards;
    }
    EXPECT_EQ(samples, samples_in(jobs, whole(jobs))) << shards;
  }
}

class RefusedMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    plan_.seed = 7;
    plan_.n = 3 * kMinimumSamples;
    plan_.with_known_bad = false;
    plan_.only = "^jittered/ruby/f0\\.5/(tiny|huge)$";
    jobs_ = stats::jobs(plan_);
    files_ = write_shards(plan_, jobs_, 2, dir_.path);
  }

  std::string refusal(const std::vector<fs::path>& files) {
    try {
      merge_shards(files, [](std::size_t, const JobInfo&, BatteryState&&, double) {});
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "accepted";
  }

  TempDir dir_{"acemq-stats-refused"};
  NightPlan plan_;
  std::vector<Job> jobs_;
  std::vector<fs::path> files_;
};

TEST_F(RefusedMerge, TheTwoShardsMerge) { EXPECT_EQ(refusal(files_), "accepted"); }

TEST_F(RefusedMerge, AMissingShard) {
  EXPECT_NE(refusal({files_[0]}).find("each of 1..2 must be there once"), std::string::npos);
}

TEST_F(RefusedMerge, AShardTwice) {
  EXPECT_NE(refusal({files_[0], files_[0]}).find("shards 1, 1 of 2"), std::string::npos);
}

TEST_F(RefusedMerge, AShardOfAnotherNight) {
  NightPlan other = plan_;
  other.seed = 8;
  const std::vector<fs::path> theirs = write_shards(other, stats::jobs(other), 2, dir_.path / "b");
  EXPECT_NE(refusal({files_[0], theirs[1]}).find("belongs to another night"), std::string::npos);
}

TEST_F(RefusedMerge, AFileCutShort) {
  const std::string bytes = read(files_[1]);
  std::ofstream(files_[1], std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  EXPECT_NE(refusal(files_).find("cut short"), std::string::npos);
}

TEST_F(RefusedMerge, AChangedCount) {
  std::string bytes = read(files_[1]);
  bytes[bytes.size() - 30] = static_cast<char>(bytes[bytes.size() - 30] ^ 1);
  std::ofstream(files_[1], std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_NE(refusal(files_).find("checksum mismatch"), std::string::npos);
}

TEST_F(RefusedMerge, NotAStateFile) {
  std::ofstream(files_[1], std::ios::binary | std::ios::trunc) << "{\"seed\": 7}\n";
  EXPECT_NE(refusal(files_).find("not a stats state file"), std::string::npos);
}

}  // namespace
}  // namespace acemq::stats
