#include "conformance/port_stats/echo.hpp"

#include <cstdio>

namespace acemq::conformance {

std::string clip(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, kEchoBytes)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  if (text.size() > kEchoBytes) {
    out += "... (" + std::to_string(text.size()) + " bytes, clipped to " +
           std::to_string(kEchoBytes) + ")";
  }
  return out;
}

}  // namespace acemq::conformance
