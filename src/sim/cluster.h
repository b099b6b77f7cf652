// The emulated EKS cluster: instances and their Nodes (booting → registered → Ready →
// terminated), pods (pending → bound), the Deployment and DaemonSet controllers, cordon and
// eviction, the Karpenter objects a run applies (NodePools, EC2NodeClasses, NodeClaims), and
// per-second cost accounting. Autoscalers and the kube-scheduler model act on it; it knows
// nothing of how they decide.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/manifest.h"
#include "src/provisioning/snapshot_input.h"
#include "src/sim/ec2.h"
#include "src/sim/event_queue.h"
#include "src/sim/events.h"
#include "src/sim/latency.h"
#include "src/sim/pod_sets.h"
#include "src/sim/pod_store.h"
#include "src/sim/random.h"
#include "src/state/snapshot.h"

namespace karpenter::sim {

inline constexpr char kNodeGroupLabelKey[] = "eks.amazonaws.com/nodegroup";
inline constexpr char kNotReadyTaintKey[] = "node.kubernetes.io/not-ready";
inline constexpr char kUnschedulableTaintKey[] = "node.kubernetes.io/unschedulable";

// What an autoscaler asks EC2 to run.
struct InstanceRequest {
  std::string instance_type;
  std::string zone;
  std::string capacity_type;  // on-demand | spot
  double price = 0;
  std::string node_group;  // the ASG/MNG owning it, or empty
  std::string node_claim;  // the Karpenter NodeClaim owning it, or empty
  // Labels and taints the node registers with, beyond the instance type's own labels.
  std::map<std::string, std::string> labels;
  std::vector<api::Taint> taints;
  // When the autoscaler decided to add capacity: node-ready time is measured from here.
  SimMillis requested_at = 0;
  // What the kubelet reports when its configuration differs from the catalog's defaults (an
  // EC2NodeClass's kubelet maxPods or reservations); empty: the catalog type's.
  api::ResourceList allocatable;
  api::ResourceList capacity;
};

enum class NodePhase { kBooting, kRegistered, kReady, kTerminated };

struct Instance {
  std::string id;        // i-0000000000000001
  uint64_t ordinal = 0;  // 1 for the first instance of the run; names its node
  InstanceRequest request;
  NodePhase phase = NodePhase::kBooting;
  bool initial = false;  // present at t=0; not measured
  SimMillis launched_at = 0;
  SimMillis ready_at = -1;
  SimMillis terminated_at = -1;
  api::Node node;  // meaningful once registered
  // Why pods leave it if it goes: the autoscaler's own decision unless the operator's drain or
  // an interruption claimed it first (SetRemovalCause). Their replacements join this set.
  PodSet removal_cause = PodSet::kDisruption;
};

// One pod set's figures (pod_sets.h).
struct PodSetCounters {
  size_t pods = 0;                      // pods created in the set
  std::vector<double> pending_seconds;  // creation to bind, for every pod of the set that bound
  // The same for those of them kube-scheduler found no node for at least once: the pods that
  // waited for the autoscaler.
  std::vector<double> waited_pending_seconds;
  // Pods taken away for the set's reason: evicted (the eviction API or a forced drain) or lost
  // with their instance. Their replacements are the set's pods.
  int64_t evictions = 0;
};

// Cost and instances of one capacity type (on-demand, spot).
struct CapacityTypeCounters {
  double price_per_hour = 0;
  double cost_dollar_seconds = 0;  // ∫ price/hour dt, in $·s/h
  size_t nodes = 0;                // instances billed now
  size_t max_nodes = 0;
};

// Totals the report needs, kept as the run goes.
struct ClusterCounters {
  // Measured pods that waited for capacity (kube-scheduler found no node for them at least
  // once), creation to bind; pods bound at once on existing capacity are not autoscaler work.
  std::vector<double> pod_pending_seconds;
  std::vector<double> node_ready_seconds;  // non-initial instances, at Ready
  int64_t evictions = 0;
  int64_t nodes_terminated = 0;    // by scale-down, disruption, interruption or liveness
  double cost_dollar_seconds = 0;  // ∫ price/hour dt, in $·s/h
  size_t max_instances = 0;
  std::array<PodSetCounters, kPodSetCount> pod_sets;
  std::map<std::string, CapacityTypeCounters> by_capacity_type;
};

// Upstream: five minutes (pkg/controllers/state/cluster.go).
inline constexpr SimMillis kConsolidationStateRefreshMillis = 5 * 60 * 1000;
// kube-scheduler's podMaxInUnschedulablePodsDuration: a pod waits at most this long in the
// unschedulable queue before it is retried without any cluster event.
inline constexpr SimMillis kPodMaxInUnschedulableMillis = 5 * 60 * 1000;

// How long a Job's pods run once bound: an annotation on the Job (the twin has no containers to
// run), in seconds; kDefaultJobRunSeconds without it.
inline constexpr char kJobRunSecondsAnnotation[] = "sim.karpenter.sh/run-seconds";
inline constexpr double kDefaultJobRunSeconds = 300;
// The annotation's value: a plain decimal number of seconds ("600", "2.5"); nothing else, so that
// "0x10", "1e3", "nan" or " 5" are refused rather than read in some other notation.
std::optional<double> ParseJobRunSeconds(std::string_view text);

class Cluster {
 public:
  Cluster(EventQueue& queue, Random& random, const LatencyModel& latency, EventLog& log,
          const Ec2& ec2, std::vector<std::string> zones);

