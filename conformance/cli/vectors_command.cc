// retry-policy vectors: generated requests, each with the core's answer.
#include <iostream>
#include <string>

#include "conformance/check/case_generator.hpp"
#include "conformance/cli/flags.hpp"
#include "conformance/cli/subcommand.hpp"
#include "conformance/protocol/limits.hpp"
#include "conformance/protocol/respond.hpp"
#include "conformance/protocol/wire.hpp"

namespace acemq::conformance::cli {
namespace {

class VectorsCommand final : public Subcommand {
 public:
  explicit VectorsCommand(CLI::App& parent)
      : Subcommand(parent.add_subcommand(
            "vectors",
            "Write generated requests, each with the C++ core's answer, as JSON lines")) {
    value_option("--cases", cases_, "how many (default " + cases_ + ")");
    value_option("--seed", seed_, "generator seed (default: random)");
    app().add_flag("--reference-profile,--valid-only", reference_,
                   "only requests the Ruby reference answers the same way");
  }

  int run() override {
    require_value(app(), "--cases", cases_, "how many vectors");
    require_value(app(), "--seed", seed_, "a whole number");
    const std::int64_t cases = count_flag("--cases", cases_);
    const std::uint64_t seed = given(app(), "--seed") ? seed_flag("--seed", seed_) : random_seed();
    std::cerr << "retry-policy vectors: " << cases << " cases, seed " << seed << "\n";
    CaseGenerator generator(seed, reference_ ? Profile::reference : Profile::full);
    std::int64_t written = 0;
    for (std::int64_t id = 1; written < cases; ++id) {
      const GeneratedCase generated = generator.next(id);
      // A vector is a request object with its answer added; a line that is
      // not an object cannot carry one, and one with a CR in it (a layout
      // check sends) would be split in two by the text tools that read
      // vector files.
      if (generated.kind == CaseKind::malformed || !generated.line.starts_with('{') ||
          generated.line.find('\r') != std::string::npos) {
        continue;
      }
      const Answer answer = respond(generated.parsed);
      std::string expectation;
      if (answer.ok) {
        expectation = format_result(answer);
      } else {
        append_json_string(expectation, answer.error);
      }
      // check reads a vector line within the protocol's line limit, its
      // answer included: a line padded to 1 MiB, or a 65,536-entry schedule,
      // cannot carry its answer, and is left out.
      const std::string vector =
          with_member(generated.line, answer.ok ? "expect" : "expect_error", expectation);
      if (vector.size() > kMaxLineBytes) continue;
      std::cout << vector << "\n";
      ++written;
    }
    return std::cout.flush() ? 0 : 1;
  }

 private:
  // The default count, named once for the flag and its help.
  std::string cases_ = flag_text(std::int64_t{1000});
  std::string seed_;
  bool reference_ = false;
};

}  // namespace

std::unique_ptr<Subcommand> vectors_command(CLI::App& app) {
  return std::make_unique<VectorsCommand>(app);
}

}  // namespace acemq::conformance::cli
