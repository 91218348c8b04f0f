// start_fleet: `processes` adapters started at once, as a fleet restarts
// together, each asked for its first stats::kFleetDraws draws of the exact
// cell (2r, so r comes back), for the fleet's tests (stats/battery/fleet.hpp). The
// first process is kept for the run, whose stream then goes on; the others
// must end as an adapter ends.
#pragma once

#include <memory>
#include <string>

#include "conformance/port_stats/port_stats.hpp"
#include "conformance/process/adapter_process.hpp"
#include "stats/battery/verdict.hpp"

namespace acemq::conformance {

struct Fleet {
  std::unique_ptr<AdapterProcess> first;  // goes on to draw the run
  stats::FleetOutcome outcome;
};

// Empty when all answered; otherwise what went wrong, for exit 2.
std::string start_fleet(const PortStatsOptions& options, Fleet& fleet);

}  // namespace acemq::conformance
