// From a cluster snapshot to the scheduler's input (upstream provisioner.go Schedule and
// NewScheduler): ready NodePools with their instance types from the embedded catalog, existing
// nodes and in-flight NodeClaims with what is already bound to them, daemonset overhead, and the
// pods to place (pending pods plus the reschedulable pods of deleting nodes).
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/time.h"
#include "src/provisioning/node_class_catalog.h"
#include "src/provisioning/types.h"
#include "src/state/snapshot.h"

namespace karpenter::provisioning {

struct PlanOptions {
  SchedulerOptions scheduler;
  // When the plan is evaluated: decides whether a time-limited `karpenter.sh/do-not-disrupt`
  // still pins a pod to its deleting node.
  api::Time now;
  // How spot offerings are priced (DescribeSpotPriceHistory is not asked).
  cloudprovider::SpotPriceModel spot_prices = cloudprovider::DefaultSpotPriceModel();
};

// A pod the plan will not place, with why.
struct UnschedulablePod {
  std::string pod;  // "namespace/name"
  std::string reason;
  friend bool operator==(const UnschedulablePod&, const UnschedulablePod&) = default;
};

struct SnapshotSchedulerInput {
  SchedulerInput input;
  // Pending pods Karpenter refuses to provision for (state::SelectPendingPods), in snapshot order.
  std::vector<UnschedulablePod> ignored_pods;
  // Why a NodePool, node or NodeClaim was left out ("nodepool \"x\" is not ready: ..."), sorted.
  std::vector<std::string> warnings;
  // The NodePool part of `warnings`: pools that exist but cannot launch. A pod nothing else can
  // take is told about them, since fixing the pool may be what it needs.
  std::vector<std::string> not_ready_node_pools;
};

// The scheduler input for `snapshot`. NodePools that are being deleted or whose EC2NodeClass is
// missing are left out with a warning (upstream treats them as not ready); so are in-flight
// NodeClaims whose size cannot be told. Fails only when the embedded catalog cannot be loaded or
// a class names an unknown AMI family.
absl::StatusOr<SnapshotSchedulerInput> BuildSchedulerInput(const state::ClusterSnapshot& snapshot,
                                                           const PlanOptions& options,
                                                           CatalogCache& catalogs);

}  // namespace karpenter::provisioning
