// The scheduler's inputs and outputs (upstream provisioning/scheduling Scheduler.Solve): a plain,
// provider-agnostic view of NodePools, their instance types, existing nodes, daemonsets and
// pending pods, and the NodeClaims, placements and errors a solve produces. The views are
// deliberately small so the cluster snapshot and the cloud catalog can be adapted onto them.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/api/nodepool.h"
#include "src/api/pod.h"
#include "src/api/resource_list.h"
#include "src/api/taint.h"
#include "src/provisioning/shared_labels.h"
#include "src/provisioning/shared_vector.h"
#include "src/scheduling/requirements.h"
#include "src/scheduling/well_known_labels.h"
#include "src/state/volume_usage.h"

namespace karpenter::provisioning {

// One (zone, capacity type) an instance type can be launched in; reserved offerings are one per
// capacity reservation.
struct OfferingView {
  std::string zone;
  std::string capacity_type;  // on-demand | spot | reserved
  double price = 0;
  bool available = true;
  // Reserved offerings only: the reservation's karpenter.k8s.aws/capacity-reservation-id, -type
  // and -interruptible label values (the other offerings have none of those labels), and how
  // many more instances it takes.
  std::string reservation_id;
  std::string reservation_type;
  bool reservation_interruptible = false;
  int64_t reservation_capacity = 0;

