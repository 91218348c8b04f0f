// serve: the protocol over a pair of file descriptors, a line at a time.
//
// Reads request lines from `in` (bounded by the protocol's line cap; a
// longer one is answered with an error and never stored), answers each with
// answer_line (the core through the protocol), writes and flushes each
// answer on `out` before reading on. `retry-policy serve` runs it with the
// core's own default source; a test adapter runs it with a wrong one.
#pragma once

#include <cstdio>
#include <functional>

#include "conformance/protocol/respond.hpp"

namespace acemq::conformance {

// 0 at the end of input; 1 when reading or writing fails.
int serve_lines(int in, std::FILE* out, const SampleSource& sample_source = {});

// The same, each parsed line answered by `responder` instead of respond(): a
// test adapter that changes what the core answers (a port that converts its
// delays to whole milliseconds) keeps the protocol's framing and words.
using Responder = std::function<Answer(const ParsedLine&)>;
int serve_lines(int in, std::FILE* out, const Responder& responder);

}  // namespace acemq::conformance
