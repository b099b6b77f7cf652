// `karpenter bench disruption --nodes N[,N...] [--seed S] [--json] [--until-stable]`: one
// disruption decision on a churned cluster (nodes 30–60 % utilised by CPU, m5/c5/r5 on-demand,
// each node with its type's allocatable from the embedded catalog): how long ComputeDisruption
// takes, what it decides, $/h before and after that one command, and the fluid LP lower bound on
// $/h (the cheapest fractional mix of the pool's types covering the pods' CPU, memory and pod
// count). It also times each consolidation method alone on the same cluster (`multiNode`,
// `singleNode`: the decision with the other one marked consolidated), since the first decision
// is usually multi-node's and single-node's cost would otherwise go unseen. Real time is read
// here, in the host, never in the engine.
//
// --until-stable applies the commands to the snapshot (disruption::ApplyCommands) and decides
// again until nothing is left to do: rounds, the summed and the longest decision time (wall and
// thread CPU) and the steady-state $/h. --consolidation-search extended adds the opt-in grouped
// search (extended_consolidation.h); --multi-node-candidates sets multi-node consolidation's
// candidate cap (0 lifts it); --breakdown adds where the steady state's cost above the bound goes
// (bench::BreakDownGap); --trace writes one line per decision to stderr as it is taken (what it
// decided, the cluster's nodes and $/h it decided on, its wall and CPU time), so a run stopped
// early still says how far it got and where the long decisions were.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace karpenter::cli {

// The largest cluster `--nodes` builds: ten times the largest size measured in the README, well
// within a 2-core machine's memory; larger sizes are refused before anything is allocated.
inline constexpr int kMaxBenchNodes = 10'000;

struct BenchDisruptionOptions {
  std::vector<int> nodes = {100};
  uint64_t seed = 1;
  bool json = false;
  std::string output = "text";  // -o: json | yaml | text | wide
  bool until_stable = false;
  bool breakdown = false;
  bool trace = false;
  std::string consolidation_search = "upstream";
  // Multi-node consolidation's candidate cap (upstream: 100); 0 lifts it.
  int multi_node_candidates = 100;
};

// Adds `disruption` under the existing `bench` subcommand.
void AddBenchDisruptionCommand(CLI::App& bench, BenchDisruptionOptions& options, int& exit_code);

}  // namespace karpenter::cli
