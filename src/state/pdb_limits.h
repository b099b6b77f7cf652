// Upstream: pkg/utils/pdb/pdb.go (kubernetes-sigs/karpenter)
// Which PodDisruptionBudgets stand in the way of evicting a pod: disruption candidates need every
// evictable pod covered by at most one PDB that still allows a disruption (D2, D12), and
// provisioning does not plan capacity for pods whose PDB can never allow one (P4).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "src/api/pod.h"
#include "src/api/policy.h"
#include "src/api/time.h"

namespace karpenter::state {

class PdbLimits {
 public:
  // What stops an eviction: a PDB with no disruption allowed right now, or only a PDB that can
  // never allow one (maxUnavailable 0 or "0%", minAvailable "100%").
  enum class Blocker { kZeroDisruptions, kFullyBlocking };

  explicit PdbLimits(std::span<const api::PodDisruptionBudget> budgets);

  // "namespace/name" of the PDBs blocking the eviction of `pod` (empty when it may be evicted).
  // Pods Karpenter would not evict anyway (see IsEvictable) are never blocked. A pod matched by
  // more than one PDB is blocked by all of them, as the eviction API refuses it. With
  // unhealthyPodEvictionPolicy AlwaysAllow, a pod whose Ready condition is False passes.
  std::vector<std::string> BlockingBudgets(const api::Pod& pod, api::Time now,
                                           Blocker blocker) const;

  // No budget can ever let the pod go.
  bool IsFullyBlocked(const api::Pod& pod, api::Time now) const {
    return !BlockingBudgets(pod, now, Blocker::kFullyBlocking).empty();
  }

  // Reschedulable, not protected by do-not-disrupt, and not fully PDB-blocked: the pod will move
  // when its node goes away, so replacement capacity is worth planning.
  bool IsCurrentlyReschedulable(const api::Pod& pod, api::Time now) const;

 private:
  struct Budget {
    std::string key;  // namespace/name
    const api::PodDisruptionBudget* pdb;
    bool fully_blocking;
    bool always_allow_unhealthy;
  };
  std::vector<Budget> budgets_;
};

// maxUnavailable 0 / "0%" or minAvailable "100%": no eviction is ever admitted.
bool IsFullyBlockingBudget(const api::PodDisruptionBudget& budget);

}  // namespace karpenter::state
