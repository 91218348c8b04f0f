// read_sample_answer: what an adapter's answer to a `sample` request gives
// stats: the draws asked for, straight into the caller's buffer, or what is
// wrong with it. The line is read by the protocol's one answer reader
// (protocol/answer_reader.hpp); this says what an answer means for a request
// of n draws that must all be jittered.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace acemq::conformance {

// Empty when `line` answers request `id` with out.size() draws (now in
// `out`); otherwise what is wrong, in words for "the adapter <what>", the
// adapter's own words clipped (echo.hpp). `answered`: how many sample
// answers the adapter gave before this one, since an error after some is a
// cell it cannot draw, not a missing op.
std::string read_sample_answer(std::string_view line, std::int64_t id, std::span<double> out,
                               std::uint64_t answered = 0);

}  // namespace acemq::conformance
