// retry-policy protocol: the protocol's table as JSON, for a port's own
// tests to read (description.hpp): the same document as
// conformance/protocol/protocol.json, from whichever binary is installed.
#include <iostream>

#include "conformance/cli/subcommand.hpp"
#include "conformance/protocol/description.hpp"

namespace acemq::conformance::cli {
namespace {

class ProtocolCommand final : public Subcommand {
 public:
  explicit ProtocolCommand(CLI::App& parent)
      : Subcommand(parent.add_subcommand(
            "protocol",
            "Print the protocol's table (ops, members, types, ranges, policy forms, limits) as "
            "JSON")) {}

  int run() override {
    std::cout << protocol_description().dump(2) << "\n";
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> protocol_command(CLI::App& app) {
  return std::make_unique<ProtocolCommand>(app);
}

}  // namespace acemq::conformance::cli
