// echo: how much of an adapter's words `stats --impl` repeats. An adapter
// may answer with a 63 MB error or id; an output line or a report shows the
// first kEchoBytes of it, control bytes escaped, and says how long it was.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace acemq::conformance {

inline constexpr std::size_t kEchoBytes = 200;

// At most kEchoBytes of `text`, control bytes as \xNN, and how much there
// was when it was clipped.
std::string clip(std::string_view text);

}  // namespace acemq::conformance
