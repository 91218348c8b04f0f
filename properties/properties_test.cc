// The property suite: every row of the property table (all_properties(),
// properties.hpp; the rows live in the concept files) registered as one
// GoogleTest test, Properties.<Name>, and so one CTest test labelled
// `properties`. Each runs its property with rc::check under RapidCheck's own
// configuration (RC_PARAMS; CTest prepends the suite's default case count),
// then checks that its cases kept every regime share its row names.
//
// Replay a failure with the RC_PARAMS="reproduce=..." line RapidCheck prints,
// or a whole run with the seed it prints first (README.md).
//
//   property_tests --acemq_rejections   # each property and the mutants it rejects
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "properties/properties.hpp"
#include "properties/regime_coverage.hpp"

namespace props = acemq::props;

namespace {

class PropertyTest : public testing::Test {
 public:
  explicit PropertyTest(const props::Property& property) : property_(property) {}

  void TestBody() override {
    props::Cases cases;
    const std::string id = "Properties/" + std::string(property_.name);
    const bool passed = rc::check(id, [this, &cases] {
      cases.begin();
      property_.check(cases);
    });
    cases.end();
    ASSERT_TRUE(passed) << property_.name << " failed; RapidCheck's report, the counterexample "
                        << "and the reproduce line are above";
    std::cout << "regimes reached in " << cases.cases() << " cases:";
    for (std::size_t i = 0; i < props::kRegimes; ++i) {
      const auto regime = static_cast<props::Regime>(i);
      if (cases.hits(regime) > 0) {
        std::cout << " " << props::regime_name(regime) << " " << cases.hits(regime) << ";";
      }
    }
    std::cout << std::endl;
    for (const props::Share& share : property_.shares) {
      const std::int64_t hits = cases.hits(share.regime);
      const double bound = props::share_upper_bound(hits, cases.cases());
      std::ostringstream seen;
      seen << props::regime_name(share.regime) << ": " << hits << " of " << cases.cases()
           << " cases; the true share is at most " << bound << " (confidence 1 - "
           << props::kCoverageAlpha << "), and must be at least " << share.at_least;
      if (props::share_upper_bound(0, cases.cases()) >= share.at_least) {
        std::cout << "coverage not judged at " << cases.cases() << " cases: " << seen.str()
                  << std::endl;
        continue;
      }
      EXPECT_GE(bound, share.at_least)
          << "a generator no longer reaches this regime often enough: " << seen.str();
    }
  }

 private:
  const props::Property& property_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--acemq_rejections") == 0) {
    for (const props::Property& property : props::all_properties()) {
      for (const std::string_view key : property.rejects) {
        std::cout << property.name << '\t' << key << '\n';
      }
    }
    return 0;
  }
  testing::InitGoogleTest(&argc, argv);
  for (const props::Property& property : props::all_properties()) {
    testing::RegisterTest("Properties", std::string(property.name).c_str(), nullptr, nullptr,
                          __FILE__, __LINE__,
                          [&property]() -> testing::Test* { return new PropertyTest(property); });
  }
  return RUN_ALL_TESTS();
}
