// Malformed lines: a valid request's line, broken so that it is no JSON
// object within the protocol's limits (conformance/README.md, Requests),
// so both sides must refuse the line, with a null id.
//
// The kinds, kMalformations in malformations.cc, are sent in turn, not by
// weight, so that a run of 5000 cases (about 87 malformed lines, 30 kinds)
// sends every kind two or three times, and its report can say so for each;
// a kind's own variants go in turn with its sends.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "conformance/check/dice.hpp"

namespace acemq::conformance::generator {

struct MalformedLine {
  std::string line;
  std::string_view kind;  // the row of kMalformations
};

// The turn-th malformed line of a run (from 0), made from `valid`.
MalformedLine malformed_line(Dice& d, const std::string& valid, std::size_t turn);

}  // namespace acemq::conformance::generator
