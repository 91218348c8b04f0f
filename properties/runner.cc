#include "runner.hpp"

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>

namespace acemq::props {
namespace {

// The test of the test expects failures; RapidCheck's global listener would
// announce each one at exit as a failure to reproduce, so these runs use a
// listener that says nothing and report for themselves.
class Silent : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

class SeedPrinter : public testing::EmptyTestEventListener {
 public:
  void OnTestStart(const testing::TestInfo&) override {
    const RunParams params = configured_params();
    std::cout << "RapidCheck seed=" << params.seed << " max_success=" << params.max_success
              << "; replay this run with RC_PARAMS=\"seed=" << params.seed
              << " max_success=" << params.max_success << "\"" << std::endl;
  }
};

}  // namespace

RunParams configured_params() {
  const rc::detail::TestParams& configured = rc::detail::configuration().testParams;
  return RunParams{.seed = configured.seed,
                   .max_success = configured.maxSuccess,
                   .shrink = !configured.disableShrinking};
}

RunResult run(const Property& property, const Core& core, const RunParams& params,
              const std::string& id) {
  const auto& reproduce = rc::detail::configuration().reproduce;
  if (!reproduce.empty() && reproduce.find(id) == reproduce.end()) {
    RunResult skipped;
    skipped.skipped = true;
    return skipped;
  }
  rc::detail::TestParams test_params;
  test_params.seed = params.seed;
  test_params.maxSuccess = params.max_success;
  test_params.disableShrinking = !params.shrink;
  rc::detail::TestMetadata metadata;
  metadata.id = id;
  metadata.description = id;
  Silent silent;
  const rc::detail::TestResult result = rc::detail::checkProperty(
      rc::detail::toProperty([&property, &core] { property.check(core); }), metadata, test_params,
      silent, reproduce);

  RunResult out;
  std::ostringstream report;
  rc::detail::printResultMessage(result, report);
  out.report = report.str();
  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  if (result.match(success)) {
    out.cases = success.numSuccess;
  } else if (result.match(failure)) {
    out.failed = true;
    out.cases = failure.numSuccess + 1;
  } else {
    // Gave up or errored: neither a pass nor a rejection to count on.
    out.failed = false;
  }
  return out;
}

void default_max_success(int cases) {
  const char* given = std::getenv("RC_PARAMS");
  std::string params = given != nullptr ? given : "";
  if (params.find("max_success") != std::string::npos) return;
  if (!params.empty()) params += ' ';
  params += "max_success=" + std::to_string(cases);
  setenv("RC_PARAMS", params.c_str(), 1);
}

void print_seed_before_each_test() {
  testing::UnitTest::GetInstance()->listeners().Append(new SeedPrinter);
}

}  // namespace acemq::props
