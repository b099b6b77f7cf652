// The pod sets the report compares (docs/sim.md "Pod sets"): every figure about pods is given
// for the same sets in every run, so Karpenter's and Cluster Autoscaler's numbers cover pods
// that exist for the same reason. A pod belongs to the set of why it was created.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace karpenter::sim {

enum class PodSet {
  kWorkload,      // created by the scenario's workload steps (apply, scale, job arrivals)
  kMigration,     // replacing pods the operator's steps (drainNodeGroup) took away
  kDisruption,    // replacing pods the autoscaler's own scale-down or disruption took away
  kInterruption,  // replacing pods lost to reclaimed or interrupted instances
};

inline constexpr size_t kPodSetCount = 4;
inline constexpr std::array<PodSet, kPodSetCount> kPodSets = {
    PodSet::kWorkload, PodSet::kMigration, PodSet::kDisruption, PodSet::kInterruption};

// The set's `--json` key.
constexpr std::string_view PodSetName(PodSet set) {
  switch (set) {
    case PodSet::kWorkload:
      return "workload";
    case PodSet::kMigration:
      return "migration";
    case PodSet::kDisruption:
      return "disruption";
    case PodSet::kInterruption:
      return "interruption";
  }
  return "";
}

}  // namespace karpenter::sim
