#include "conformance/port_stats/fleet_start.hpp"

#include <chrono>
#include <cstddef>
#include <vector>

#include "conformance/port_stats/echo.hpp"
#include "conformance/port_stats/requests.hpp"
#include "conformance/port_stats/sample_answer.hpp"
#include "conformance/protocol/wire.hpp"
#include "stats/battery/fleet.hpp"

namespace acemq::conformance {

namespace stats = acemq::stats;

std::string start_fleet(const PortStatsOptions& options, Fleet& fleet) {
  const auto size = static_cast<std::size_t>(options.processes);
  std::vector<std::unique_ptr<AdapterProcess>> processes;
  const auto which = [&](std::size_t p) {
    return "process " + std::to_string(p + 1) + " of the " + std::to_string(size) +
           " started at once (a fleet restarts together; an adapter must run as many processes "
           "at once)";
  };
  const auto begun = std::chrono::steady_clock::now();
  for (std::size_t p = 0; p < size; ++p) {
    std::string error;
    processes.push_back(AdapterProcess::start(options.command, error));
    if (!processes.back()) return "cannot start " + which(p) + ": " + error;
  }
  const std::string request =
      "{\"id\":0" + exact_cell_prefix() + std::to_string(stats::kFleetDraws) + "}";
  for (std::size_t p = 0; p < size; ++p) {
    const AdapterProcess::Outcome sent = processes[p]->send(request, options.timeout);
    if (sent != AdapterProcess::Outcome::answered) {
      return which(p) + ": the adapter " + processes[p]->failure(sent, options.timeout) +
             "\n  request: " + clip(request);
    }
  }
  std::string line;
  fleet.outcome.draws.assign(size, std::vector<double>(stats::kFleetDraws));
  for (std::size_t p = 0; p < size; ++p) {
    const AdapterProcess::Outcome got = processes[p]->receive(line, options.timeout);
    if (got != AdapterProcess::Outcome::answered) {
      return which(p) + ": the adapter " + processes[p]->failure(got, options.timeout) +
             "\n  request: " + clip(request);
    }
    std::vector<double>& r = fleet.outcome.draws[p];
    if (const std::string wrong = read_sample_answer(line, 0, r); !wrong.empty()) {
      return which(p) + ": the adapter " + wrong + "\n  request: " + clip(request) +
             "\n  answer: " + clip(line);
    }
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double delay = r[k];
      r[k] = delay / 2;  // exact: the exact cell's delay is 2r
      if (!(delay >= 0.0 && delay < 2.0)) {
        if (fleet.outcome.outside++ < 3) {
          fleet.outcome.outside_shown +=
              std::string(fleet.outcome.outside_shown.empty() ? "" : ", ") + format_number(delay) +
              " (process " + std::to_string(p + 1) + ", draw " + std::to_string(k + 1) + ")";
        }
      }
    }
  }
  for (std::size_t p = 1; p < size; ++p) {
    const ProcessEnding ending = processes[p]->finish(std::chrono::milliseconds(5000));
    if (!ending.clean()) {
      return which(p) + ": at the end of its input it ended with " + ending.text() +
             ", not exit status 0";
    }
  }
  fleet.first = std::move(processes.front());
  fleet.outcome.result = stats::analyze_fleet(fleet.outcome.draws, options.min_bits);
  fleet.outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
  return "";
}

}  // namespace acemq::conformance
