#include "conformance/cli/port_stats.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "conformance/process/adapter_process.hpp"
#include "conformance/protocol/answer.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/wire.hpp"
#include "stats/battery.hpp"
#include "stats/family.hpp"
#include "stats/grid.hpp"
#include "stats/power.hpp"
#include "stats/progress.hpp"
#include "stats/report.hpp"
#include "stats/runner.hpp"
#include "stats/runs.hpp"
#include "stats/verdict.hpp"

namespace acemq::conformance {
namespace {

namespace stats = acemq::stats;

constexpr int kFailedToTest = 2;

// A cell's sample request up to its count: the cell's policy, and its delay
// (the jittered path) or its attempt (next_delay, whose unjittered delay is
// the same d; `check` proves the port computes it as the core does).
std::string request_prefix(const stats::Cell& cell) {
  const stats::Backoff b = cell.backoff();
  const amqp::RetryPolicy::Options& o = b.options;
  std::string out = R"(,"op":"sample","policy":{"max_attempts":)";
  out += std::to_string(o.max_attempts);
  out += R"(,"initial_delay":)";
  append_number(out, o.initial_delay.count());
  out += R"(,"multiplier":)";
  append_number(out, o.multiplier);
  out += R"(,"max_delay":)";
  append_number(out, o.max_delay.count());
  out += R"(,"jitter_factor":)";
  append_number(out, o.jitter_factor);
  out += "},";
  if (cell.path == stats::Path::jittered) {
    out += R"("delay":)";
    append_number(out, cell.delay_seconds());
  } else {
    out += R"("attempt":)" + std::to_string(b.attempt);
  }
  out += R"(,"count":)";
  return out;
}

// Every draw of the run, in the order the adapter makes them: cell by cell,
// each cell's n in chunks of kMaxSampleCount. A chunk never straddles a
// repeats window (kSegmentSamples is a whole number of chunks).
static_assert(stats::kSegmentSamples % static_cast<std::uint64_t>(kMaxSampleCount) == 0);
struct ChunkPlan {
  std::vector<std::string> prefixes;  // one a cell
  std::uint64_t n = 0;                // draws a cell
  std::uint64_t chunks_per_cell() const {
    const auto chunk = static_cast<std::uint64_t>(kMaxSampleCount);
    return (n + chunk - 1) / chunk;
  }
  std::uint64_t chunks() const { return prefixes.size() * chunks_per_cell(); }
  std::size_t size(std::uint64_t k) const {
    const auto chunk = static_cast<std::uint64_t>(kMaxSampleCount);
    const std::uint64_t offset = (k % chunks_per_cell()) * chunk;
    return static_cast<std::size_t>(std::min(chunk, n - offset));
  }
  std::string request(std::uint64_t k) const {
    return "{\"id\":" + std::to_string(k + 1) + prefixes[k / chunks_per_cell()] +
           std::to_string(size(k)) + "}";
  }
};

// Asks the adapter for the plan's chunks in order, keeping the next request
// in flight while the last answer is read, so the port draws while this
// process parses (the two share the work about evenly for a fast port). The
// first failure is kept, and every later call refuses.
class Sampler {
 public:
  Sampler(AdapterProcess& adapter, std::chrono::milliseconds timeout, const ChunkPlan& plan)
      : adapter_(adapter), timeout_(timeout), plan_(plan) {}

