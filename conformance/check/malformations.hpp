// Malformed lines: a valid request's line, broken so that it is no JSON
// object within the protocol's limits (docs/protocol.md, Requests),
// so both sides must refuse the line, with a null id.
//
// The kinds, kMalformations in malformations.cc, and each kind's variants are
// sent in turn, not by weight: the first variant of every kind, then the
// second of those that have one, and so on, so that a run of 5000 cases
// (about 90 malformed lines) sends every variant of every kind, and its
// report can say so.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "conformance/check/dice.hpp"

namespace acemq::conformance::generator {

struct MalformedLine {
  std::string line;
  std::string_view kind;  // the row of kMalformations
  std::size_t variant;    // which of the row's forms
};

// The turn-th malformed line of a run (from 0), made from `valid`.
MalformedLine malformed_line(Dice& d, const std::string& valid, std::size_t turn);

}  // namespace acemq::conformance::generator
