// Karpenter on the twin's virtual clock: the production provisioning engine
// (provisioning::BuildSchedulerInput, Solve and launch prediction) driven by a pod batcher
// (BATCH_IDLE_DURATION / BATCH_MAX_DURATION), NodeClaims launched through a CloudProvider over the
// twin's EC2 (twin_cloud_provider.h: one fleet of one capacity type; the offerings it refuses are
// unavailable to the scheduler for `unavailableOfferingTtl`, and a claim whose whole fleet was
// refused is deleted and its pods planned again), and registration/initialization as the
// emulated nodes come up. Start() also installs the
// disruption controller (disruption_controller.h) on the disruption poll. There is no
// simulation version of the scheduling or disruption logic here: only the host loop around it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "src/cloudprovider/unavailable_offerings.h"
#include "src/controllers/batcher.h"
#include "src/controllers/interruption.h"
#include "src/controllers/state_metrics.h"
#include "src/metrics/registry.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/node_class_catalog.h"
#include "src/provisioning/snapshot_input.h"
#include "src/sim/cluster.h"
#include "src/sim/twin_cloud_provider.h"
#include "src/sim/twin_cluster_reader.h"
#include "src/sim/twin_cluster_writer.h"

namespace karpenter::sim {

class DisruptionController;

// What provisioning and disruption decide on: a snapshot of the cluster and the scheduler input
// built from it (which may point into it, hence kept together and not moved). The snapshot is
// the cluster's shared one for its generation (Cluster::SharedSnapshot), never copied.
struct PlanningInput {
  std::shared_ptr<const state::ClusterSnapshot> snapshot;
  provisioning::SnapshotSchedulerInput input;
};

class KarpenterHost {
 public:
  explicit KarpenterHost(Cluster& cluster);
  ~KarpenterHost();

  // Subscribes to unschedulable pods (provisioning starts with the first batch) and installs the
  // disruption controller as the disruption pass.
  void Start();

  // The disruption controller's entry point: called every `disruptionPoll` once set, with the
  // host to act through. Start() sets the real controller; tests may replace it.
  using DisruptionPass = std::function<void(KarpenterHost&)>;
  void SetDisruptionPass(DisruptionPass pass);

  // Runs upstream's pod metrics controller on every pod as it changes, so the final scrape also
  // has the startup and binding durations (karpenter_pods_startup_duration_seconds,
  // _bound_duration_seconds). Off by default: it costs about a tenth of a busy run's time, and
  // only a run asked for its metrics shows them.
  void WatchPodMetrics();

  // A pod became unschedulable: opens a batch or extends the open one.
  void OnPodsPending();

  // The snapshot (with Karpenter's objects) and scheduler input of this instant, offerings that
  // recently failed with InsufficientInstanceCapacity marked unavailable.
  absl::StatusOr<std::unique_ptr<PlanningInput>> BuildPlanningInput();
  // The same on a snapshot the caller already took of this instant.
  absl::StatusOr<std::unique_ptr<PlanningInput>> PlanningInputFrom(
      std::shared_ptr<const state::ClusterSnapshot> snapshot);
  // Creates a NodeClaim for `claim` and launches it as the lifecycle controller does
  // (CloudProvider::Create after the CreateFleet latency, launch and registration liveness);
  // returns its name. `launch` is the offering the twin labels the claim with until then.
  // `reason` labels karpenter_nodeclaims_created_total: "provisioning", or the disruption
  // reason a replacement is for.
  std::string LaunchNodeClaim(const provisioning::NewNodeClaim& claim,
                              const provisioning::LaunchPrediction& launch,
                              std::string_view reason = "provisioning");

  // Deletes the instance's NodeClaim as the termination controller would: taints the node
  // karpenter.sh/disrupted, drains it (PDBs, critical pods last, the claim's
  // terminationGracePeriod, never in less than 5 s), then terminates the instance and counts
  // the Node (controllers::CountNodeTerminated).
  void TerminateNodeClaim(const Instance& instance);
  // An offering EC2 cannot serve now: the scheduler skips it for `unavailableOfferingTtl`.
  void MarkOfferingUnavailable(const std::string& instance_type, const std::string& zone,
                               const std::string& capacity_type);
  // Upstream's MarkForDeletion: a started command's candidates, by provider ID, once their
  // replacements exist (delete-only commands at once). Provisioning and disruption then plan
  // their pods as pods that need room and offer none of their capacity, so pods that arrive
  // meanwhile do not take the room a replacement was launched for. A rollback unmarks them; a
  // deleted candidate's claim is deleting, which counts the same.
  void MarkForDeletion(const std::string& provider_id) { marked_for_deletion_.insert(provider_id); }
  void Unmark(const std::string& provider_id) { marked_for_deletion_.erase(provider_id); }
  // The pods on the node that must move if it goes (upstream's reschedulable pods).
  size_t ReschedulablePodsOn(const std::string& node_name) const;
  // Moves whenever the set of offerings marked unavailable changes (one is marked, or one's
  // TTL has run out by now): scheduler inputs built at equal versions mark the same offerings.
  uint64_t UnavailableOfferingsVersion();
  // An SQS message body from EventBridge, delivered after `interruptionDelivery`.
  void EnqueueInterruptionMessage(std::string body);

