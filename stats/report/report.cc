#include "stats/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "stats/battery/family.hpp"
#include "stats/battery/number_text.hpp"
#include "stats/report/svg.hpp"

namespace acemq::stats {
namespace {

std::string p_text(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", p);
  return buffer;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// JSON has no NaN or infinity; such a statistic is written as its text.
nlohmann::json json_number(double x) {
  if (std::isfinite(x)) return x;
  return number_text(x);
}

// The first delays outside, exact, each with its place in the cell's calls.
nlohmann::json shown_outside_json(const RangeCheck& range) {
  nlohmann::json shown = nlohmann::json::array();
  for (std::size_t i = 0; i < range.shown_count(); ++i) {
    shown.push_back({{"draw", range.shown[i].draw}, {"delay", number_text(range.shown[i].value)}});
  }
  return shown;
}

nlohmann::json first_values_json(const std::vector<double>& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const double x : values) out.push_back(number_text(x));
  return out;
}

// Why the port's time unit cannot hold the cell, or null.
nlohmann::json unrepresentable_json(Unrepresentable why) {
  switch (why) {
    case Unrepresentable::below_unit: return "below_unit";
    case Unrepresentable::beyond_long: return "beyond_long";
    case Unrepresentable::no: break;
  }
  return nullptr;
}

nlohmann::json outcome_json(const Outcome& o, bool seeded) {
  nlohmann::json tests = nlohmann::json::array();
  for (std::size_t i = 0; i < o.analysis.tests.size(); ++i) {
    const TestResult& t = o.analysis.tests[i];
    tests.push_back({{"name", t.name},
                     {"statistic", json_number(t.statistic)},
                     {"p_value", json_number(t.p_value)},
                     {"rejected", static_cast<bool>(o.rejected.at(i))}});
  }
  return {{"name", o.job.name},
          {"description", o.job.description},
          {"delay", number_text(o.job.delay)},
          {"jitter_factor", number_text(o.job.factor)},
          {"seed", seeded ? nlohmann::json(o.job.seed) : nlohmann::json()},
          {"n", o.analysis.n},
          {"histogram_bins_a_side",
           std::size_t{1} << static_cast<unsigned>(o.analysis.picture.histogram_bits)},
          {"range",
           {{"lo", number_text(o.range.lo)},
            {"hi", number_text(o.range.hi)},
            {"min", number_text(o.range.min)},
            {"max", number_text(o.range.max)},
            {"outside", o.range.outside},
            {"first_outside", shown_outside_json(o.range)},
            {"ok", o.range.ok()}}},
          {"first_values", first_values_json(o.first_values)},
          {"unrepresentable", unrepresentable_json(o.unrepresentable)},
          {"ks_d", json_number(o.analysis.picture.ks_d)},
          {"tests", tests},
          {"failed", o.failed()},
          {"seconds", o.seconds},
          {"ecdf_svg", o.ecdf_svg},
          {"histogram_svg", o.histogram_svg}};
}

nlohmann::json resolution_json(const ResolutionOutcome& o) {
  const ResolutionResult& r = o.result;
  const ResolutionState& s = o.state;
  return {{"verdict", o.verdict},
          {"rejected", o.rejected},
          {"estimate", r.estimate},
          {"bits", json_number(r.bits)},
          {"exact", r.exact},
          {"min_bits", r.min_bits},
          {"contract_bits", kContractBits},
          {"dyadic_bits", r.dyadic_bits},
          {"n", s.n()},
          {"measured", r.measured},
          {"windows", s.windows},
          {"distinct_pairs", s.distinct_pairs},
          {"smallest_gap", number_text(r.smallest_gap)},
          {"spacing_certain_bits", json_number(r.certain_bits)},
          {"repeats", s.repeats},
          {"repeats_expected", json_number(r.repeats_expected)},
          {"most_distinct", s.most_distinct},
          {"stuck", r.stuck},
          {"decimal_unit", r.decimal_unit < 0 ? nlohmann::json(nullptr)
                                              : nlohmann::json(decimal_unit_name(r.decimal_unit))},
          {"dyadic_p_value", json_number(r.dyadic_p)},
          {"spacing_p_value", json_number(r.spacing_p)},
          {"repeats_p_value", json_number(r.repeats_p)},
          {"p_value", json_number(r.p_value)},
          {"contract_p_value", json_number(r.contract_p_value)},
          {"range",
           {{"lo", number_text(s.range.lo)},
            {"hi", number_text(s.range.hi)},
            {"outside", s.range.outside},
            {"first_outside", shown_outside_json(s.range)},
            {"ok", s.range.ok()}}},
          {"seconds", o.seconds}};
}

std::string resolution_markdown(const ResolutionOutcome& o) {
  const ResolutionResult& r = o.result;
  const ResolutionState& s = o.state;
  std::string md = "## Resolution of the source\n\n**" + std::string(o.rejected ? "FAIL" : "pass") +
                   "**: " + o.verdict + ".\n\n";
  md +=
      "The contract's rule (docs/contract.md §5): a port's default source gives draws of at "
      "least " +
      std::to_string(kContractBits) + " bits. " + std::to_string(s.n()) +
      " draws of the exact cell (delay 1, jitter factor 1, where the delay is 2r bit for bit), " +
      std::to_string(s.windows) + " window(s):\n\n";
  md += "- Estimate: " + r.estimate + ".\n";
  md += "- Binary grid: every draw a multiple of 2^-" + std::to_string(r.dyadic_bits) +
        (r.dyadic_bits > kContractBits ? " (finer than the contract's 2^-53: on no binary grid)"
                                       : "") +
        "; a source of " + std::to_string(r.min_bits) + " bits or more on a binary grid shows " +
        std::to_string(r.min_bits) + " or more.\n";
  md +=
      "- Spacing: the smallest gap between two distinct draws of a window is 2^" +
      (std::isfinite(r.smallest_gap) ? number_text(std::round(std::log2(r.smallest_gap) * 10) / 10)
                                     : std::string("-inf")) +
      " over " + std::to_string(s.distinct_pairs) +
      " ordered pairs of distinct draws; a source of " + std::to_string(r.min_bits) +
      " bits leaves a gap that wide with probability at most " + p_text(r.spacing_p) +
      ". Every grid coarser than 2^-" + number_text(std::floor(r.certain_bits * 10) / 10) +
      ", binary or not, is rejected with certainty at this n.\n";
  md += "- Repeats: " + std::to_string(s.repeats) +
        " draws equal an earlier draw of their window (at most " + std::to_string(s.most_distinct) +
        " distinct a window); a source of " + std::to_string(r.min_bits) + " bits repeats " +
        number_text(r.repeats_expected) + " on average, p-value " + p_text(r.repeats_p) + ".\n";
  if (r.decimal_unit >= 0) {
    md += "- Time unit: every delay is a whole number of " + decimal_unit_name(r.decimal_unit) +
          ", and the draws are that far apart: the port converts delays to that unit.\n";
  }
  md += "- p-value " + p_text(r.p_value) + " at " + std::to_string(r.min_bits) +
        " bits (Bonferroni over the grid, spacing and repeats tests)" +
        (r.min_bits != kContractBits ? ", " + p_text(r.contract_p_value) + " at the contract's " +
                                           std::to_string(kContractBits)
                                     : std::string()) +
        ".\n";
  md += "- Range of the exact cell's delays: " + markdown_cell(outside_text(s.range)) + ".\n\n";
  return md;
}

// The smallest p-value and its test, for the summary's one-line view.
std::string weakest(const Outcome& o) {
  const auto it = std::min_element(
      o.analysis.tests.begin(), o.analysis.tests.end(),
      [](const TestResult& a, const TestResult& b) { return a.p_value < b.p_value; });
  return p_text(it->p_value) + " (" + it->name + ")";
}

// The range column: the delays outside, or, for a rejected cell in range,
// its first delays, so that every rejected cell shows some of its values.
std::string range_text(const Outcome& o) {
  if (!o.range.ok() || !o.failed() || o.first_values.empty()) return outside_text(o.range);
  return "ok; first delays " + values_text(o.first_values);
}

std::string rejected_list(const Outcome& o) {
  std::string out;
  for (const std::string& name : o.rejected_names()) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

void draw(const std::filesystem::path& dir, Outcome& o, const RunReport& run,
          const std::string& verdict) {
  const std::string drawn = run.unseeded_source.empty() ? ", seed " + std::to_string(o.job.seed)
                                                        : ", the port's own source";
  const PictureCaption caption{
      o.job.name, "d = " + number_text(o.job.delay) + ", f = " + number_text(o.job.factor) +
                      ", n = " + std::to_string(o.analysis.n) + drawn + ": " + verdict};
  o.ecdf_svg = "svg/" + file_stem(o.job.name) + "-ecdf.svg";
  o.histogram_svg = "svg/" + file_stem(o.job.name) + "-histogram.svg";
  write_file(dir / o.ecdf_svg, ecdf_svg(caption, o.analysis, run.ks_critical));
  write_file(dir / o.histogram_svg, histogram_svg(caption, o.analysis));
}

}  // namespace

std::string file_stem(const std::string& name) {
  std::string out = name;
  for (char& c : out) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
    if (!keep) c = '_';
  }
  return out;
}

nlohmann::json fleet_json(const FleetOutcome& f) {
  const FleetResult& r = f.result;
  return {{"processes", r.processes},
          {"draws_each", r.draws},
          {"failed", f.failed()},
          {"outside", f.outside},
          {"tests",
           {{{"name", r.shared.name},
             {"statistic", json_number(r.shared.statistic)},
             {"p_value", json_number(r.shared.p_value)},
             {"rejected", f.shared_rejected},
             {"finding", r.shared_words}},
            {{"name", r.clustered.name},
             {"statistic", json_number(r.clustered.statistic)},
             {"p_value", json_number(r.clustered.p_value)},
             {"rejected", f.clustered_rejected},
             {"finding", r.clustered_words}}}},
          {"svg", "svg/fleet.svg"},
          {"seconds", f.seconds}};
}

std::string fleet_markdown(const FleetOutcome& f) {
  const FleetResult& r = f.result;
  std::string md = "## The fleet\n\n**" + std::string(f.failed() ? "FAIL" : "pass") +
                   "**: " + std::to_string(r.processes) + " processes started at once, the first " +
                   std::to_string(r.draws) +
                   " draws of each (the exact cell, r = delay / 2). The rule (docs/contract.md "
                   "§5): each process draws its own stream, seeded from the operating system's "
                   "entropy.\n\n";
  md += "- " + std::string(r.shared.name) + (f.shared_rejected ? " (REJECTED)" : "") + ": " +
        r.shared_words + "; p " + p_text(r.shared.p_value) + ".\n";
  md += "- " + std::string(r.clustered.name) + (f.clustered_rejected ? " (REJECTED)" : "") + ": " +
        r.clustered_words + "; p " + p_text(r.clustered.p_value) + ".\n";
  if (f.outside > 0) {
    md += "- " + std::to_string(f.outside) + " delays outside [0, 2): " + f.outside_shown + ".\n";
  }
  md += "\n![each process's first draws](svg/fleet.svg)\n\n";
  return md;
}

std::filesystem::path write_report(const std::filesystem::path& dir, const RunReport& run_in) {
  RunReport run = run_in;
  std::filesystem::create_directories(dir / "svg");
  for (Outcome& o : run.cells) draw(dir, o, run, o.failed() ? "FAILS" : "passes");
  for (Outcome& o : run.known_bad) {
    draw(dir, o, run, o.failed() ? "rejected, as it must be" : "NOT REJECTED");
  }

  const double per_test = per_test_alpha(run.family_size);
  nlohmann::json power = nlohmann::json::array();
  for (const PowerRow& row : run.power) {
    power.push_back({{"test", row.test},
                     {"alpha", row.alpha},
                     {"n", row.n},
                     {"power", kPower},
                     {"smallest_deviation", row.smallest},
                     {"measured_as", row.measure}});
  }
  const bool seeded = run.unseeded_source.empty();
  nlohmann::json json = {
      {"seed", seeded ? nlohmann::json(run.seed) : nlohmann::json()},
      {"replay", seeded ? nlohmann::json("stats_nightly " + run.replay) : nlohmann::json()},
      {"unseeded_source", run.unseeded_source},
      {"plan", run.plan},
      {"shards", run.shards},
      {"n_per_cell", run.n},
      {"family_alpha", kFamilyAlpha},
      {"correction", "Holm step-down over every test of every grid cell"},
      {"family_size", run.family_size},
      {"bonferroni_per_test_alpha", per_test},
      {"ks_critical_sqrt_n_d", run.ks_critical},
      {"outcome", run_end_name(run.end())},
      {"exit_code", exit_code(run.end())},
      {"seconds", run.seconds},
      {"passed", run.passed()},
      {"warnings", run.warnings},
      {"power", power},
      {"cells", nlohmann::json::array()},
      {"known_bad", nlohmann::json::array()}};
  for (const Outcome& o : run.cells) json["cells"].push_back(outcome_json(o, seeded));
  for (const Outcome& o : run.known_bad) json["known_bad"].push_back(outcome_json(o, seeded));
  if (run.wall_seconds) json["wall_seconds"] = *run.wall_seconds;
  if (run.stopped) {
    json["stopped"] = {{"cell", run.stopped->cell},
                       {"cells_not_drawn_after_it", run.stopped->cells_after},
                       {"adapter_error", run.stopped->adapter_error}};
  }
  if (run.resolution) json["resolution"] = resolution_json(*run.resolution);
  if (run.fleet) {
    json["fleet"] = fleet_json(*run.fleet);
    write_file(
        dir / "svg" / "fleet.svg",
        fleet_svg({"The fleet: each process's first draws",
                   std::to_string(run.fleet->result.processes) + " processes started at once; " +
                       (run.fleet->failed() ? "they do not draw their own streams"
                                            : "each draws its own stream")},
                  run.fleet->draws, run.fleet->result.arc_draw));
  }
  write_file(dir / "results.json", json.dump(2) + "\n");

  const std::size_t failing = static_cast<std::size_t>(std::count_if(
      run.cells.begin(), run.cells.end(), [](const Outcome& o) { return o.failed(); }));
  const std::string seed = std::to_string(run.seed);
  std::string md;
  md += seeded ? "# Jitter statistics: nightly report\n\n"
               : "# Jitter statistics: a port's own source\n\n";
  md += "**" + std::string(verdict_word(run.end())) +
        "**: " + std::to_string(run.cells.size() - failing) + " of " +
        std::to_string(run.cells.size()) + " cells pass";
  if (run.resolution) md += "; " + run.resolution->verdict;
  if (run.fleet) {
    md += run.fleet->failed() ? "; the fleet shares its streams" : "; the fleet draws apart";
  }
  if (!run.known_bad.empty()) {
    const auto caught = std::count_if(run.known_bad.begin(), run.known_bad.end(),
                                      [](const Outcome& o) { return o.failed(); });
    md += ", " + std::to_string(caught) + " of " + std::to_string(run.known_bad.size()) +
          " known-bad doubles rejected";
  }
  md += ".\n\n";
  if (seeded) {
    md += "- Seed: `" + seed + "`. Replay: `stats_nightly " + run.replay +
          "` (one process), or the same with `--shard K/N` on each of N machines and then "
          "`stats_nightly --merge` (stats/README.md, \"Shards\").\n";
  } else {
    md += "- Source: " + run.unseeded_source +
          ". It is the port's own default source, which no seed reaches, so this run cannot "
          "be replayed: run it again to draw afresh.\n";
  }
  if (run.stopped) {
    md += "- **Not all tested**: " + markdown_cell(stop_text(*run.stopped)) +
          ". The cells drawn before it are judged below.\n";
  }
  for (const std::string& warning : run.warnings) md += "- **Warning**: " + warning + "\n";
  md += "- Plan: " + run.plan + "; " + std::to_string(run.family_size) + " tests in the family";
  md += seeded ? "; drawn by " + std::to_string(run.shards) +
                     (run.shards == 1 ? " process" : " shards, merged") + ".\n"
               : ".\n";
  md +=
      "- Family-wise false-alarm rate <= 1e-6, Holm's step-down correction (the first step "
      "is Bonferroni: p < " +
      p_text(per_test) + ").";
  if (!run.known_bad.empty()) md += " Known-bad doubles are outside the family.";
  md += "\n";
  md +=
      "- KS acceptance band: sqrt(n)·D <= " + number_text(std::round(run.ks_critical * 1e4) / 1e4) +
      ".\n";
  md += "- The cells took " + std::to_string(static_cast<long long>(std::lround(run.seconds))) +
        " s, each cell's wall time summed over cells";
  if (run.wall_seconds) {
    md += "; the run " + std::to_string(static_cast<long long>(std::lround(*run.wall_seconds))) +
          " s from start to verdict";
  }
  md += ".\n\n";
  md +=
      "u = (jittered / d − 1) / f must be Uniform[−1, 1) and independent; every picture "
      "plots u. The ECDF picture's lower panel shows ECDF − CDF against the KS band; the "
      "histogram's lower panel shows each bin's standardized residual.\n\n";
  if (run.resolution) md += resolution_markdown(*run.resolution);
  if (run.fleet) md += fleet_markdown(*run.fleet);
  md += "## Power at this n\n\nEach test detects the deviation below with probability " +
        p_text(kPower) + " at its alpha:\n\n" + power_table_markdown(run.power) + "\n";
  md += "## Grid\n\n";
  if (run.time_unit && run.unrepresentable_cells() > 0) {
    md += "The port's delays are whole numbers of " + run.time_unit_name + ": " +
          std::to_string(run.unrepresentable_cells()) +
          (run.unrepresentable_cells() == 1 ? " failing cell is one" : " failing cells are ones") +
          " it cannot represent, whatever its jitter (marked).\n\n";
  }
  md +=
      "| cell | d | range | smallest p | rejected by | pictures |\n"
      "| --- | --- | --- | --- | --- | --- |\n";
  for (const Outcome& o : run.cells) {
    const std::string apart =
        o.failed() && o.unrepresentable != Unrepresentable::no
            ? " (cannot represent: " +
                  unrepresentable_words(o.unrepresentable, run.time_unit_name) + ")"
            : "";
    md += "| " + o.job.name + apart + " | " + number_text(o.job.delay) + " | " +
          markdown_cell(range_text(o)) + " | " + weakest(o) + " | " + rejected_list(o) +
          " | [ECDF](" + o.ecdf_svg + ") [histogram](" + o.histogram_svg + ") |\n";
  }
  if (!run.known_bad.empty()) {
    md +=
        "\n## Known-bad doubles (each must be rejected)\n\n"
        "| double | bug | n | rejected by | pictures |\n| --- | --- | --- | --- | --- |\n";
    for (const Outcome& o : run.known_bad) {
      md += "| " + o.job.name + " | " + markdown_cell(o.job.description) + " | " +
            std::to_string(o.analysis.n) + " | " + rejected_list(o) + " | [ECDF](" + o.ecdf_svg +
            ") [histogram](" + o.histogram_svg + ") |\n";
    }
  }
  std::filesystem::path summary = dir / "summary.md";
  write_file(summary, md);
  return summary;
}

std::filesystem::path write_failure_report(const std::filesystem::path& dir,
                                           const FailedToTest& failure) {
  std::filesystem::create_directories(dir);
  const nlohmann::json json = {{"outcome", run_end_name(RunEnd::failed_to_test)},
                               {"exit_code", exit_code(RunEnd::failed_to_test)},
                               {"seed", nullptr},
                               {"unseeded_source", failure.source},
                               {"failed_in", failure.stage},
                               {"adapter_failure", failure.failure},
                               {"wall_seconds", failure.wall_seconds},
                               {"cells", nlohmann::json::array()}};
  write_file(dir / "results.json", json.dump(2) + "\n");
  // A report a failed run left must not stand for this one.
  std::error_code ignored;
  std::filesystem::remove_all(dir / "svg", ignored);
  std::string md = "# Jitter statistics: a port's own source\n\n**FAILED TO TEST**: " +
                   markdown_cell(failure.stage) + ".\n\n- Source: " + failure.source +
                   ".\n- The adapter: " + markdown_cell(failure.failure) +
                   ".\n- Nothing was judged: no cell, no resolution, no fleet.\n";
  std::filesystem::path summary = dir / "summary.md";
  write_file(summary, md);
  return summary;
}

}  // namespace acemq::stats