  // --- objects ---
  // Creates or replaces: Deployments are reconciled to their replicas, Jobs run their pods
  // (each for the Job's `sim.karpenter.sh/run-seconds` annotation, default 300 s, once bound;
  // `parallelism` at a time until `completions` succeeded), DaemonSets land on every
  // compatible node, NodePools and EC2NodeClasses are stored (classes get status.subnets for the
  // scenario's zones, as subnet discovery would). InvalidArgument for kinds the twin does not run.
  absl::Status Apply(api::Object object, bool initial);
  absl::Status ScaleDeployment(const std::string& key, int replicas);
  // StatefulSets (cluster_statefulsets.cc): pods `<name>-<ordinal>`; OrderedReady (the default)
  // creates one pod at a time, the next once the previous is Running (bound; the twin has no
  // readiness probes) and removes them from the highest ordinal down; Parallel does both at
  // once. An evicted pod comes back under its own name. volumeClaimTemplates are refused: the
  // twin has no PersistentVolumes to hold a replica in its zone.
  absl::Status ScaleStatefulSet(const std::string& key, int replicas);
  absl::Status DeleteDeployment(const std::string& key);
  void PutNodeClaim(api::NodeClaim node_claim);
  void DeleteNodeClaim(const std::string& name);
  // Sets the NodeClaim's deletionTimestamp (its termination has started): the engine no longer
  // picks its node as a disruption candidate nor counts it as capacity, and its pods count as
  // pods to reschedule. False if it is gone or already deleting.
  bool MarkNodeClaimDeleting(const std::string& name);
  const api::NodeClaim* FindNodeClaim(const std::string& name) const;
  const api::NodePool* FindNodePool(const std::string& name) const;
  const api::EC2NodeClass* FindNodeClass(const std::string& name) const;
  // The cluster seam's writes (twin_cluster_writer.h) store these whole, as the API server
  // would, and remove them once their last finalizer is gone. Remove* return false if there is
  // no such object.
  void PutNodePool(api::NodePool pool);
  void PutNodeClass(api::EC2NodeClass node_class);
  bool RemoveNodePool(const std::string& name);
  bool RemoveNodeClass(const std::string& name);
  // Replaces a registered Node's metadata and spec (its status is the kubelet's); the node
  // lifecycle controller's unschedulable taint follows spec.unschedulable. A taint removed, the
  // node uncordoned or its labels changed make kube-scheduler retry the pods it could not place.
  // False if there is no such registered Node.
  bool PutNode(const api::Node& node);

