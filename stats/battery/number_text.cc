#include "stats/battery/number_text.hpp"

#include <charconv>
#include <cmath>

namespace acemq::stats {

std::string number_text(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  char text[32];  // 24 is the longest shortest form of a binary64
  const auto end = std::to_chars(text, text + sizeof text, x).ptr;
  return std::string(text, end);
}

}  // namespace acemq::stats
