// `karpenter bench scheduling --pods N[,N...] [--preferences respect|ignore | --workload
// hostname-spread] [--json]`: cold solves of upstream Karpenter's scheduling benchmark workload
// (or this project's hostname-spread replicas) over its 400-type fake catalog,
// each next to the lower bounds any placement must respect (src/bench/scheduling_run.h). Real
// time and the process's peak RSS are read here, in the host, never in the engine.
// `--pods-file FILE [--catalog fake400|FILE]` solves a given workload instead and prints its
// decisions (docs/differential.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "src/bench/benchmark_pods.h"

namespace karpenter::cli {

struct BenchSchedulingOptions {
  std::vector<int> pods = {1000};
  std::string preferences;           // "" (the diverse mix), "respect" or "ignore"
  std::string workload = "diverse";  // --workload: diverse | hostname-spread
  uint64_t seed = bench::kDefaultPodSeed;
  bool json = false;
  std::string output = "text";          // -o: json | yaml | text | wide
  std::string packing = "upstream";     // provisioning::PackingPolicy: upstream | cost
  std::string claim_ties = "upstream";  // provisioning::ClaimTieOrder: upstream | creation
  bool breakdown = false;
  // Differential runs: a manifest of the workload, and "fake400" or a catalog file.
  std::string pods_file;
  std::string catalog = "fake400";
  std::string min_values_policy = "Strict";
};

void AddBenchCommand(CLI::App& app, BenchSchedulingOptions& options, int& exit_code);

}  // namespace karpenter::cli
