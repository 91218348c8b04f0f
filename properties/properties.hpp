// properties: the one table of the suite's properties, kept in rows by
// concept.
//
// A property is a claim about the policy core for any input the generators
// reach. Its row says everything the suite knows of it: the name (the test is
// Properties.<name>), the body, the regimes its cases must keep reaching, and
// the mutants of the real core it must reject. Each concept file (schedule.cc,
// jitter.cc, ...; README.md has the list) holds its bodies with its rows right
// beside them, so a body and what it is held to are read together;
// all_properties() joins them, and properties_test.cc registers every row,
// so nothing else lists a property.
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>

#include "properties/regime_coverage.hpp"

namespace acemq::props {

// A regime and the least share of a property's cases that must reach it.
struct Share {
  Regime regime;
  double at_least;
};

// One row per property: its name, its body (which draws its inputs with
// `*generator` and tags each case's regimes in Cases), the shares it must
// keep (about half those seen at 10^4 cases, so the suite never flakes), and
// the mutants of the real core it was seen to reject, by their mutation/
// keys (file | function | operator | occurrence; `scripts/mutate --list`),
// which the test of the test (scripts/mutate) checks it still does.
struct Property {
  std::string_view name;
  void (*check)(Cases&);
  std::initializer_list<Share> shares;
  std::initializer_list<std::string_view> rejects;
};

// The rows of each concept, in its file's order.
std::span<const Property> schedule_properties();       // schedule.cc
std::span<const Property> matches_model_properties();  // matches_model.cc
std::span<const Property> jitter_properties();         // jitter.cc
std::span<const Property> giving_up_properties();      // giving_up.cc
std::span<const Property> walk_properties();           // walk.cc
std::span<const Property> sources_properties();        // sources.cc
std::span<const Property> factories_properties();      // factories.cc
std::span<const Property> validation_properties();     // validation.cc

// Every row, concept by concept in the order above.
std::span<const Property> all_properties();

}  // namespace acemq::props
