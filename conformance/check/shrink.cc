#include "conformance/check/shrink.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "conformance/protocol/wire.hpp"

namespace acemq::conformance {
namespace {

using nlohmann::ordered_json;
using Pointer = ordered_json::json_pointer;

struct Cost {
  std::size_t length;
  double magnitude;
  bool operator<(const Cost& other) const {
    return length != other.length ? length < other.length : magnitude < other.magnitude;
  }
};

double magnitude(const ordered_json& j) {
  if (j.is_number_integer()) return std::fabs(j.get<double>());
  double sum = 0.0;
  if (j.is_structured()) {
    for (const auto& element : j) sum += magnitude(element);
  }
  return sum;
}

Cost cost(const ordered_json& j) { return {to_line(j).size(), magnitude(j)}; }

// The members that name what is asked, which a shrink must not touch.
bool fixed(const std::string& path) {
  return path == "/id" || path == "/op" || path == "/policy" || path == "/policy/factory";
}

void collect(const ordered_json& j, const Pointer& at, std::vector<Pointer>& out) {
  out.push_back(at);
  if (j.is_object()) {
    for (const auto& [key, member] : j.items()) collect(member, at / key, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) collect(j[i], at / i, out);
  }
}

// The same number with fewer significant digits, fewest first.
std::vector<double> rounder(double x) {
  std::vector<double> out;
  if (!std::isfinite(x) || x == 0.0) return out;
  for (int digits = 1; digits < 17; ++digits) {
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::scientific, digits - 1);
    double y = 0.0;
    std::from_chars(buffer, result.ptr, y);
    if (y != x) out.push_back(y);
  }
  return out;
}

std::vector<ordered_json> variants(const ordered_json& request) {
  std::vector<ordered_json> out;
  std::vector<Pointer> pointers;
  collect(request, Pointer(), pointers);

  // Whole calls first: a replay of one call is the biggest simplification.
  if (request.contains("calls") && request["calls"].is_array()) {
    const ordered_json& calls = request["calls"];
    const std::size_t n = calls.size();
    if (n > 1) {
      ordered_json half = request;
      half["calls"] = ordered_json(calls.begin(), calls.begin() + static_cast<long>(n / 2));
      out.push_back(std::move(half));
      ordered_json rest = request;
      rest["calls"] = ordered_json(calls.begin() + static_cast<long>(n / 2), calls.end());
      out.push_back(std::move(rest));
    }
    for (std::size_t i = 0; i < n; ++i) {
      ordered_json fewer = request;
      fewer["calls"].erase(i);
      out.push_back(std::move(fewer));
    }
  }
  // Optional members: the policy's fields and the op's defaults.
  for (const Pointer& p : pointers) {
    const std::string path = p.to_string();
    if (p.empty() || fixed(path) || path.starts_with("/calls")) continue;
    const Pointer parent = p.parent_pointer();
    if (!request.at(parent).is_object()) continue;
    ordered_json without = request;
    without.at(parent).erase(p.back());
    out.push_back(std::move(without));
  }
  // Simpler values.
  for (const Pointer& p : pointers) {
    const std::string path = p.to_string();
    if (p.empty() || fixed(path)) continue;
    const ordered_json& value = request.at(p);
    std::vector<ordered_json> simpler;
    if (value.is_number_integer()) {
      const double v = value.get<double>();
      for (const std::int64_t candidate : {std::int64_t{1}, std::int64_t{2}, std::int64_t{0}}) {
        if (std::fabs(static_cast<double>(candidate)) < std::fabs(v))
          simpler.emplace_back(candidate);
      }
      if (value.is_number_unsigned()) {
        const std::uint64_t u = value.get<std::uint64_t>();
        simpler.emplace_back(u / 2);
        simpler.emplace_back(u - 1);
      } else {
        const std::int64_t i = value.get<std::int64_t>();
        simpler.emplace_back(i / 2);
        simpler.emplace_back(i > 0 ? i - 1 : i + 1);
      }
    } else if (value.is_number_float() || value.is_string()) {
      const std::optional<double> x = wire_number(value);
      for (const double candidate : {0.0, 1.0, 0.5, 2.0}) simpler.emplace_back(candidate);
      if (x) {
        for (const double y : rounder(*x)) simpler.emplace_back(y);
      }
    } else if (value.is_boolean() && value.get<bool>()) {
      simpler.emplace_back(false);
    }
    for (ordered_json& v : simpler) {
      if (v == value) continue;
      ordered_json changed = request;
      changed.at(p) = std::move(v);
      out.push_back(std::move(changed));
    }
  }
  return out;
}

}  // namespace

ShrinkResult shrink(const ordered_json& request,
                    const std::function<bool(const ordered_json&)>& still_fails, int max_queries) {
  ShrinkResult result{request, 0, 0};
  bool improved = true;
  while (improved && result.queries < max_queries) {
    improved = false;
    const Cost current = cost(result.request);
    for (ordered_json& candidate : variants(result.request)) {
      if (!(cost(candidate) < current)) continue;
      if (result.queries >= max_queries) break;
      ++result.queries;
      if (still_fails(candidate)) {
        result.request = std::move(candidate);
        ++result.steps;
        improved = true;
        break;
      }
    }
  }
  return result;
}

}  // namespace acemq::conformance
