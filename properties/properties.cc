#include "properties/properties.hpp"

#include <vector>

namespace acemq::props {

std::span<const Property> all_properties() {
  // Built once and kept: a registered test holds its row by reference.
  static const std::vector<Property> rows = [] {
    std::vector<Property> all;
    for (const std::span<const Property> concept_rows :
         {schedule_properties(), matches_model_properties(), jitter_properties(),
          giving_up_properties(), walk_properties(), sources_properties(), factories_properties(),
          validation_properties()}) {
      all.insert(all.end(), concept_rows.begin(), concept_rows.end());
    }
    return all;
  }();
  return rows;
}

}  // namespace acemq::props
