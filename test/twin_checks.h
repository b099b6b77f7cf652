// The expectations of a twin scenario (test/scenarios/README.md, "Twin scenarios") checked
// against the event log of `karpenter sim --events`: behaviours that only show over time, such
// as the 15 s re-validation of a command and the orchestration of its replacements, pinned as
// files the way `plan` scenarios pin single decisions.
#pragma once

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "yaml-cpp/yaml.h"

namespace karpenter::scenario {

// Reads `--events` output: one JSON object per line. A line that is not an object is reported
// in `problems` and skipped.
std::vector<nlohmann::json> ParseEventLines(const std::string& text,
                                            std::vector<std::string>& problems);

// One message per failed expectation of `expect` (keys `events`, `absent`, `counts`); empty when
// all hold. A malformed expectation is a failure too, so a typo cannot pass silently.
std::vector<std::string> CheckTwinEvents(const YAML::Node& expect,
                                         const std::vector<nlohmann::json>& events);

}  // namespace karpenter::scenario
