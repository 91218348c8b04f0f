// run_check: `retry-policy check`, a port's adapter against the C++ core.
//
// Sends every vector file's requests, then `cases` generated ones, to the
// adapter one line at a time; answers every request, parsed once, with the
// core (respond.hpp); and compares the two answers bit for bit (answer.hpp).
// Mismatches are shrunk (shrink.hpp) by asking the adapter again, until
// `shrink_shown` distinct smallest requests are printed with both answers;
// on a pass, what the agreeing answers reached is tallied (coverage.hpp).
//
// Exit codes: 0 every answer agrees; 1 some answer differs (or the core
// disagrees with a vector file's expected answer); 2 a usage error, or the
// adapter could not start, died, hung past the timeout, wrote something that
// is not an answer, answered with the wrong id, or exited badly at the end.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "conformance/check/case_generator.hpp"
#include "conformance/check/check_report.hpp"

namespace acemq::conformance {

// Every kBurstEvery-th generated case starts a burst: it and the next 1 to
// 7 cases (2 to 8 in turn) written at once, their answers read after, in
// order. A port that misreads a second line arriving in the read that
// brought the first (takes the last LF for the first, keeps a stale byte,
// skips the rest of the read) answers every line sent alone right. 39
// bursts a run of 5000, about 200 cases.
inline constexpr std::int64_t kBurstEvery = 128;

// A burst's lines are at most 48 KiB, under a pipe's 64 KiB, so its write
// never waits on the adapter. One of them is padded to 24 KiB, so the lines
// after it start 24 KiB into their read: a reader that searches a read
// from a line's start for as many bytes as the read holds plus that start
// runs past a 64 KiB read buffer there.
inline constexpr std::size_t kBurstBytes = std::size_t{48} << 10;
inline constexpr std::size_t kBurstLongLine = std::size_t{24} << 10;

// The answers to a burst's lines but its last are at most 16 KiB (the
// core's; a port that agrees writes the same), so they wait in the pipe
// back, 64 KiB, with room to spare while check is still writing: an adapter
// that reads a line only after writing the last one's answer never blocks
// on its output then. A burst past it (two long schedules can answer 69 KiB)
// is sent a line at a time, as one past kBurstBytes is; the report counts both.
inline constexpr std::size_t kBurstAnswerBytes = std::size_t{16} << 10;

struct CheckOptions {
  std::string command;               // the adapter, run with /bin/sh -c
  std::int64_t cases = 5000;         // generated requests
  std::uint64_t seed = 0;            // generator seed, printed for replay
  std::vector<std::string> vectors;  // vector files, sent first
  Profile profile = Profile::full;
  std::chrono::milliseconds timeout{10000};  // per answer
  int shrink_shown = 3;                      // distinct shrunk mismatches shown in full
  int shrink_budget = 400;                   // adapter queries per shrink
  double progress_interval = 5.0;            // seconds between progress lines
  bool fail_fast = false;                    // stop sending at the first mismatch
};

// The report goes to `out` as the run goes; a progress line every
// progress_interval seconds to `progress`, so that a slow adapter does not
// look like a hung one. The run, as a value, is returned: its exit_code() is
// the command's.
CheckReport run_check(const CheckOptions& options, std::ostream& out, std::ostream& progress);

}  // namespace acemq::conformance
