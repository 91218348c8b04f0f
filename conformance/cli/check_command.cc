// retry-policy check: a port's adapter against the core, bit for bit.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "conformance/check/check.hpp"
#include "conformance/cli/flags.hpp"
#include "conformance/cli/subcommand.hpp"

namespace acemq::conformance::cli {
namespace {

// The directory `check` takes its vectors from when --vectors is not given:
// share/acemq_retry/vectors beside the executable's bin/ (installed), or the
// same place in the build tree, where CMake links it to the source vectors.
std::filesystem::path default_vector_directory() {
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    usage("--vectors", "not given, and this executable cannot be found: " + error.message());
  }
  return (executable.parent_path() / ACEMQ_VECTORS_FROM_EXECUTABLE).lexically_normal();
}

// Every *.jsonl file in `directory`, sorted; empty when there are none.
std::vector<std::string> vector_files_in(const std::filesystem::path& directory) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The vector files to send: each --vectors argument (a file, or a directory
// meaning its *.jsonl files), or the default directory's. Finding none is a
// usage error that says where it looked: a check that silently sent no
// vectors would pass a port the vectors would have failed.
std::vector<std::string> vector_files(const std::vector<std::string>& given_paths) {
  if (given_paths.empty()) {
    const std::filesystem::path directory = default_vector_directory();
    std::vector<std::string> files = vector_files_in(directory);
    if (files.empty()) {
      usage("--vectors",
            "not given, and no vector files (*.jsonl) are in " + directory.string() +
                ", where this executable looks for them (" ACEMQ_VECTORS_FROM_EXECUTABLE
                " from its own directory); pass --vectors FILE or DIR, or --no-vectors "
                "to send generated cases only");
    }
    return files;
  }
  std::vector<std::string> files;
  for (const std::string& path : given_paths) {
    if (path.empty()) usage("--vectors", "needs a file or a directory, got an empty path");
    if (!std::filesystem::is_directory(path)) {
      files.push_back(path);  // a file that cannot be read is reported by check
      continue;
    }
    const std::vector<std::string> found = vector_files_in(path);
    if (found.empty()) usage("--vectors", "no *.jsonl files in the directory " + path);
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

class CheckCommand final : public Subcommand {
 public:
  explicit CheckCommand(CLI::App& parent)
      : Subcommand(parent.add_subcommand(
            "check",
            "Compare a port's adapter with the C++ core, bit for bit. Exit 0: all agree; "
            "1: an answer differs; 2: a usage error, or the adapter died or misbehaved")) {
    value_option("--impl", options_.command,
                 "the adapter, a shell command speaking the protocol (required)");
    value_option("--cases", cases_, "generated requests (default " + cases_ + ")");
    value_option("--seed", seed_, "generator seed (default: random, printed)");
    app()
        .add_option("--vectors", vectors_,
                    "vector files, or directories of them, to send first (default: every "
                    ".jsonl in ../share/acemq_retry/vectors beside this executable)")
        ->expected(0, -1);
    app().add_flag("--no-vectors", no_vectors_, "send no vector files");
    app().add_flag("--reference-profile,--valid-only", reference_profile_,
                   "send only valid requests on which the contract and the Ruby reference agree "
                   "(for checking the reference itself, which does not validate)");
    value_option("--timeout", timeout_,
                 "seconds to wait for each answer (default " + timeout_ + ")");
    value_option("--show", show_,
                 "distinct mismatches to shrink and show in full (default " + show_ + ")");
    app().add_flag("--fail-fast", options_.fail_fast,
                   "stop at the first answer that differs, exit 1, send no more");
    value_option("--progress-every", progress_,
                 "seconds between progress lines on stderr (default " + progress_ + ")");
    value_option("--json", json_path_,
                 "also write the report as JSON to this file (verdict, counts, mismatches, "
                 "coverage), for a program to read");
  }

  int run() override {
    if (!given(app(), "--impl")) usage("--impl", "required: the command that starts the adapter");
    require_value(app(), "--impl", options_.command, "the command that starts the adapter");
    require_value(app(), "--cases", cases_, "how many generated requests");
    require_value(app(), "--seed", seed_, "a whole number");
    require_value(app(), "--timeout", timeout_, "seconds");
    require_value(app(), "--show", show_, "how many mismatches");
    require_value(app(), "--progress-every", progress_, "seconds");
    if (given(app(), "--vectors") && vectors_.empty()) {
      usage("--vectors", "needs a value: a file or a directory");
    }
    if (no_vectors_ && !vectors_.empty()) usage("--no-vectors", "cannot be used with --vectors");
    options_.timeout = timeout_flag("--timeout", timeout_);
    options_.cases = count_flag("--cases", cases_);
    options_.shrink_shown =
        static_cast<int>(std::min<std::int64_t>(count_flag("--show", show_), 1000));
    options_.seed = given(app(), "--seed") ? seed_flag("--seed", seed_) : random_seed();
    options_.vectors = no_vectors_ ? std::vector<std::string>{} : vector_files(vectors_);
    options_.profile = reference_profile_ ? Profile::reference : Profile::full;
    options_.progress_interval = number_flag("--progress-every", progress_);
    if (!(options_.progress_interval > 0.0)) {
      usage("--progress-every", "must be seconds above 0, got " + progress_);
    }
    require_value(app(), "--json", json_path_, "a file to write");
    std::ofstream json_file;
    if (!json_path_.empty()) {
      json_file.open(json_path_);
      if (!json_file) usage("--json", "cannot write " + json_path_);
    }
    const CheckReport report = run_check(options_, std::cout, std::cerr);
    if (json_file.is_open()) {
      json_file << to_json(report).dump(2) << "\n";
      json_file.close();
      if (!json_file) usage("--json", "cannot write " + json_path_);
    }
    return report.exit_code();
  }

 private:
  CheckOptions options_;
  // The defaults are CheckOptions', as typed.
  std::string cases_ = flag_text(CheckOptions{}.cases);
  std::string seed_;
  std::vector<std::string> vectors_;
  bool no_vectors_ = false;
  bool reference_profile_ = false;
  std::string timeout_ = flag_text(CheckOptions{}.timeout);
  std::string show_ = flag_text(std::int64_t{CheckOptions{}.shrink_shown});
  std::string progress_ = flag_text(CheckOptions{}.progress_interval);
  std::string json_path_;
};

}  // namespace

std::unique_ptr<Subcommand> check_command(CLI::App& app) {
  return std::make_unique<CheckCommand>(app);
}

}  // namespace acemq::conformance::cli