  bool reserved() const { return !reservation_id.empty(); }
};

// An instance type as the scheduler sees it.
struct InstanceTypeView {
  std::string name;
  // Built from the type's labels plus its offerings' zones and capacity types.
  scheduling::Requirements requirements;
  // What pods may use: capacity net of kube/system reserved and eviction thresholds.
  api::ResourceList allocatable;
  // Raw capacity, charged against NodePool limits; empty means "same as allocatable".
  api::ResourceList capacity;
  std::vector<OfferingView> offerings;
};

// A node (or an in-flight NodeClaim without a node yet) already in the cluster.
struct ExistingNodeView {
  std::string name;
  SharedLabels labels;  // shared with the snapshot's Node when read from one
  std::vector<api::Taint> taints;
  api::ResourceList allocatable;
  // Charged against its NodePool's limits (a `nodes: 1` is added); empty means allocatable.
  api::ResourceList capacity;
  // Requests of every pod already bound to the node, daemonset pods included.
  api::ResourceList requested;
  // The part of `requested` that belongs to daemonset pods; the scheduler reserves only the
  // compatible daemonsets' requests beyond it.
  api::ResourceList daemon_requested;
  std::vector<api::ContainerPort> host_ports_used;
  // CSI attach limits from the node's CSINode (driver -> most volumes), and the volumes its
  // bound pods already mount (P14). New nodes have no CSINode yet, so no limits.
  std::map<std::string, int64_t> volume_limits;
  state::VolumesByDriver volumes_in_use;
  bool initialized = true;
  // Launched by Karpenter (has a NodeClaim); uninitialized managed nodes ignore ephemeral and
  // startup taints, since those are expected to go away.
  bool managed = false;
  // Still inside its NodePool's consolidateAfter window: a consolidation simulation must not move
  // the pods of `SchedulerInput::moving_pods` onto it (D5), though pending pods may still land.
  bool under_consolidate_after = false;
};

enum class PreferencePolicy { kRespect, kIgnore };
enum class MinValuesPolicy { kStrict, kBestEffort };
// What a pod does when reserved offerings it could use exist but every one is held by other
// NodeClaims of the solve (upstream ReservedOfferingMode). Provisioning is strict: the pod waits
// for reserved capacity (a ReservedOfferingError), never falling back to on-demand, spot or a
// lower-weight NodePool, and its preferences are not relaxed. Disruption simulations fall back,
// since they must place every moved pod in one solve.
enum class ReservedOfferingMode { kFallback, kStrict };

// How a solve packs pods onto the NodeClaims it opens. kUpstream makes upstream's decisions: pods
// by cpu then memory, each on the claim with the fewest pods that takes it, which spreads pods
// thinly. kCost, opt-in and not upstream behaviour, places pods with a required anti-affinity term
// first (they force claims apart), then tries each pod on the claims whose cheapest remaining type
// still holds it, least room left first, before upstream's order (packing_order.h). Every
// placement passes the same checks, so only the choice among valid placements differs.
enum class PackingPolicy { kUpstream, kCost };

// Which of several NodeClaims holding as many pods a pod tries first. kUpstream: the order Go's
// `sort.Slice` leaves them in, since upstream re-sorts its claims by pod count before every pod
// with that unstable sort (claim_order.h). kCreation, opt-in and not upstream behaviour: the claim
// opened first.
enum class ClaimTieOrder { kUpstream, kCreation };

struct SchedulerOptions {
  PreferencePolicy preference_policy = PreferencePolicy::kRespect;
  PackingPolicy packing = PackingPolicy::kUpstream;
  ClaimTieOrder claim_ties = ClaimTieOrder::kUpstream;
  MinValuesPolicy min_values_policy = MinValuesPolicy::kStrict;
  ReservedOfferingMode reserved_offering_mode = ReservedOfferingMode::kStrict;
  // Keys a NodePool may leave undefined while pods still select on them.
  scheduling::WellKnownLabels well_known_labels = scheduling::WellKnownLabels::CoreAndAws();
};

// The instance types one NodePool may launch.
struct NodePoolInstanceTypes {
  api::NodePool node_pool;  // Already defaulted.
  // Shared with the catalog cache and every copy of the input until one is modified (a host
  // marking offerings unavailable): hundreds of types are not copied per plan or simulation.
  SharedVector<InstanceTypeView> instance_types;
};

struct SchedulerInput {
  std::vector<NodePoolInstanceTypes> node_pools;
  std::vector<ExistingNodeView> existing_nodes;
  // One pod per daemonset (a live pod or one built from the template).
  std::vector<api::Pod> daemonset_pods;
  std::vector<api::Pod> pending_pods;
  // Pods already bound to a node (spec.nodeName set): topology spread and pod (anti-)affinity
  // count them in their node's domains. Their requests are already in
  // ExistingNodeView::requested. Not owned: a cluster's tens of thousands of pods stay in its
  // snapshot (or the caller's storage), which must outlive the input.
  std::vector<const api::Pod*> bound_pods;
  // "namespace/name" of pending pods that a disruption simulation moves off candidate nodes;
  // they never land on a node marked `under_consolidate_after`. Empty outside simulations.
  std::set<std::string> moving_pods;
  // Names of existing nodes a disruption simulation takes away: the solve treats them, and the
  // pods bound to them, as absent from `existing_nodes` and `bound_pods`. One input then serves
  // every simulation without copying the cluster. Empty outside simulations.
  std::set<std::string, std::less<>> removed_nodes;
  // Set by a disruption simulation whose move is rejected as soon as one moving pod lands on a
  // NodeClaim of the solve or on an uninitialized node: the solve stops at that pod, names it in
  // SchedulerResult::stopped_at and leaves the rest of its result partial.
  bool stop_on_moving_pod_off_initialized = false;
  // The volumes of pending pods with persistent volumes, by PodKey (P14).
  std::map<std::string, state::VolumesByDriver> pod_volumes;
  SchedulerOptions options;
};

// A NodeClaim the solve wants launched.
struct NewNodeClaim {
  std::string node_pool;
  // Template and pod requirements intersected, with the instance-type and capacity-type
  // requirements narrowed to what the chosen types offer.
  scheduling::Requirements requirements;
  // Compatible types, cheapest (by cheapest compatible available offering) first, at most 600.
  // Shared with the solve's other claims that ended with the same types.
  SharedVector<std::string> instance_types;
  std::vector<std::string> capacity_types;  // Sorted.
  std::vector<std::string> zones;           // Sorted.
  std::vector<std::string> pods;            // "namespace/name", in placement order.
  // Template labels, karpenter.sh/nodepool, and a value for every requirement on a key that is
  // neither well-known nor restricted (e.g. a custom label a pod selected with In).
  std::map<std::string, std::string> labels;
  // Pod requests plus the smallest daemonset overhead among the remaining types.
  api::ResourceList requests;
  // MIN_VALUES_POLICY=BestEffort lowered some minValues (annotation
  // karpenter.sh/nodeclaim-min-values-relaxed).
  bool min_values_relaxed = false;
  // The remaining instance types themselves, in `instance_types` order, for launch prediction.
  // They point into the SchedulerInput's node pools: valid only while that input lives.
  SharedVector<const InstanceTypeView*> instance_type_options;
};

struct SchedulerResult {
  std::vector<NewNodeClaim> new_node_claims;                           // Creation order.
  std::map<std::string, std::vector<std::string>> existing_node_pods;  // Node -> pod keys.
  std::map<std::string, std::string> unschedulable;                    // Pod key -> reason.
  // The moving pod the solve stopped at (SchedulerInput::stop_on_moving_pod_off_initialized);
  // empty when it ran to the end.
  std::string stopped_at;
};

}  // namespace karpenter::provisioning