  // --- instances ---
  // Starts an instance: it registers after `instanceBootToRegistered` and turns Ready after
  // `registeredToReady`. With `initial` it is Ready at once. Returns its id.
  std::string LaunchInstance(InstanceRequest request, bool initial = false);
  // Deletes its node (and pods, whose controllers recreate them) and stops billing.
  void TerminateInstance(const std::string& id);
  // Pods evicted from or lost with the instance from now on are replaced in `cause`'s pod set
  // (an operator's drain: kMigration; a spot interruption: kInterruption).
  void SetRemovalCause(const std::string& id, PodSet cause);
  // Marks the node unschedulable (and taints it, as the node lifecycle controller does).
  void Cordon(const std::string& id);
  // Undoes Cordon (a drain that gave up).
  void Uncordon(const std::string& id);
  // Deletes every pod that is not a DaemonSet pod, PDBs or not (a forced drain, as when a
  // terminationGracePeriod runs out or the instance is gone); returns how many.
  int Drain(const std::string& id);
  // The eviction API (cluster_evictions.cc): refuses a pod covered by more than one PDB or by
  // one whose disruptionsAllowed (computed now, as the disruption controller would) is 0;
  // otherwise counts an eviction and deletes the pod gracefully: it stays on its node,
  // terminating, for its terminationGracePeriodSeconds (defaulted to 30) while its controller
  // creates the replacement. A pod already terminating is kNoSuchPod; one covered by more than
  // one PDB is kMultiplePdbs (the API server refuses to pick one).
  enum class Eviction { kEvicted, kBlockedByPdb, kMultiplePdbs, kNoSuchPod };
  Eviction Evict(const std::string& pod_key);
  // DELETE with `grace_seconds` (at least 1), as Karpenter's termination deletes a pod whose
  // own grace period would outlast its node's terminationGracePeriod: not the eviction API, so
  // PDBs do not hold it; counted and replaced as an eviction, logged as PodForceDeleted.
  // kNoSuchPod when it is gone or already terminating.
  Eviction DeleteGracefully(const std::string& pod_key, int64_t grace_seconds);
  // A PDB's status from the pods as they are now: expected and healthy pods (bound to a Ready
  // node), desiredHealthy from minAvailable/maxUnavailable (percentages rounded up) and
  // disruptionsAllowed.
  api::PodDisruptionBudgetStatus PdbStatus(const api::PodDisruptionBudget& pdb) const;
  // Adds a NoSchedule taint to a registered node (kube-scheduler then keeps new pods off it,
  // unless they tolerate it); PutNode removes it. False if there is no such node.
  bool TaintNode(const std::string& node_name, const std::string& key);

  const std::map<std::string, Instance>& instances() const { return instances_; }
  // The applied and created Karpenter and workload objects, by name (namespaced ones by
  // "namespace/name").
  const std::map<std::string, api::NodeClaim>& node_claims() const { return node_claims_; }
  const std::map<std::string, api::NodePool>& node_pools() const { return node_pools_; }
  const std::map<std::string, api::EC2NodeClass>& node_classes() const { return node_classes_; }
  const std::map<std::string, api::DaemonSet>& daemon_sets() const { return daemon_sets_; }
  const std::map<std::string, api::PodDisruptionBudget>& pdbs() const { return pdbs_; }
  const Instance* FindInstanceByNode(const std::string& node_name) const;
  const std::map<std::string, PodRecord>& pods() const { return pods_.all(); }
  // The pods with their indexes and the requests bound to nodes (the report's utilisation).
  const PodStore& pod_store() const { return pods_; }
  // Pods without a node (the run samples it every 10 s).
  size_t unbound_pod_count() const { return pods_.Unbound().size(); }
  // Non-DaemonSet pods bound to the node, by key.
  std::vector<const PodRecord*> WorkloadPodsOn(const std::string& node_name) const;
  // Pods the last scheduling pass could not place, by key.
  std::vector<const PodRecord*> UnschedulablePods() const;
  size_t LiveInstanceCount() const;
  double price_per_hour() const { return price_per_hour_; }

