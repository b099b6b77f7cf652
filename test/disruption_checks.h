// The disruption expectations of a scenario header (test/scenarios/README.md, "Disruption")
// checked against `karpenter plan --disruption -o json` output: the commands issued, in order,
// and the nodes blocked with their reasons.
#pragma once

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "src/cloudprovider/catalog.h"
#include "yaml-cpp/yaml.h"

namespace karpenter::scenario {

// One message per failed expectation; empty when all hold (or none is about disruption).
std::vector<std::string> CheckDisruptionExpectations(const YAML::Node& expect,
                                                     const nlohmann::json& plan,
                                                     const cloudprovider::Catalog& catalog);

}  // namespace karpenter::scenario
