// The protocol's description: its one table (request.hpp's ops and their
// members, policy_spec.hpp's forms and members, limits.hpp's limits,
// refusals.hpp's refusals) as one JSON document, for what is not C++ to
// read: `retry-policy protocol` prints it, conformance/protocol/protocol.json
// is it as committed (a test holds the two equal), and the docs' and the
// adapters' tests read that file, so a change to the table shows in every
// language's review.
#pragma once

#include <nlohmann/json.hpp>

namespace acemq::conformance {

nlohmann::ordered_json protocol_description();

}  // namespace acemq::conformance
