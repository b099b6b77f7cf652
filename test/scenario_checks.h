// The expectations of a scenario header checked against `karpenter plan -o json` output
// (docs/contracts.md). test/scenarios/README.md documents every key.
#pragma once

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "src/cloudprovider/catalog.h"
#include "yaml-cpp/yaml.h"

namespace karpenter::scenario {

// One message per failed expectation, naming the expectation and quoting the part of the plan
// it looked at; empty when everything holds. `catalog` resolves instance-type labels for the
// `instanceTypes.match` and `launchMatch` expectations.
std::vector<std::string> CheckExpectations(const YAML::Node& expect, const nlohmann::json& plan,
                                           const cloudprovider::Catalog& catalog);

// The claim assertions of test/scenarios/README.md on one NodeClaim object of `plan` (a plan
// `nodeClaims` entry or a disruption replacement); failures are prefixed with `name`.
std::vector<std::string> CheckClaimExpectations(const std::string& name, const YAML::Node& spec,
                                                const nlohmann::json& claim,
                                                const nlohmann::json& plan,
                                                const cloudprovider::Catalog& catalog);

}  // namespace karpenter::scenario
