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

EditedNumbers edit_numbers_past_id(
    const std::string& line,
    const std::function<std::optional<std::string>(std::string_view number, std::size_t replaced)>&
        edit) {
  EditedNumbers out;
  bool in_string = false;
  bool escaped = false;
  int depth = 0;
  bool past_id = false;  // at the id's end, the first comma inside the line's own object
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    out.line.push_back(ch);
    if (in_string) {
      if (escaped) {
        escaped = false;  // the escape's letter, a quote included
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') in_string = true;
    if (ch == '{' || ch == '[') ++depth;
    if (ch == '}' || ch == ']') --depth;
    if (ch == ',' && depth == 1) past_id = true;
    if (!past_id || (ch != ':' && ch != ',' && ch != '[')) continue;
    std::size_t end = i + 1;
    while (end < line.size() &&
           std::string_view("-+.eE0123456789").find(line[end]) != std::string_view::npos) {
      ++end;
    }
    if (end == i + 1) continue;
    const std::optional<std::string> text =
        edit(std::string_view(line).substr(i + 1, end - i - 1), out.replaced);
    if (!text) continue;
    out.line += *text;
    ++out.replaced;
    i = end - 1;
  }
  return out;
}

}  // namespace acemq::conformance::generator
