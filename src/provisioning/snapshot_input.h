// From a cluster snapshot to the scheduler's input (upstream provisioner.go Schedule and
// NewScheduler): ready NodePools with their instance types from the embedded catalog, existing
// nodes and in-flight NodeClaims with what is already bound to them, daemonset overhead, and the
// pods to place (pending pods plus the reschedulable pods of deleting nodes).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/time.h"
#include "src/provisioning/node_class_catalog.h"
#include "src/provisioning/types.h"
#include "src/state/pending.h"
#include "src/state/snapshot.h"

namespace karpenter::provisioning {

// What the pods bound to each node charge it (requests, daemonset requests, host ports), kept
// between the scheduler inputs a host builds from successive snapshots that share their pods (the
// twin's): a node whose bound pods are the very objects of the last input is charged from here
// instead of summing them again. Entries hold their pods, so no other pod can take a remembered
// address; nodes with running pods that claim volumes are always summed afresh, since what a
// volume counts against depends on the snapshot's claims. Only saves work: inputs are the same with
// or without it.
class BoundPodCharges {
 public:
  struct Charge {
    api::ResourceList requested;
    api::ResourceList daemon_requested;
    std::vector<api::ContainerPort> host_ports_used;
    std::vector<const api::Pod*> live_pods;  // Not Succeeded or Failed, in the node's order.
  };

  // An input starts: Find and Remember mark the nodes it uses.
  void StartInput() { ++input_; }
  // The remembered charge of `node` when its bound pods are exactly `pods`, else nullptr.
  const Charge* Find(const std::string& node, const std::vector<const state::SharedPod*>& pods);
  void Remember(const std::string& node, const std::vector<const state::SharedPod*>& pods,
                Charge charge);
  // Forgets the nodes the input since StartInput did not use (deleted ones).
  void ForgetUnused();
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::vector<state::SharedPod> pods;
    Charge charge;
    uint64_t input = 0;  // the last input that used it
  };
  std::map<std::string, Entry, std::less<>> entries_;
  uint64_t input_ = 0;
};

struct PlanOptions {
  SchedulerOptions scheduler;
  // When the plan is evaluated: decides whether a time-limited `karpenter.sh/do-not-disrupt`
  // still pins a pod to its deleting node.
  api::Time now;
  // The region whose embedded catalog prices and places NodeClaims; empty: us-east-1.
  std::string region;
  // How spot offerings are priced (DescribeSpotPriceHistory is not asked).
  cloudprovider::SpotPriceModel spot_prices = cloudprovider::DefaultSpotPriceModel();
  // Not owned; null: every node's bound pods are summed.
  BoundPodCharges* bound_pod_charges = nullptr;
  // Provider IDs of nodes a disruption command has started on (the in-cluster controller's
  // deletion marks): their capacity is not offered and their pods are planned for, as for
  // deleting nodes.
  std::set<std::string> marked_for_deletion;
  // `karpenter plan --catalog`: every NodePool launches these types instead of the embedded
  // catalog's, whatever its nodeClassRef says (a pool needs no EC2NodeClass then, as under
  // upstream's fake cloud provider). Their extra label keys go in
  // scheduler.well_known_labels.
  std::optional<SharedVector<InstanceTypeView>> instance_types;
  // The host fills every ready NodePool's instance types itself (the controllers, from the cloud
  // provider): the pools come out with none, and the embedded catalog's views of their node
  // classes are neither built nor kept, which a controller would pay for in memory.
  bool host_supplies_node_pool_types = false;
  // Which unbound pods are planned for: the in-cluster controller and the twin's Karpenter take
  // only those kube-scheduler marked unschedulable, as upstream; offline plans take every
  // unbound pod (a snapshot's may never have met a scheduler).
  state::PendingRule pending = state::PendingRule::kUnbound;
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
// NodeClaims whose size cannot be told. With `options.instance_types` only pools being deleted
// are left out. Fails only when the embedded catalog cannot be loaded or
// a class names an unknown AMI family.
absl::StatusOr<SnapshotSchedulerInput> BuildSchedulerInput(const state::ClusterSnapshot& snapshot,
                                                           const PlanOptions& options,
                                                           CatalogCache& catalogs);

}  // namespace karpenter::provisioning