  // The cluster as the engine sees it. `schedulable_only`: just Ready, uncordoned nodes with
  // their pods plus the unbound pods (what kube-scheduler can use); otherwise every registered
  // node and the Karpenter objects too.
  absl::StatusOr<state::ClusterSnapshot> Snapshot(bool schedulable_only) const;
  // The same snapshot, built at most once per generation() and shared: a pass that finds the
  // cluster unchanged since the last one (a disruption poll on a quiet cluster) pays nothing
  // for it.
  absl::StatusOr<std::shared_ptr<const state::ClusterSnapshot>> SharedSnapshot(
      bool schedulable_only) const;
  // Tests: every SharedSnapshot carried over from the last one (RefreshedSnapshot) is compared
  // with one built from scratch (objects and pod index), and the pod store's indexes with a scan;
  // a difference is logged as a SnapshotMismatch event.
  void set_verify_snapshots(bool verify) { verify_snapshots_ = verify; }
  // Shared snapshots made by carrying the last one's pods over rather than built from scratch.
  uint64_t snapshots_carried_over() const { return snapshots_carried_over_; }

  // What an autoscaler's controllers do to a node of theirs at the instant it registers, and at
  // the instant it turns Ready (Karpenter's registration and initialization), before anything
  // else sees it.
  using NodeUpdate = std::function<void(const InstanceRequest& request, api::Node& node)>;
  void set_on_node_registered(NodeUpdate update) { on_node_registered_ = std::move(update); }
  void set_on_node_ready(NodeUpdate update) { on_node_ready_ = std::move(update); }

  // --- watches ---
  // Called with the kind and metadata of every Pod, Node, NodeClaim, NodePool, EC2NodeClass,
  // DaemonSet and PodDisruptionBudget created, changed or deleted from now on (a PDB's status,
  // computed when read, is not announced). Called at the change, which may not be complete
  // yet: read the object later (EventQueue::AtEventEnd). Returns the id RemoveObserver takes.
  using ObjectObserver =
      std::function<void(std::string_view kind, const api::ObjectMeta& metadata)>;
  uint64_t AddObserver(ObjectObserver observer);
  void RemoveObserver(uint64_t id);

  // Called after a scheduling pass that left pods unbound (Karpenter's trigger).
  void set_on_unschedulable(std::function<void()> callback) {
    on_unschedulable_ = std::move(callback);
  }
  // Asks for a kube-scheduler pass `kubeSchedulerBind` from now (coalesced).
  void RequestSchedulingPass();
  // kube-scheduler passes that ran (skipped ones, which could bind nothing, not counted).
  uint64_t scheduling_passes() const { return scheduling_passes_; }

  // Folds the cost up to now into the counters; call before reading them.
  void SettleCost();
  const ClusterCounters& counters() const { return counters_; }

  // --- consolidation state (upstream state.Cluster.ConsolidationState) ---
  // When the cluster last changed in a way that may make it consolidatable: pods binding or
  // going, nodes and NodeClaims appearing, initializing, being marked for deletion or going,
  // NodePools changing. Consolidation methods that found nothing skip until it changes; it
  // also moves on its own `kConsolidationStateRefresh` after the last change, so something
  // the cluster cannot see (a consolidateAfter elapsing, capacity returning) is reconsidered.
  SimMillis ConsolidationState();
  // What ConsolidationState would return now, when asking would not move it; nullopt when it
  // would.
  std::optional<SimMillis> PeekConsolidationState() const {
    if (queue_.now() - unconsolidated_at_ >= kConsolidationStateRefreshMillis) return std::nullopt;
    return unconsolidated_at_;
  }
  void MarkUnconsolidated() {
    unconsolidated_at_ = queue_.now();
    ++generation_;
  }
  // Moves on every change to what Snapshot() returns: equal generations, equal snapshots.
  uint64_t generation() const { return generation_; }

  EventQueue& queue() { return queue_; }
  EventLog& log() { return log_; }
  const Ec2& ec2() const { return ec2_; }
  const LatencyModel& latency() const { return latency_; }
  Random& random() { return random_; }

 private:
  struct JobState {
    api::Job job;
    bool initial = false;
    SimMillis run_millis = 0;
    int32_t succeeded = 0;
  };
  // Creates the pods the Job still needs (parallelism, completions), as the Job controller.
  void ReconcileJob(const std::string& key);
  // A Job pod ran its time: it succeeds and leaves; the Job may start another.
  void CompleteJobPod(const std::string& pod_key, const std::string& uid);

  struct DeploymentState {
    api::Deployment deployment;
    bool initial = false;
    bool scaled = false;  // a step scaled it: its new pods are workload pods
  };