  // Fills `out` with the next chunk's draws; out.size() is the chunk's size.
  bool draw(std::span<double> out) {
    if (!failure_.empty()) return false;
    constexpr std::uint64_t kInFlight = 2;
    while (sent_ < plan_.chunks() && sent_ < received_ + kInFlight) {
      const AdapterProcess::Outcome outcome = adapter_.send(plan_.request(sent_), timeout_);
      if (outcome != AdapterProcess::Outcome::answered) {
        return fail(adapter_.failure(outcome, timeout_), plan_.request(sent_));
      }
      ++sent_;
    }
    const std::uint64_t k = received_++;
    const std::string request = plan_.request(k);
    std::string line;
    const AdapterProcess::Outcome outcome = adapter_.receive(line, timeout_);
    if (outcome != AdapterProcess::Outcome::answered) {
      return fail(adapter_.failure(outcome, timeout_), request);
    }
    const auto id = static_cast<std::int64_t>(k + 1);
    if (read_fast(line, id, out)) return true;
    // Anything else, an error or a form the fast path does not read, is
    // read by the protocol's own reader, which says what is wrong with it.
    std::string why;
    const std::optional<Answer> answer = parse_answer(line, why);
    if (!answer) {
      return fail("wrote a line that is not a protocol answer (" + why + ")", request, line);
    }
    if (!(answer->id.is_number_integer() && answer->id.get<std::int64_t>() == id)) {
      return fail(
          "answered id " + to_line(answer->id) + " to a request with id " + std::to_string(id),
          request, line);
    }
    if (!answer->ok) {
      return fail("answered with an error (does it implement the sample op?): " + answer->error,
                  request);
    }
    if (!answer->is_array || answer->items.size() != out.size()) {
      return fail(
          "answered " +
              (!answer->is_array           ? std::string("a single value")
               : answer->items.size() == 1 ? std::string("1 draw")
                                           : std::to_string(answer->items.size()) + " draws") +
              " to a request for " + std::to_string(out.size()),
          request, line);
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      // A give-up here is wrong arithmetic, which `check` is for; this can
      // only say the answer is unusable.
      if (!answer->items[i]) {
        return fail("answered null (give up) at draw " + std::to_string(i) +
                        ", on a call that must be jittered",
                    request, line);
      }
      out[i] = *answer->items[i];
    }
    return true;
  }

  const std::string& failure() const { return failure_; }

 private:
  // The answer in the form every adapter here writes, {"id":<id>,"ok":true,
  // "result":[<numbers>]}, read with one correct rounding a number and no
  // JSON tree: the tree costs several times what a fast port takes to draw.
  static bool read_fast(std::string_view line, std::int64_t id, std::span<double> out) {
    const std::string head = "{\"id\":" + std::to_string(id) + ",\"ok\":true,\"result\":[";
    if (!line.starts_with(head) || !line.ends_with("]}")) return false;
    std::string_view items = line.substr(head.size(), line.size() - head.size() - 2);
    for (double& x : out) {
      const std::size_t comma = items.find(',');
      const std::optional<double> value = wire_number_text(items.substr(0, comma));
      if (!value) return false;
      x = *value;
      items = comma == std::string_view::npos ? std::string_view() : items.substr(comma + 1);
      if (comma == std::string_view::npos) {
        return &x == &out.back();
      }
    }
    return false;  // more numbers than asked for
  }

  bool fail(const std::string& what, const std::string& request, const std::string& line = "") {
    failure_ = "the adapter " + what + "\n  request: " + request.substr(0, 400);
    if (!line.empty()) failure_ += "\n  answer: " + line.substr(0, 400);
    return false;
  }

