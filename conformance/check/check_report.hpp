// CheckReport: what a run of `retry-policy check` found, as a value.
//
// The console report is prose for a person; this is the same run for a
// program (`check --json FILE`): a port's CI that wants the mismatches, a
// test that asserts on the verdict, the coverage tally by row. Every field
// is filled as the run goes, and to_json writes it once at the end, so the
// two never disagree on a count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace acemq::conformance {

// How the run ended; the exit code follows from it.
enum class CheckVerdict {
  agree,           // 0: every answer agrees, bit for bit
  different,       // 1: an answer differs, or the core disagrees with a vector file
  adapter_failed,  // 2: the adapter could not start, died, hung or misbehaved
  usage,           // 2: a vector file could not be read
};

struct CheckReport {
  struct Tally {
    std::string kind;  // "schedule", "invalid", "vectors x.jsonl", ...
    std::int64_t sent = 0;
    std::int64_t agreed = 0;
    std::int64_t skipped = 0;  // vector lines outside the reference profile
  };
  // The smallest request a mismatch shrank to, with both answers.
  struct Shrunk {
    std::string request;
    int queries = 0;
    std::string differs;
    std::string core;
    std::string adapter;
  };
  struct Mismatch {
    std::string where;    // "generated case 15", "x.jsonl:12"
    std::string kind;     // the tally it counts in
    std::string differs;  // "result[0]: expected ..., got ..."
    std::string request;
    std::optional<Shrunk> shrunk;
    // The number of the mismatch shown earlier that this one shrank to the
    // same request as.
    std::optional<int> same_as;
  };
  struct CoverageRow {
    std::string name;
    std::int64_t count = 0;
    std::int64_t variants = 0;          // an invalid rule's or a malformation's; 0 elsewhere
    std::int64_t variants_reached = 0;  // of them, how many this run sent
  };

  CheckVerdict verdict = CheckVerdict::agree;
  std::string adapter;
  std::string profile;
  std::uint64_t seed = 0;
  std::int64_t cases = 0;
  double seconds = 0.0;
  std::vector<Tally> tallies;
  std::int64_t mismatches = 0;  // every answer that differed
  // Bursts written at once, and those sent a line at a time instead: their
  // lines past kBurstBytes, or their answers past kBurstAnswerBytes.
  struct Bursts {
    std::int64_t at_once = 0;
    std::int64_t lines_too_long = 0;
    std::int64_t answers_too_long = 0;
  } bursts;
  int shrunk = 0;
  int distinct_smallest = 0;
  // The mismatches shown, in order (the rest are counted only).
  std::vector<Mismatch> shown;
  std::vector<std::string> core_disagrees_with_vectors;
  std::optional<std::string> adapter_failure;  // what the adapter did
  std::optional<std::string> usage_error;
  // What the agreeing answers reached (written on a pass).
  std::vector<CoverageRow> regimes;
  std::vector<CoverageRow> numeric_ids;
  std::vector<CoverageRow> invalid_rules;
  std::vector<CoverageRow> malformations;

  int exit_code() const;
};

std::string_view verdict_name(CheckVerdict verdict);

// The report as JSON: {"format": "acemq-retry check 1", "verdict": ...}.
nlohmann::ordered_json to_json(const CheckReport& report);

}  // namespace acemq::conformance