  void ReconcileDeployment(const std::string& key);

  struct StatefulSetState {
    api::StatefulSet stateful_set;
    bool initial = false;
    bool scaled = false;  // a step scaled it: its new pods are workload pods
  };
  absl::Status ApplyStatefulSet(api::StatefulSet stateful_set, bool initial);
  void ReconcileStatefulSet(const std::string& key);
  // A StatefulSet pod turned Running: the controller looks again after `controllerRecreate`.
  void ReconcileStatefulSetLater(const std::string& key);
  void CreatePod(DeploymentState& state, const std::string& key);
  // A pod from `template_spec`, owned by `owner_kind`/`owner_name` (key `key`), pending; named
  // `name` when given, else `<owner_name>-<hash>`. It replaces the owner's oldest pod taken
  // away and joins that pod set; with none to replace it is a workload pod when `workload`.
  PodRecord& AddPod(const api::PodTemplateSpec& template_spec, const std::string& ns,
                    const std::string& owner_kind, const std::string& owner_name,
                    const std::string& key, bool initial, bool workload,
                    const std::string& name = "");
  // The pod at `pod_key` (not terminating, owned) was taken away from its node for the node's
  // removal cause: counted, and its owner's next pod replaces it in that set.
  void NoteTakenAway(const PodRecord& record);
  // Per owner key, the sets of the pods taken away and not yet replaced, oldest first.
  std::map<std::string, std::deque<PodSet>> replacement_sets_;
  void DeletePod(const std::string& key);
  // Takes the pod (live, not terminating) away gracefully for `grace_seconds`, logged as `event`.
  void TakeAwayGracefully(const std::string& pod_key, int64_t grace_seconds,
                          std::string_view event);
  // The pod's grace period ran out: it is gone (its StatefulSet may now recreate the name).
  void FinishTermination(const std::string& key, const std::string& uid);
  // Recreates the pods of these Deployments after `controllerRecreate` (ReplicaSet controller).
  void RecreateLater(const std::set<std::string>& owners);
  void Register(const std::string& id);
  void MarkReady(const std::string& id);
  void PlaceDaemonSetPods(const Instance& instance);
  void RunSchedulingPass();
  void Bind(const std::string& pod_key, const std::string& node_name);
  api::Node BuildNode(const Instance& instance) const;
  // An instance of `capacity_type` at `price` starts (+1) or stops (-1) being billed.
  void ChangeBilling(const std::string& capacity_type, double price, int direction);
  // The pod (bound, not a DaemonSet's) was bound, started terminating or went: its node's
  // NodeClaim's status.lastPodEventTime, which consolidateAfter counts from, moves to now
  // unless it moved within the last 10 s (upstream's podevents controller,
  // controllers::RecordsPodEvent).
  void NotePodEvent(const api::Pod& pod);

  EventQueue& queue_;
  Random& random_;
  const LatencyModel& latency_;
  EventLog& log_;
  const Ec2& ec2_;
  std::vector<std::string> zones_;

  std::map<std::string, Instance> instances_;
  std::map<std::string, std::string> instance_by_node_;
  PodStore pods_;
  std::map<std::string, DeploymentState> deployments_;
  std::map<std::string, JobState> jobs_;
  std::map<std::string, StatefulSetState> stateful_sets_;
  // Pods created so far per Deployment key, kept across deletion so a re-created Deployment's
  // pods get new names.
  std::map<std::string, uint64_t> pods_created_;
  std::map<std::string, api::DaemonSet> daemon_sets_;
  std::map<std::string, api::NodePool> node_pools_;
  std::map<std::string, api::EC2NodeClass> node_classes_;
  std::map<std::string, api::NodeClaim> node_claims_;
  std::map<std::string, api::PodDisruptionBudget> pdbs_;
  uint64_t instance_count_ = 0;
  uint64_t daemon_pod_count_ = 0;
  bool pass_scheduled_ = false;
  provisioning::BoundPodCharges scheduler_charges_;  // kept between kube-scheduler passes
  // kube-scheduler's unschedulable queue: pods it could not place are retried only after a
  // cluster event that may make room (a node turning Ready, uncordoned or untainted, a bound
  // pod leaving), or once they have waited kPodMaxInUnschedulableMillis. A pass with neither
  // and no new pod would bind nothing, so it is skipped.
  void NoteCapacityEvent() { ++capacity_events_; }
  uint64_t capacity_events_ = 0;
  uint64_t scheduling_passes_ = 0;
  uint64_t capacity_events_at_last_pass_ = 0;
  SimMillis last_pass_ = 0;
  std::function<void()> on_unschedulable_;
  NodeUpdate on_node_registered_;
  NodeUpdate on_node_ready_;

