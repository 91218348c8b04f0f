// The doubles a generated request is made of: a value's neighbours one ulp
// away, where a port's comparisons go wrong, and the JSON value a request
// holds for a double: a number, or the protocol's string for a non-finite
// value ("NaN", "Infinity", "-Infinity").
#pragma once

#include <cmath>

#include <nlohmann/json.hpp>

namespace acemq::conformance::generator {

inline double next_up(double x) { return std::nextafter(x, HUGE_VAL); }
inline double next_down(double x) { return std::nextafter(x, -HUGE_VAL); }

inline nlohmann::ordered_json wire(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

}  // namespace acemq::conformance::generator
