// number_text: a double as a report writes it.
//
// The shortest text that reads back to the same bits, and "NaN",
// "Infinity", "-Infinity" as the protocol spells them: a delay quoted in a
// verdict or in results.json is then the adapter's own answer, byte for
// byte, and can be pasted into a request.
#pragma once

#include <string>

namespace acemq::stats {

std::string number_text(double x);

}  // namespace acemq::stats