  double price_per_hour_ = 0;
  SimMillis cost_settled_at_ = 0;
  SimMillis unconsolidated_at_ = 0;
  uint64_t generation_ = 0;
  // SharedSnapshot's cache, by schedulable_only (index 1) or not (0), valid for `generation`.
  // Until the next one is built it collects the pods added, changed or removed since (by
  // namespace as snapshots list it, and name; the value is the pods_ key).
  struct CachedSnapshot {
    uint64_t generation = 0;
    uint64_t node_changes = 0;        // node_changes_ when it was built
    uint64_t node_claim_changes = 0;  // node_claim_changes_ when it was built
    std::shared_ptr<state::ClusterSnapshot> snapshot;
    std::set<std::string> nodes;  // the nodes whose pods it keeps (SnapshotObjects)
    std::map<std::pair<std::string, std::string>, std::string> changed_pods;
  };
  mutable CachedSnapshot snapshot_cache_[2];
  // Moves on every change to an instance's phase or node, which snapshots copy from; announces
  // the Node once it has registered.
  void NodeChanged(const Instance& instance) {
    ++node_changes_;
    if (!instance.node.metadata.name.empty()) Notify("Node", instance.node.metadata);
  }
  // Every change to a NodeClaim in node_claims_ (added, any field changed, removed) comes here,
  // before the removal: snapshots share the last one's NodeClaims while none changed.
  void NodeClaimChanged(const api::ObjectMeta& metadata) {
    ++node_claim_changes_;
    Notify("NodeClaim", metadata);
  }
  void Notify(std::string_view kind, const api::ObjectMeta& metadata) const {
    for (const auto& [id, observer] : observers_) observer(kind, metadata);
  }
  std::vector<std::pair<uint64_t, ObjectObserver>> observers_;
  uint64_t next_observer_ = 0;
  uint64_t node_changes_ = 0;
  uint64_t node_claim_changes_ = 0;
  bool verify_snapshots_ = false;
  mutable uint64_t snapshots_carried_over_ = 0;
  // Every change to a pod in pods_ (added, any field changed, removed) must be reported here,
  // before the removal, for SharedSnapshot to carry the other pods over.
  void PodChanged(const std::string& key, const api::ObjectMeta& metadata);
  void VerifySnapshot(const state::ClusterSnapshot& refreshed, bool schedulable_only) const;
  // `objects` (from SnapshotObjects, which filled `nodes`) with the pods the snapshot keeps.
  absl::StatusOr<state::ClusterSnapshot> SnapshotFrom(bool schedulable_only,
                                                      std::vector<state::SourcedObject> objects,
                                                      const std::set<std::string>& nodes) const;
  // The snapshot's objects other than pods, and in `nodes` the nodes whose pods it keeps. With
  // `nodes` null, the objects other than nodes, and without `node_claims` those other than
  // NodeClaims (the caller shares the last snapshot's).
  std::vector<state::SourcedObject> SnapshotObjects(bool schedulable_only,
                                                    std::set<std::string>* nodes,
                                                    bool node_claims = true) const;
  // The snapshot of this generation made from `cached`'s: the other objects anew, sharing its
  // pods but for those changed since or whose node joined or left `nodes`, which are copied
  // again. Null when that cannot be done (a full build is needed).
  std::shared_ptr<state::ClusterSnapshot> RefreshedSnapshot(
      bool schedulable_only, std::vector<state::SourcedObject> objects,
      const std::set<std::string>& nodes, CachedSnapshot& cached) const;
  ClusterCounters counters_;
};

}  // namespace karpenter::sim