  Cluster& cluster() { return cluster_; }
  // The cluster seam over the twin, as the controllers see and write it.
  ClusterReader& reader() { return reader_; }
  ClusterWriter& writer() { return writer_; }
  // Upstream's metrics as the controllers emit them (src/metrics/karpenter_metrics.h).
  metrics::Registry& metrics() { return metrics_; }
  // The final scrape: the state metrics controller's pass over Nodes, NodeClaims and NodePools
  // and over every pod (upstream refreshes each pod's series every 30 s; this is the last
  // refresh), and the nodes that registered during the run counted; call once, after it.
  void FinishMetrics();
  uint64_t node_claims_created() const { return claim_count_; }
  const DisruptionController& disruption_controller() const { return *controller_; }
  DisruptionController& disruption_controller() { return *controller_; }

 private:
  void HandleInterruptionMessage(const std::string& body);
  void ReconcilePodMetrics(const ObjectKey& key);
  // karpenter_nodeclaims_terminated_total.
  void CountTermination(const InstanceRequest& request);
  // The lifecycle's last step for a claim's instance, as its finalizer takes it:
  // CloudProvider::Delete, counted by CountTermination. `drained` is its Node, deletionTimestamp
  // set to when its termination started, for a Node that registered and was drained: the
  // termination controller counts it (controllers::CountNodeTerminated).
  void DeleteInstance(const std::string& id, const api::Node* drained);
  // The interruption controller's view of the twin: its instances and how a NodeClaim goes.
  std::optional<controllers::InterruptedInstance> FindInterrupted(
      const std::string& instance_id) const;
  controllers::InterruptionHooks MakeInterruptionHooks();
  void Provision();
  // Karpenter's registration and initialization of a node of its NodeClaims, on the cluster's
  // hooks, with the controllers' rules (controllers::RegisterNode, InitializationBlocker). The
  // twin does not run the daemons that remove startup taints (a CNI, a device plugin): they are
  // taken to be done as the node turns Ready.
  void OnNodeRegistered(const InstanceRequest& request, api::Node& node);
  void OnNodeReady(const InstanceRequest& request, api::Node& node);
  // Upstream's NodeClaim expiration controller, on the twin's clock: at the claim's
  // ExpirationInstant (controllers/nodeclaim_expiration.h) it is deleted forcefully, whatever
  // budgets and do-not-disrupt say: terminated as TerminateNodeClaim does, or, still waiting
  // for CreateFleet, dropped. Its pods are planned again by provisioning, not by a disruption
  // command.
  void ScheduleExpiration(const api::NodeClaim& node_claim);
  void Expire(const std::string& name, const std::string& uid);
  // CloudProvider::Create for the claim, then its answer copied onto the NodeClaim.
  void Launch(const std::string& name);
  void FailLaunch(const std::string& name, const std::string& reason);
  // Liveness, as upstream's: deletes the NodeClaim if CreateFleet has not answered within
  // controllers::kLaunchTimeoutMillis of its creation, or (and its instance) if its Node has not
  // registered within `registrationTimeout` of its creation.
  void CheckLaunched(const std::string& name);
  // karpenter_nodeclaims_disrupted_total for a claim deleted before anything ran on it.
  void CountUnlaunched(const std::string& name, std::string_view reason);
  // Deletes a claim whose launch has not happened (or failed) and plans its pods again.
  void DropUnlaunched(const std::string& name);
  void CheckRegistered(const std::string& name, const std::string& instance_id);
  void PollDisruption();

  Cluster& cluster_;
  metrics::Registry metrics_;
  // The controllers' view of the cluster (the cluster seam's read side).
  TwinClusterReader reader_;
  TwinClusterWriter writer_;
  // Upstream's pod, node and NodePool gauges (the dashboards'), read through `reader_` at the
  // final scrape, and each pod as it changes once WatchPodMetrics is called.
  controllers::StateMetrics state_metrics_;
  provisioning::CatalogCache catalogs_;
  provisioning::BoundPodCharges bound_pod_charges_;  // across the host's scheduler inputs
  // BATCH_IDLE_DURATION / BATCH_MAX_DURATION, drawn from the latency model.
  controllers::Batcher batcher_;
  uint64_t claim_count_ = 0;
  // A NodeClaim waiting for CreateFleet's answer.
  struct PendingLaunch {
    SimMillis created_at = 0;  // node-ready and liveness times count from here
  };
  std::map<std::string, PendingLaunch> launching_;
  cloudprovider::UnavailableOfferings unavailable_;
  // Launches, as upstream's lifecycle controller does, through CloudProvider::Create.
  TwinCloudProvider cloud_;
  std::set<std::string> marked_for_deletion_;  // provider IDs
  controllers::InterruptionController interruption_;
  DisruptionPass disruption_;
  std::unique_ptr<DisruptionController> controller_;
};

}  // namespace karpenter::sim
