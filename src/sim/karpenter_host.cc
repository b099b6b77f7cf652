#include "src/sim/karpenter_host.h"

#include <algorithm>
#include <utility>

#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/aws_conventions.h"
#include "src/controllers/disrupted_metrics.h"
#include "src/controllers/node_termination.h"
#include "src/controllers/nodeclaim_expiration.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/nodepool_status.h"
#include "src/controllers/offering_availability.h"
#include "src/controllers/provisioner.h"
#include "src/interruption/message.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/provisioning/plan.h"
#include "src/sim/disruption_controller.h"
#include "src/sim/drain.h"
#include "src/state/generated_names.h"
#include "src/state/pod_predicates.h"

namespace karpenter::sim {
namespace {

// A launch that failed for another reason than capacity or the node class is tried again this
// often until the launch timeout (upstream requeues it with backoff).
constexpr SimMillis kLaunchRetryMillis = 10 * 1000;

}  // namespace

KarpenterHost::KarpenterHost(Cluster& cluster)
    : cluster_(cluster),
      metrics_(metrics::KarpenterCatalog()),
      reader_(cluster),
      writer_(cluster, reader_),
      state_metrics_(cluster.queue(), reader_, metrics_),
      catalogs_(cluster.ec2().catalog().spot_prices(), cluster.ec2().catalog().region()),
      batcher_(
          cluster.queue(),
          [this] { return Sample(cluster_.latency().batch_idle, cluster_.random()); },
          [this] { return Sample(cluster_.latency().batch_max, cluster_.random()); },
          [this](int64_t window) {
            cluster_.log().Record(cluster_.queue().now(), "BatchClosed",
                                  {Num("windowSeconds", MillisToSeconds(window))});
            Provision();
          }),
      unavailable_(cluster.queue(),
                   [this] {
                     return Sample(cluster_.latency().unavailable_offering_ttl, cluster_.random());
                   }),
      cloud_(cluster, catalogs_, unavailable_),
      interruption_(unavailable_, metrics_, MakeInterruptionHooks()),
      controller_(std::make_unique<DisruptionController>(*this)) {
  cluster_.set_on_node_registered(
      [this](const InstanceRequest& request, api::Node& node) { OnNodeRegistered(request, node); });
  cluster_.set_on_node_ready(
      [this](const InstanceRequest& request, api::Node& node) { OnNodeReady(request, node); });
}

KarpenterHost::~KarpenterHost() = default;

void KarpenterHost::Start() {
  cluster_.set_on_unschedulable([this] { OnPodsPending(); });
  SetDisruptionPass([this](KarpenterHost&) { controller_->Poll(); });
}

void KarpenterHost::WatchPodMetrics() {
  // What the controller's pod loop does, each pod once its change is complete; its 30 s
  // refresh of a waiting pod's age is left to the final scrape, the only one a run shows.
  reader_.Watch("Pod", [this](const ObjectKey& key) { ReconcilePodMetrics(key); });
  for (const api::Object& pod : reader_.List("Pod")) ReconcilePodMetrics(KeyOf(pod));
}

void KarpenterHost::ReconcilePodMetrics(const ObjectKey& key) {
  // It only reads the cluster: it has no error to retry.
  (void)state_metrics_.ReconcilePod(key.namespace_ + "/" + key.name);
}

void KarpenterHost::SetDisruptionPass(DisruptionPass pass) {
  const bool first = !disruption_;
  disruption_ = std::move(pass);
  if (first && disruption_) {
    cluster_.queue().After(Sample(cluster_.latency().disruption_poll, cluster_.random()),
                           [this] { PollDisruption(); });
  }
}

void KarpenterHost::PollDisruption() {
  if (!disruption_) return;
  disruption_(*this);
  cluster_.queue().After(Sample(cluster_.latency().disruption_poll, cluster_.random()),
                         [this] { PollDisruption(); });
}

void KarpenterHost::OnPodsPending() { batcher_.Trigger(); }

void KarpenterHost::MarkOfferingUnavailable(const std::string& instance_type,
                                            const std::string& zone,
                                            const std::string& capacity_type) {
  unavailable_.Mark({instance_type, zone, capacity_type});
}

uint64_t KarpenterHost::UnavailableOfferingsVersion() { return unavailable_.Version(); }

void KarpenterHost::TerminateNodeClaim(const Instance& instance) {
  const std::string id = instance.id;
  const std::string node = instance.node.metadata.name;
  // Deleting from here on, which planning counts as a mark does.
  Unmark(instance.node.spec.provider_id);
  if (instance.phase == NodePhase::kBooting || node.empty()) {
    DeleteInstance(id, nullptr);  // nothing registered to drain
    return;
  }
  // A claim whose termination already started keeps its one drain (a later command or
  // interruption for it changes nothing).
  if (const api::NodeClaim* claim = cluster_.FindNodeClaim(instance.request.node_claim);
      claim != nullptr && claim->metadata.deletion_timestamp) {
    return;
  }
  cluster_.MarkNodeClaimDeleting(instance.request.node_claim);
  cluster_.TaintNode(node, std::string(api::kDisruptedTaintKey));
  // Upstream's provisioning node controller triggers a batch for a node that carries the
  // disrupted taint: the pods of a deleting node are planned for before they are evicted.
  OnPodsPending();
  DrainOptions options{.priority_tiers = true,
                       .skip_disrupted_tolerating = true,
                       .min_duration = controllers::kMinDrainMillis};
  if (const api::NodeClaim* claim = cluster_.FindNodeClaim(instance.request.node_claim);
      claim != nullptr && claim->spec.termination_grace_period) {
    options.force_after =
        claim->spec.termination_grace_period->value.Nanos() / api::Duration::kMillisecond;
  }
  StartDrain(cluster_, node, options, [this, id, started = cluster_.queue().Now()](bool drained) {
    auto it = cluster_.instances().find(id);
    if (it == cluster_.instances().end()) return;
    api::Node terminated = it->second.node;
    terminated.metadata.deletion_timestamp = started;
    // The termination controller's Drained condition; a drain that gave up is not drained.
    if (drained) {
      metrics_.Add("karpenter_nodes_drained_total",
                   {{"nodepool", terminated.metadata.labels[std::string(api::kNodePoolLabelKey)]}},
                   1);
    }
    DeleteInstance(id, &terminated);
  });
}

void KarpenterHost::DeleteInstance(const std::string& id, const api::Node* drained) {
  auto it = cluster_.instances().find(id);
  if (it == cluster_.instances().end()) return;
  CountTermination(it->second.request);
  if (drained != nullptr) {
    controllers::CountNodeTerminated(*drained, cluster_.queue().Now(), metrics_);
  }
  // The provider reads only the claim's provider ID. The twin's EC2 terminates at once; a
  // NotFound says the instance is already gone, which is what the finalizer waits to hear.
  api::NodeClaim claim;
  claim.metadata.name = it->second.request.node_claim;
  claim.status.provider_id = cloudprovider::AwsProviderId(it->second.request.zone, id);
  cloud_.Delete(claim);
}

void KarpenterHost::EnqueueInterruptionMessage(std::string body) {
  cluster_.queue().After(Sample(cluster_.latency().interruption_delivery, cluster_.random()),
                         [this, body = std::move(body)] { HandleInterruptionMessage(body); });
}

void KarpenterHost::HandleInterruptionMessage(const std::string& body) {
  // The twin's queue hands each message over as it arrives (the long poll returns at once) and
  // deletes it, parsed or not, as upstream does.
  metrics_.Add("karpenter_interruption_deleted_messages_total", {}, 1);
  if (absl::Status handled = interruption_.Handle(body); !handled.ok()) {
    cluster_.log().Record(cluster_.queue().now(), "InterruptionMessageInvalid",
                          {Str("error", handled.ToString())});
  }
}

std::optional<controllers::InterruptedInstance> KarpenterHost::FindInterrupted(
    const std::string& instance_id) const {
  auto it = cluster_.instances().find(instance_id);
  if (it == cluster_.instances().end() || it->second.phase == NodePhase::kTerminated ||
      it->second.request.node_claim.empty()) {
    return std::nullopt;
  }
  const InstanceRequest& request = it->second.request;
  auto pool = request.labels.find(std::string(api::kNodePoolLabelKey));
  return controllers::InterruptedInstance{
      .instance_id = instance_id,
      .node_claim = request.node_claim,
      .node_pool = pool == request.labels.end() ? std::string() : pool->second,
      .offering = {request.instance_type, request.zone, request.capacity_type}};
}

controllers::InterruptionHooks KarpenterHost::MakeInterruptionHooks() {
  return {
      .find = [this](const std::string& id) { return FindInterrupted(id); },
      .received =
          [this](const controllers::InterruptedInstance& instance,
                 const interruption::Message& message, const interruption::Action& action) {
            cluster_.log().Record(
                cluster_.queue().now(), "InterruptionReceived",
                {Str("kind", std::string(interruption::KindName(message.kind))),
                 Str("reason", std::string(action.event_reason)),
                 Str("instance", instance.instance_id), Str("nodeClaim", instance.node_claim)});
          },
      .delete_node_claim =
          [this](const controllers::InterruptedInstance& instance) {
            TerminateNodeClaim(cluster_.instances().at(instance.instance_id));
          },
  };
}

absl::StatusOr<std::unique_ptr<PlanningInput>> KarpenterHost::BuildPlanningInput() {
  KP_ASSIGN_OR_RETURN(std::shared_ptr<const state::ClusterSnapshot> snapshot,
                      cluster_.SharedSnapshot(/*schedulable_only=*/false));
  return PlanningInputFrom(std::move(snapshot));
}

absl::StatusOr<std::unique_ptr<PlanningInput>> KarpenterHost::PlanningInputFrom(
    std::shared_ptr<const state::ClusterSnapshot> snapshot) {
  auto planning = std::make_unique<PlanningInput>(PlanningInput{std::move(snapshot), {}});
  provisioning::PlanOptions options;
  options.now = cluster_.queue().Now();
  options.bound_pod_charges = &bound_pod_charges_;
  // As the controller: only pods the twin's kube-scheduler found no node for.
  options.pending = controllers::kPendingPods;
  options.marked_for_deletion = marked_for_deletion_;
  KP_ASSIGN_OR_RETURN(planning->input,
                      provisioning::BuildSchedulerInput(*planning->snapshot, options, catalogs_));
  controllers::MarkUnavailableOfferings(unavailable_, planning->input.input);
  return planning;
}

void KarpenterHost::Provision() {
  EventLog& log = cluster_.log();
  const SimMillis now = cluster_.queue().now();
  absl::StatusOr<std::unique_ptr<PlanningInput>> planning = BuildPlanningInput();
  if (!planning.ok()) {
    log.Record(now, "ProvisioningError", {Str("error", planning.status().ToString())});
    return;
  }
  const provisioning::SnapshotSchedulerInput& input = (*planning)->input;
  if (input.input.pending_pods.empty()) return;
  provisioning::PlanResult plan = provisioning::PlanFromInput(input);
  log.Record(now, "ProvisioningSolved",
             {Count("pendingPods", static_cast<int64_t>(plan.summary.pending_pods)),
              Count("newNodeClaims", static_cast<int64_t>(plan.node_claims.size())),
              Count("unschedulablePods", static_cast<int64_t>(plan.unschedulable.size()))});
  for (const provisioning::PlannedNodeClaim& planned : plan.node_claims) {
    LaunchNodeClaim(planned.claim, planned.launch);
  }
}

std::string KarpenterHost::LaunchNodeClaim(const provisioning::NewNodeClaim& claim,
                                           const provisioning::LaunchPrediction& launch,
                                           std::string_view reason) {
  const SimMillis now = cluster_.queue().now();
  metrics_.Add("karpenter_nodeclaims_created_total",
               {{"reason", std::string(reason)},
                {"nodepool", claim.node_pool},
                {"min_values_relaxed", claim.min_values_relaxed ? "true" : "false"}},
               1);
  const uint64_t ordinal = ++claim_count_;
  // The controller's NodeClaim (requirements, requests, owner, the template's taints, class,
  // expireAfter and terminationGracePeriod), named as the API server would name it but
  // reproducibly.
  const api::NodePool* pool = cluster_.FindNodePool(claim.node_pool);
  api::NodeClaim node_claim =
      pool != nullptr ? controllers::ToNodeClaim(claim, *pool) : api::NodeClaim{};
  node_claim.metadata.generate_name.clear();
  node_claim.metadata.name = state::GeneratedName(
      claim.node_pool + "-", state::StableHash({claim.node_pool, std::to_string(ordinal)}));
  node_claim.metadata.uid = state::DeterministicUid({"nodeclaim", node_claim.metadata.name});
  node_claim.metadata.creation_timestamp = cluster_.queue().Now();
  // ToNodeClaim's labels; the same without a pool (deleted since the solve).
  node_claim.metadata.labels.insert(claim.labels.begin(), claim.labels.end());
  node_claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = claim.node_pool;
  // The twin names the offering it predicts at once; upstream learns it from the launch.
  node_claim.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = launch.instance_type;
  node_claim.metadata.labels[std::string(api::kLabelTopologyZone)] = launch.zone;
  node_claim.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = launch.capacity_type;
  const std::string name = node_claim.metadata.name;
  cluster_.log().Record(now, "NodeClaimCreated",
                        {Str("nodeClaim", name), Str("nodePool", claim.node_pool),
                         Str("instanceType", launch.instance_type), Str("zone", launch.zone),
                         Str("capacityType", launch.capacity_type),
                         Count("pods", static_cast<int64_t>(claim.pods.size()))});
  ScheduleExpiration(node_claim);
  cluster_.PutNodeClaim(std::move(node_claim));
  launching_[name].created_at = now;
  cluster_.queue().After(Sample(cluster_.latency().create_fleet, cluster_.random()),
                         [this, name] { Launch(name); });
  cluster_.queue().After(controllers::kLaunchTimeoutMillis, [this, name] { CheckLaunched(name); });
  return name;
}

void KarpenterHost::CheckLaunched(const std::string& name) {
  if (!launching_.contains(name)) return;
  cluster_.log().Record(cluster_.queue().now(), "NodeClaimLaunchTimeout", {Str("nodeClaim", name)});
  CountUnlaunched(name, "launch_timeout");
  DropUnlaunched(name);
}

void KarpenterHost::CountUnlaunched(const std::string& name, std::string_view reason) {
  if (const api::NodeClaim* claim = cluster_.FindNodeClaim(name)) {
    controllers::CountDisrupted(controllers::DisruptedLabels(*claim, reason), std::nullopt,
                                metrics_);
  }
}

void KarpenterHost::DropUnlaunched(const std::string& name) {
  cluster_.DeleteNodeClaim(name);
  launching_.erase(name);
  // Its pods are still pending; the next batch plans them again.
  OnPodsPending();
}

void KarpenterHost::OnNodeRegistered(const InstanceRequest& request, api::Node& node) {
  if (request.node_claim.empty()) return;
  if (const api::NodeClaim* claim = cluster_.FindNodeClaim(request.node_claim)) {
    controllers::RegisterNode(*claim, node);
  }
}

void KarpenterHost::OnNodeReady(const InstanceRequest& request, api::Node& node) {
  if (request.node_claim.empty()) return;
  const api::NodeClaim* claim = cluster_.FindNodeClaim(request.node_claim);
  if (claim == nullptr) return;
  for (const api::Taint& startup : claim->spec.startup_taints) {
    std::erase_if(node.spec.taints, [&](const api::Taint& taint) {
      return taint.key == startup.key && taint.effect == startup.effect;
    });
  }
  if (!controllers::InitializationBlocker(*claim, node)) {
    node.metadata.labels[std::string(api::kNodeInitializedLabelKey)] = "true";
  }
}

void KarpenterHost::ScheduleExpiration(const api::NodeClaim& node_claim) {
  const std::optional<api::Time> expires = controllers::ExpirationInstant(node_claim);
  if (!expires) return;
  const SimMillis delay = std::max<int64_t>(
      0, (*expires - cluster_.queue().Now()).Nanos() / api::Duration::kMillisecond);
  cluster_.queue().After(delay, [this, name = node_claim.metadata.name,
                                 uid = node_claim.metadata.uid] { Expire(name, uid); });
}

void KarpenterHost::Expire(const std::string& name, const std::string& uid) {
  const api::NodeClaim* claim = cluster_.FindNodeClaim(name);
  if (claim == nullptr || claim->metadata.uid != uid || claim->metadata.deletion_timestamp) return;
  const Instance* instance = nullptr;
  for (const auto& [id, candidate] : cluster_.instances()) {
    if (candidate.request.node_claim == name && candidate.phase != NodePhase::kTerminated) {
      instance = &candidate;
    }
  }
  const size_t pods = instance != nullptr ? ReschedulablePodsOn(instance->node.metadata.name) : 0;
  cluster_.log().Record(cluster_.queue().now(), "NodeClaimExpired",
                        {Str("nodeClaim", name),
                         Str("node", instance != nullptr ? instance->node.metadata.name : "")});
  controllers::CountDisrupted(controllers::DisruptedLabels(*claim, "expired"), pods, metrics_);
  if (instance != nullptr) {
    TerminateNodeClaim(*instance);
    return;
  }
  // Still waiting for CreateFleet: nothing runs yet, the claim just goes.
  DropUnlaunched(name);
}

void KarpenterHost::Launch(const std::string& name) {
  auto it = launching_.find(name);
  if (it == launching_.end()) return;
  const api::NodeClaim* stored = cluster_.FindNodeClaim(name);
  if (stored == nullptr) {
    launching_.erase(it);
    return;
  }
  const SimMillis now = cluster_.queue().now();
  CloudOr<api::NodeClaim> created = cloud_.Create(*stored);
  if (const CloudError* error = std::get_if<CloudError>(&created)) {
    switch (error->kind) {
      case CloudErrorKind::kInsufficientCapacity:
        FailLaunch(name, error->message);
        return;
      case CloudErrorKind::kNodeClassNotReady:
        cluster_.log().Record(now, "NodeClaimLaunchFailed",
                              {Str("nodeClaim", name), Str("reason", error->message)});
        CountUnlaunched(name, "nodeclass_not_ready");
        DropUnlaunched(name);
        return;
      default:
        // Upstream leaves Launched Unknown and retries until the launch timeout deletes it.
        cluster_.log().Record(now, "NodeClaimLaunchFailed",
                              {Str("nodeClaim", name), Str("reason", error->message)});
        cluster_.queue().After(kLaunchRetryMillis, [this, name] { Launch(name); });
        return;
    }
  }
  const api::NodeClaim& launched = std::get<api::NodeClaim>(created);
  api::NodeClaim node_claim = *stored;
  // The twin labelled the claim with the offering it predicted; the launch says which it got.
  for (std::string_view key :
       {api::kLabelInstanceTypeStable, api::kLabelTopologyZone, api::kCapacityTypeLabelKey}) {
    node_claim.metadata.labels.erase(std::string(key));
  }
  controllers::CopyLaunched(launched, node_claim);
  const std::string id = cloudprovider::InstanceIdOf(node_claim.status.provider_id);
  cluster_.PutNodeClaim(std::move(node_claim));
  cluster_.log().Record(now, "NodeClaimLaunched", {Str("nodeClaim", name), Str("instance", id)});
  // Upstream's liveness times registration from the claim's Registered condition, set
  // Unknown as the claim is first reconciled: from its creation, not from this launch.
  const SimMillis since_created = now - it->second.created_at;
  const SimMillis timeout = Sample(cluster_.latency().registration_timeout, cluster_.random());
  cluster_.queue().After(std::max<SimMillis>(0, timeout - since_created),
                         [this, name, id] { CheckRegistered(name, id); });
  launching_.erase(it);
}

void KarpenterHost::CheckRegistered(const std::string& name, const std::string& instance_id) {
  auto it = cluster_.instances().find(instance_id);
  if (it == cluster_.instances().end() || it->second.phase != NodePhase::kBooting) return;
  cluster_.log().Record(cluster_.queue().now(), "NodeClaimRegistrationTimeout",
                        {Str("nodeClaim", name), Str("instance", instance_id)});
  CountUnlaunched(name, "registration_timeout");
  DeleteInstance(instance_id, nullptr);  // the NodeClaim goes with it
  // Its pods still wait; the next batch launches a replacement.
  OnPodsPending();
}

void KarpenterHost::FailLaunch(const std::string& name, const std::string& reason) {
  const SimMillis now = cluster_.queue().now();
  cluster_.log().Record(now, "NodeClaimLaunchFailed",
                        {Str("nodeClaim", name), Str("reason", reason)});
  // Its fleet was refused for capacity on every offering, or no offering was left to ask for
  // (upstream's InsufficientCapacityError). Its capacity-type label is the offering the twin
  // predicted at creation; upstream's claim carries one only when its requirements allow a single
  // type.
  CountUnlaunched(name, "insufficient_capacity");
  // The next batch plans its pods without the failed offerings.
  DropUnlaunched(name);
}

size_t KarpenterHost::ReschedulablePodsOn(const std::string& node_name) const {
  size_t pods = 0;
  if (node_name.empty()) return pods;
  for (const PodRecord* record : cluster_.WorkloadPodsOn(node_name)) {
    pods += state::IsReschedulable(record->pod) ? 1 : 0;
  }
  return pods;
}

void KarpenterHost::CountTermination(const InstanceRequest& request) {
  auto label = [&](std::string_view key) {
    auto it = request.labels.find(std::string(key));
    return it == request.labels.end() ? std::string() : it->second;
  };
  const std::string pool = label(api::kNodePoolLabelKey);
  metrics_.Add(
      "karpenter_nodeclaims_terminated_total",
      {{"nodepool", pool}, {"capacity_type", request.capacity_type}, {"zone", request.zone}}, 1);
}

void KarpenterHost::FinishMetrics() {
  // The NodePool counter's pass (every 5 s upstream; the engine never reads it, so only this
  // last one is run): status.resources, which the NodePool usage gauges show, written through
  // the cluster seam as the controller writes it in a cluster.
  controllers::NodePoolCounter counter(
      controllers::NodePoolSeams{cluster_.queue(), reader_, writer_});
  for (const auto& [name, pool] : std::map(cluster_.node_pools())) {
    if (absl::StatusOr<controllers::ReconcileResult> counted = counter.Reconcile(name);
        !counted.ok()) {
      cluster_.log().Record(cluster_.queue().now(), "ControllerFailed",
                            {Str("controller", "nodepool.counter"), Str("nodePool", name),
                             Str("error", counted.status().ToString())});
    }
  }
  // It only reads the cluster: it has no error to retry.
  (void)state_metrics_.ReconcileNodes();
  for (const auto& [key, record] : cluster_.pods()) {
    ReconcilePodMetrics(ObjectKey{"Pod", record.pod.metadata.namespace_, record.pod.metadata.name});
  }
  for (const auto& [id, instance] : cluster_.instances()) {
    // Every Karpenter instance whose Node registered during the run (initial nodes are not).
    if (instance.request.node_claim.empty() || instance.initial ||
        instance.node.metadata.name.empty()) {
      continue;
    }
    auto pool = instance.request.labels.find(std::string(api::kNodePoolLabelKey));
    metrics_.Add("karpenter_nodes_created_total",
                 {{"nodepool", pool == instance.request.labels.end() ? "" : pool->second},
                  {"zone", instance.request.zone}},
                 1);
  }
  metrics_.Set("karpenter_cluster_state_synced", {}, 1);
}

}  // namespace karpenter::sim
