// read_sample_answer: a `sample` answer that the fast path (sampler.hpp) did
// not read, read in one pass over the line's bytes, with no JSON tree and no
// copy of any string: an answer can be 64 MiB of `[{},{},...]` (a tree of
// gigabytes) or one 63 MB error string (which a parser's token buffer would
// copy, twice while it grows). It checks the JSON grammar (RFC 8259) as it
// goes and stops at the first thing that makes the answer unusable.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace acemq::conformance {

// Empty when `line` is a usable answer to request `id` of out.size() draws
// (now in `out`); otherwise what is wrong, in words for "the adapter
// <what>", the adapter's own words clipped (echo.hpp). `answered`: how many
// sample answers the adapter gave before this one, since an error after
// some is a cell it cannot draw, not a missing op.
std::string read_sample_answer(std::string_view line, std::int64_t id, std::span<double> out,
                               std::uint64_t answered = 0);

}  // namespace acemq::conformance