  AdapterProcess& adapter_;
  const std::chrono::milliseconds timeout_;
  const ChunkPlan& plan_;
  std::uint64_t sent_ = 0;
  std::uint64_t received_ = 0;
  std::string failure_;
};

// One cell's n draws, the plan's chunks of it, each repeats window of
// kSegmentSamples consecutive calls a segment of the battery.
bool sample_cell(Sampler& sampler, const stats::JobInfo& info, stats::Accumulator& accumulator,
                 stats::Progress& progress, stats::BatteryState& state) {
  std::vector<double> buffer(static_cast<std::size_t>(kMaxSampleCount));
  for (std::uint64_t segment = 0; segment < info.segments(); ++segment) {
    const std::uint64_t start = segment * stats::kSegmentSamples;
    const std::uint64_t size = std::min(stats::kSegmentSamples, info.n - start);
    accumulator.begin(state, segment);
    for (std::uint64_t done = 0; done < size;) {
      const std::span<double> chunk(buffer.data(),
                                    std::min<std::uint64_t>(buffer.size(), size - done));
      if (!sampler.draw(chunk)) return false;
      accumulator.add_jittered(chunk);
      done += chunk.size();
      progress.add_samples(chunk.size());
    }
    accumulator.end();
  }
  return true;
}

std::string plan_text(const PortStatsOptions& o, std::size_t cells) {
  return "n " + std::to_string(o.n) + " a cell" + (o.quick ? " (--quick)" : "") + ", " +
         std::to_string(cells) +
         " cells (jittered and next_delay, f 0.05 0.2 0.5 1, d tiny ordinary huge cap)";
}

}  // namespace

int run_port_stats(const PortStatsOptions& options, std::ostream& out, std::ostream& progress_out) {
  const std::vector<stats::Cell> cells = stats::port_grid();
  const std::size_t family = cells.size() * stats::kTestsPerSample;
  const double per_test = stats::per_test_alpha(family);
  const std::vector<stats::PowerRow> power = stats::power_table(options.n, per_test);

  out << "retry-policy stats: the battery on `" << options.command
      << "`'s own default source, through the sample op\n"
      << "  " << plan_text(options, cells.size()) << "; " << options.n * cells.size() << " draws\n"
      << "  family-wise alpha " << stats::kFamilyAlpha << " over " << family
      << " tests (Holm's step-down; its first step, Bonferroni, is p < " << per_test << ")\n"
      << "  no seed: the draws come from the port's own source, so this run cannot be "
         "replayed\n\n"
      << "Power at this n: each test detects the deviation below with probability " << stats::kPower
      << " in each cell:\n\n"
      << stats::power_table_markdown(power) << "\n";
  // The repeats test is the only one that sees a source with too few bits;
  // say when this n is too small for it to see a 32-bit one.
  for (const stats::PowerRow& row : power) {
    if (row.test == stats::kRepeats && stats::conservative(row) < kLowResolutionBits) {
      out << "WARNING: at n " << options.n << " the repeats test sees a source of up to "
          << stats::conservative(row) << " bits with power " << stats::kPower
          << " a cell, so a 32-bit source may pass; --quick is n " << kPortStatsQuickSamples
          << "\n\n";
    }
  }
  out << std::flush;

  std::string error;
  std::unique_ptr<AdapterProcess> adapter = AdapterProcess::start(options.command, error);
  if (!adapter) {
    out << "ADAPTER FAILED: cannot start `" << options.command << "`: " << error << "\n";
    return kFailedToTest;
  }
  ChunkPlan plan{{}, options.n};
  for (const stats::Cell& cell : cells) plan.prefixes.push_back(request_prefix(cell));
  Sampler sampler(*adapter, options.timeout, plan);
  stats::Progress progress(progress_out, cells.size(), options.n * cells.size(),
                           options.progress_interval);
  stats::Accumulator accumulator;
  std::vector<stats::Outcome> outcomes;
  for (const stats::Cell& cell : cells) {
    const stats::JobInfo info{cell.name(), "",        cell.delay_seconds(), cell.factor,
                              0,           options.n, /*in_family=*/true};
    stats::BatteryState state(info.config());
    const auto begun = std::chrono::steady_clock::now();
    if (!sample_cell(sampler, info, accumulator, progress, state)) {
      out << "ADAPTER FAILED: " << sampler.failure() << "\nFAILED TO TEST: in cell " << info.name
          << " after " << stats::duration_text(progress.elapsed_seconds()) << "\n";
      return kFailedToTest;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    outcomes.push_back(stats::outcome_of(info, state, seconds));
    progress.cell_done(outcomes.back().one_line());
  }
  const std::string ending = adapter->finish(std::chrono::milliseconds(5000));
  if (ending != "exit status 0") {
    out << "ADAPTER FAILED: at the end of its input it ended with " << ending
        << ", not exit status 0\nFAILED TO TEST\n";
    return kFailedToTest;
  }

  stats::RunReport run = stats::judge(std::move(outcomes), family);
  run.unseeded_source = "`" + options.command + "`, through the sample op";
  run.plan = plan_text(options, cells.size());
  const double elapsed = progress.elapsed_seconds();
  const std::filesystem::path summary = stats::write_report(options.report_dir, run);
  for (const stats::Outcome& o : run.cells) {
    if (!o.failed()) continue;
    std::string names;
    for (const std::string& name : o.rejected_names()) names += (names.empty() ? "" : ", ") + name;
    out << "FAIL " << o.job.name << ": rejected by " << names << "\n";
  }
  const auto failing = static_cast<std::size_t>(std::count_if(
      run.cells.begin(), run.cells.end(), [](const stats::Outcome& o) { return o.failed(); }));
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3g", static_cast<double>(options.n * cells.size()) / elapsed);
  out << (run.passed() ? "PASS" : "FAIL") << ": " << cells.size() - failing << " of "
      << cells.size() << " cells pass at n " << options.n << " a cell, family-wise alpha "
      << stats::kFamilyAlpha << "; " << stats::duration_text(elapsed) << ", " << rate
      << " draws/s; the port's own source, not replayable; report " << summary.string() << "\n";
  return run.passed() ? 0 : 1;
}

}  // namespace acemq::conformance
