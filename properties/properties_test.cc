// The property suite against the library: each property is its own
// RC_GTEST_PROP and so its own CTest test, labelled `properties`.
//
// Replay a failure with the RC_PARAMS="reproduce=..." line RapidCheck prints,
// or a whole run with the seed printed before each test (README.md).
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core.hpp"
#include "properties.hpp"
#include "runner.hpp"

namespace props = acemq::props;

namespace {
const props::Core& lib() { return props::library(); }
}  // namespace

RC_GTEST_PROP(Properties, ScheduleLength, ()) { props::schedule_length(lib()); }
RC_GTEST_PROP(Properties, ScheduleRespectsCap, ()) { props::schedule_respects_cap(lib()); }
RC_GTEST_PROP(Properties, JitterStaysInBand, ()) { props::jitter_stays_in_band(lib()); }
RC_GTEST_PROP(Properties, JitterIsTwoSided, ()) { props::jitter_is_two_sided(lib()); }
RC_GTEST_PROP(Properties, GivesUpAtAgeLimit, ()) { props::gives_up_at_age_limit(lib()); }
RC_GTEST_PROP(Properties, GivesUpAfterLastAttempt, ()) {
  props::gives_up_after_last_attempt(lib());
}
RC_GTEST_PROP(Properties, NeverNegativeNorNaN, ()) { props::never_negative_nor_nan(lib()); }
RC_GTEST_PROP(Properties, NextDelayMatchesSchedule, ()) {
  props::next_delay_matches_schedule(lib());
}
RC_GTEST_PROP(Properties, LazyRangeMatchesSchedule, ()) {
  props::lazy_range_matches_schedule(lib());
}
RC_GTEST_PROP(Properties, ScheduleMatchesModel, ()) { props::schedule_matches_model(lib()); }
RC_GTEST_PROP(Properties, NextDelayMatchesModel, ()) { props::next_delay_matches_model(lib()); }
RC_GTEST_PROP(Properties, JitteredMatchesModel, ()) { props::jittered_matches_model(lib()); }
RC_GTEST_PROP(Properties, FastPathMatchesPlainLoop, ()) {
  props::fast_path_matches_plain_loop(lib());
}
RC_GTEST_PROP(Properties, HugeAttemptAnswersAtOnce, ()) {
  props::huge_attempt_answers_at_once(lib());
}
RC_GTEST_PROP(Properties, NonDecreasingWhenMultiplierAtLeastOne, ()) {
  props::non_decreasing_when_multiplier_at_least_one(lib());
}
RC_GTEST_PROP(Properties, FixedIsConstant, ()) { props::fixed_is_constant(lib()); }
RC_GTEST_PROP(Properties, FactoriesMatchDocPage, ()) { props::factories_match_doc_page(lib()); }
RC_GTEST_PROP(Properties, CopiesChangeOneField, ()) { props::copies_change_one_field(lib()); }
RC_GTEST_PROP(Properties, NoDrawWithoutJitter, ()) { props::no_draw_without_jitter(lib()); }
RC_GTEST_PROP(Properties, OneDrawPerJitter, ()) { props::one_draw_per_jitter(lib()); }
RC_GTEST_PROP(Properties, RubyRandomReplays, ()) { props::ruby_random_replays(lib()); }
RC_GTEST_PROP(Properties, RubyRandomMatchesGenrandRes53, ()) {
  props::ruby_random_matches_genrand_res53(lib());
}
RC_GTEST_PROP(Properties, BadPolicyRejectedNamingField, ()) {
  props::bad_policy_rejected_naming_field(lib());
}
RC_GTEST_PROP(Properties, BadCallRejectedNamingField, ()) {
  props::bad_call_rejected_naming_field(lib());
}
RC_GTEST_PROP(Properties, ValidPoliciesAccepted, ()) { props::valid_policies_accepted(lib()); }

// The table the test of the test and the matrix walk must list exactly the
// properties above, or a property could go unchecked for its power to fail.
TEST(Properties, EveryPropertyIsATest) {
  const testing::TestSuite* suite = nullptr;
  const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    if (std::string(unit.GetTestSuite(i)->name()) == "Properties") suite = unit.GetTestSuite(i);
  }
  ASSERT_NE(suite, nullptr);
  for (const props::Property& property : props::all_properties()) {
    bool found = false;
    for (int i = 0; i < suite->total_test_count(); ++i) {
      found = found || property.name == suite->GetTestInfo(i)->name();
    }
    EXPECT_TRUE(found) << property.name << " has no RC_GTEST_PROP";
  }
  // The RC_GTEST_PROPs and this test.
  EXPECT_EQ(static_cast<std::size_t>(suite->total_test_count()),
            props::all_properties().size() + 1);
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  props::default_max_success(ACEMQ_PROPS_DEFAULT_CASES);
  props::print_seed_before_each_test();
  return RUN_ALL_TESTS();
}
