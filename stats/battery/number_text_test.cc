// A double in a report reads back to its bits, in the fewest digits, with the
// protocol's words for the non-finite.
#include "stats/battery/number_text.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include <gtest/gtest.h>

namespace acemq::stats {
namespace {

TEST(NumberText, TheProtocolsWordsForTheNonFinite) {
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(NumberText, ShortestTextThatReadsBackToTheSameBits) {
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(-0.0), "-0");
  EXPECT_EQ(number_text(1e23), "1e+23");
  EXPECT_EQ(number_text(5e-324), "5e-324");
  EXPECT_EQ(number_text(std::nextafter(1.0, 2.0)), "1.0000000000000002");
  EXPECT_EQ(number_text(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
  // Across the binades, every text reads back to the bits it was made from.
  for (int e = -1074; e <= 1023; e += 7) {
    const double x = std::ldexp(1.0 + std::ldexp(static_cast<double>(e & 0xff), -40), e);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(std::strtod(number_text(x).c_str(), nullptr)),
              std::bit_cast<std::uint64_t>(x))
        << number_text(x);
  }
}

}  // namespace
}  // namespace acemq::stats
