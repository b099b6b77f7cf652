// Upstream: kubernetes-sigs/karpenter pkg/controllers/provisioning (provisioner.go, batcher.go).
// Pods the kube-scheduler marked unschedulable open a batch (BATCH_IDLE_DURATION /
// BATCH_MAX_DURATION); when it closes, and once the cluster view is synced, the engine solves
// the cluster as it stands (existing nodes and in-flight NodeClaims first) and every new
// NodeClaim the solve wants is created through the API — the NodeClaim lifecycle controller
// launches it. Pods get a Nominated event naming their NodeClaim or node; pods nothing can take
// get FailedScheduling with the reason.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/event_recorder.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/logger.h"
#include "karpenter/metrics.h"
#include "src/api/nodeclaim.h"
#include "src/api/nodepool.h"
#include "src/controllers/batcher.h"
#include "src/controllers/deletion_marks.h"
#include "src/controllers/reconciler.h"
#include "src/provisioning/node_class_catalog.h"
#include "src/provisioning/plan.h"
#include "src/provisioning/snapshot_input.h"
#include "src/provisioning/types.h"
#include "src/state/pending.h"

namespace karpenter::controllers {

// A NodeClaim's instance-type requirement lists at most this many types, cheapest first
// (upstream's MaxInstanceTypes).
inline constexpr size_t kMaxNodeClaimInstanceTypes = 60;
// How often pods still pending trigger provisioning again (upstream's pod controller requeue).
inline constexpr int64_t kPendingPodRecheckMillis = 10 * 1000;

struct ProvisionerSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
  EventRecorder& recorder;
  Metrics& metrics;
  // Upstream's lines: "found provisionable pod(s)", "computed new nodeclaim(s) to fit pod(s)",
  // "created nodeclaim", ...; null: none.
  Logger* logger = nullptr;
  // Where each NodePool's instance types come from on every pass (upstream's
  // CloudProvider.GetInstanceTypes: live offerings, those marked unavailable after an ICE,
  // current prices). Null: the embedded catalog, as `karpenter plan` uses.
  CloudProvider* cloud = nullptr;
  // The nodes disruption commands have started on, shared with the disruption controller
  // (upstream's cluster state): their pods are planned for and their capacity is not offered.
  // Null: none are marked.
  DeletionMarks* marks = nullptr;
};

struct ProvisionerOptions {
  int64_t batch_idle_millis = 1000;
  int64_t batch_max_millis = 10 * 1000;
  provisioning::SchedulerOptions scheduler;
  cloudprovider::SpotPriceModel spot_prices = cloudprovider::DefaultSpotPriceModel();
};

// What one provisioning pass did.
struct ProvisionOutcome {
  bool synced = true;                       // false: the pass waited for the cluster view
  std::vector<std::string> created;         // NodeClaim names, in the solve's order
  std::vector<std::string> nominated_pods;  // onto existing nodes or in-flight NodeClaims
  size_t unschedulable_pods = 0;
};

class Provisioner {
 public:
  Provisioner(ProvisionerSeams seams, ProvisionerOptions options);

  // Watches pods and Nodes: each newly unschedulable pod, and each Node carrying the
  // karpenter.sh/disrupted taint (its pods will need a new home), triggers the batcher.
  void Start();
  // Opens or extends the batch (a pod needs capacity).
  void Trigger(const std::string& pod_uid) { batcher_.Trigger(pod_uid); }
  // One solve-and-create pass over the cluster as it stands now.
  absl::StatusOr<ProvisionOutcome> Provision();

 private:
  void OnBatchClosed();
  void RecheckPendingPods();
  // Upstream's cluster-state sync, plus the NodeClaims this provisioner created, and the
  // replacements of marked nodes, that the reader has not shown yet: without them a pass would
  // solve the same pods again.
  bool ClusterViewSynced();
  // What upstream logs once a solve has placed pods (nothing when it placed none on new claims).
  void LogSolve(const provisioning::SnapshotSchedulerInput& input,
                const provisioning::PlanResult& plan, int64_t solve_millis) const;

  // karpenter_cluster_state_synced and _unsynced_time_seconds (upstream sets both each time
  // the provisioner asks whether cluster state is synced).
  void RecordSynced(bool synced);
  // karpenter_scheduler_queue_depth after a solve: the pods the solve left in its queue.
  void RecordQueueDepth(size_t unscheduled);

  ProvisionerSeams seams_;
  ProvisionerOptions options_;
  provisioning::CatalogCache catalogs_;
  Batcher batcher_;
  // Names of NodeClaims created here and not yet seen by the reader (upstream adds a created
  // claim to its cluster state at once). A watch event for the name, or the reader holding
  // it, removes it: a claim created and deleted before the next pass does not wedge the gate.
  std::set<std::string> unobserved_claims_;
  std::optional<int64_t> unsynced_since_millis_;
  // Each solve's scheduling_id label (upstream: the scheduler's UUID; a sequence number here,
  // so that runs are reproducible), and the last one published.
  uint64_t solves_ = 0;
  std::optional<MetricLabels> queue_depth_series_;
};

// The unbound pods Karpenter plans for, here, in the disruption simulations and in the twin:
// those kube-scheduler marked unschedulable (upstream's IsProvisionable).
inline constexpr state::PendingRule kPendingPods = state::PendingRule::kFailedToSchedule;

// The NodeClaim the API gets for `claim`, as upstream's NodeClaimTemplate.ToNodeClaim builds
// it: generateName "<nodepool>-", the NodePool as owner, its template's taints, startup
// taints, node class, expireAfter and terminationGracePeriod, the solve's requirements with the
// instance types cut to the cheapest 60 and the capacity types they offer, and the requests.
api::NodeClaim ToNodeClaim(const provisioning::NewNodeClaim& claim, const api::NodePool& pool);

}  // namespace karpenter::controllers
