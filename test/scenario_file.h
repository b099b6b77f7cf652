// Scenario files for `karpenter plan` (test/scenarios/README.md): one YAML stream whose first
// document is a header (description, CLI arguments, expectations) and whose remaining documents
// are the cluster snapshot handed to the product unchanged.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "yaml-cpp/yaml.h"

namespace karpenter::scenario {

struct Scenario {
  std::string name;  // File stem.
  std::string path;
  std::string description;
  // Items of karpenter-features.md §10 the scenario pins down.
  std::vector<int> behaviours;
  // Non-empty: the engine is known to be wrong here (or not written yet); the runner skips.
  std::string pending;
  // Evaluation time (RFC 3339) passed as `--now`; empty: the runner's fixed default.
  std::string now;
  // Extra `karpenter plan` arguments, e.g. ["--preference-policy", "Ignore"].
  std::vector<std::string> args;
  // Every document after the header, verbatim.
  std::string snapshot;
  YAML::Node expect;
};

// Splits and parses one scenario file; InvalidArgument when it has no header or no snapshot, or
// the header is not valid YAML.
absl::StatusOr<Scenario> LoadScenario(const std::string& path);

// The scenario files of `directory` (*.yaml), sorted by name.
std::vector<std::string> ListScenarioFiles(const std::string& directory);

// A GoogleTest name for the scenario file at `path`: its stem, every character that is not a
// letter or digit made `_`.
std::string ScenarioTestName(const std::string& path);

}  // namespace karpenter::scenario
