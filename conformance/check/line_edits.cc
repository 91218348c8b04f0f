#include "conformance/check/line_edits.hpp"

namespace acemq::conformance::generator {

std::string with_raw_id(const std::string& valid, std::string_view raw) {
  const std::size_t start = valid.find(':') + 1;
  const std::size_t end = valid.find(',', start);
  return valid.substr(0, start) + std::string(raw) + valid.substr(end);
}

std::string padded_to(const std::string& valid, std::size_t bytes) {
  std::string line = valid;
  if (line.size() < bytes) line.insert(1, bytes - line.size(), ' ');
  return line;
}

}  // namespace acemq::conformance::generator
