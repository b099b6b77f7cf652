#include "src/sim/karpenter_host.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/interruption/message.h"
#include "src/provisioning/plan.h"
#include "src/sim/disruption_controller.h"
#include "src/sim/drain.h"
#include "src/state/generated_names.h"

namespace karpenter::sim {

KarpenterHost::KarpenterHost(Cluster& cluster)
    : cluster_(cluster),
      catalogs_(cluster.ec2().catalog().spot_prices()),
      controller_(std::make_unique<DisruptionController>(*this)) {}

KarpenterHost::~KarpenterHost() = default;

void KarpenterHost::Start() {
  cluster_.set_on_unschedulable([this] { OnPodsPending(); });
  SetDisruptionPass([this](KarpenterHost&) { controller_->Poll(); });
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

void KarpenterHost::OnPodsPending() {
  EventQueue& queue = cluster_.queue();
  const SimMillis now = queue.now();
  batch_idle_until_ = now + Sample(cluster_.latency().batch_idle, cluster_.random());
  if (batch_open_) return;
  batch_open_ = true;
  batch_started_ = now;
  batch_max_ = now + Sample(cluster_.latency().batch_max, cluster_.random());
  queue.At(std::min(batch_idle_until_, batch_max_), [this] { CheckBatch(); });
}

void KarpenterHost::CheckBatch() {
  const SimMillis now = cluster_.queue().now();
  if (now < batch_idle_until_ && now < batch_max_) {
    cluster_.queue().At(std::min(batch_idle_until_, batch_max_), [this] { CheckBatch(); });
    return;
  }
  batch_open_ = false;
  cluster_.log().Record(now, "BatchClosed",
                        {Num("windowSeconds", MillisToSeconds(now - batch_started_))});
  Provision();
}

void KarpenterHost::MarkOfferingUnavailable(const std::string& instance_type,
                                            const std::string& zone,
                                            const std::string& capacity_type) {
  unavailable_until_[{instance_type, zone, capacity_type}] =
      cluster_.queue().now() +
      Sample(cluster_.latency().unavailable_offering_ttl, cluster_.random());
  ++unavailable_version_;
}

void KarpenterHost::ExpireUnavailableOfferings() {
  const SimMillis now = cluster_.queue().now();
  if (std::erase_if(unavailable_until_, [now](const auto& entry) { return entry.second <= now; }) >
      0) {
    ++unavailable_version_;
  }
}

uint64_t KarpenterHost::UnavailableOfferingsVersion() {
  ExpireUnavailableOfferings();
  return unavailable_version_;
}

void KarpenterHost::TerminateNodeClaim(const Instance& instance) {
  const std::string id = instance.id;
  const std::string node = instance.node.metadata.name;
  if (instance.phase == NodePhase::kBooting || node.empty()) {
    cluster_.TerminateInstance(id);  // nothing registered to drain
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
  DrainOptions options{.priority_tiers = true, .skip_disrupted_tolerating = true};
  if (const api::NodeClaim* claim = cluster_.FindNodeClaim(instance.request.node_claim);
      claim != nullptr && claim->spec.termination_grace_period) {
    options.force_after =
        claim->spec.termination_grace_period->Nanos() / api::Duration::kMillisecond;
  }
  Cluster& cluster = cluster_;
  StartDrain(cluster_, node, options, [&cluster, id](bool) { cluster.TerminateInstance(id); });
}

void KarpenterHost::EnqueueInterruptionMessage(std::string body) {
  cluster_.queue().After(Sample(cluster_.latency().interruption_delivery, cluster_.random()),
                         [this, body = std::move(body)] { HandleInterruptionMessage(body); });
}

void KarpenterHost::HandleInterruptionMessage(const std::string& body) {
  const SimMillis now = cluster_.queue().now();
  absl::StatusOr<interruption::Message> message = interruption::ParseMessage(body);
  if (!message.ok()) {
    // Upstream deletes an unparsable message and moves on.
    cluster_.log().Record(now, "InterruptionMessageInvalid",
                          {Str("error", message.status().ToString())});
    return;
  }
  const interruption::Action action = interruption::ActionFor(message->kind);
  for (const std::string& id : message->instance_ids) {
    auto it = cluster_.instances().find(id);
    if (it == cluster_.instances().end() || it->second.phase == NodePhase::kTerminated ||
        it->second.request.node_claim.empty()) {
      continue;  // not an instance of ours (or already gone)
    }
    const Instance& instance = it->second;
    cluster_.log().Record(now, "InterruptionReceived",
                          {Str("kind", std::string(interruption::KindName(message->kind))),
                           Str("reason", std::string(action.event_reason)), Str("instance", id),
                           Str("nodeClaim", instance.request.node_claim)});
    if (action.mark_offering_unavailable) {
      MarkOfferingUnavailable(instance.request.instance_type, instance.request.zone,
                              instance.request.capacity_type);
    }
    if (action.delete_node_claim && !draining_claims_.contains(instance.request.node_claim)) {
      draining_claims_.insert(instance.request.node_claim);
      TerminateNodeClaim(instance);
    }
  }
}

void KarpenterHost::MarkUnavailableOfferings(provisioning::SchedulerInput& input) {
  ExpireUnavailableOfferings();
  if (unavailable_until_.empty()) return;
  auto unavailable = [&](const provisioning::InstanceTypeView& type,
                         const provisioning::OfferingView& offering) {
    return unavailable_until_.contains({type.name, offering.zone, offering.capacity_type});
  };
  for (provisioning::NodePoolInstanceTypes& pool : input.node_pools) {
    // The types are shared with the catalog cache: take a private copy only to change them.
    const bool any = std::any_of(
        pool.instance_types.begin(), pool.instance_types.end(),
        [&](const provisioning::InstanceTypeView& type) {
          return std::any_of(type.offerings.begin(), type.offerings.end(),
                             [&](const auto& offering) { return unavailable(type, offering); });
        });
    if (!any) continue;
    for (provisioning::InstanceTypeView& type : pool.instance_types.Mutable()) {
      for (provisioning::OfferingView& offering : type.offerings) {
        if (unavailable(type, offering)) offering.available = false;
      }
    }
  }
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
  KP_ASSIGN_OR_RETURN(planning->input,
                      provisioning::BuildSchedulerInput(*planning->snapshot, options, catalogs_));
  MarkUnavailableOfferings(planning->input.input);
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
             {Num("pendingPods", static_cast<double>(plan.summary.pending_pods)),
              Num("newNodeClaims", static_cast<double>(plan.node_claims.size())),
              Num("unschedulablePods", static_cast<double>(plan.unschedulable.size()))});
  for (const provisioning::PlannedNodeClaim& planned : plan.node_claims) {
    LaunchNodeClaim(planned.claim, planned.launch);
  }
}

std::string KarpenterHost::LaunchNodeClaim(const provisioning::NewNodeClaim& claim,
                                           const provisioning::LaunchPrediction& launch) {
  const SimMillis now = cluster_.queue().now();
  const uint64_t ordinal = ++claim_count_;
  api::NodeClaim node_claim;
  node_claim.metadata.name = state::GeneratedName(
      claim.node_pool + "-", state::StableHash({claim.node_pool, std::to_string(ordinal)}));
  node_claim.metadata.uid = state::DeterministicUid({"nodeclaim", node_claim.metadata.name});
  node_claim.metadata.creation_timestamp = cluster_.queue().Now();
  node_claim.metadata.labels = claim.labels;
  node_claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = claim.node_pool;
  node_claim.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = launch.instance_type;
  node_claim.metadata.labels[std::string(api::kLabelTopologyZone)] = launch.zone;
  node_claim.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = launch.capacity_type;
  // The template's taints (startup taints too: the scheduler expects them to go away) and class.
  if (const api::NodePool* pool = cluster_.FindNodePool(claim.node_pool)) {
    node_claim.spec.taints = pool->spec.template_.spec.taints;
    node_claim.spec.startup_taints = pool->spec.template_.spec.startup_taints;
    node_claim.spec.node_class_ref = pool->spec.template_.spec.node_class_ref;
    // NodePool.ToNodeClaim copies these too: expiration and the drain's deadline read the claim.
    node_claim.spec.expire_after = pool->spec.template_.spec.expire_after;
    node_claim.spec.termination_grace_period = pool->spec.template_.spec.termination_grace_period;
  }
  const std::string name = node_claim.metadata.name;
  cluster_.log().Record(now, "NodeClaimCreated",
                        {Str("nodeClaim", name), Str("nodePool", claim.node_pool),
                         Str("instanceType", launch.instance_type), Str("zone", launch.zone),
                         Str("capacityType", launch.capacity_type),
                         Num("pods", static_cast<double>(claim.pods.size()))});
  cluster_.PutNodeClaim(std::move(node_claim));
  PendingLaunch& pending = launching_[name];
  pending.claim = claim;
  pending.types.reserve(claim.instance_type_options.size());
  for (const provisioning::InstanceTypeView* type : claim.instance_type_options) {
    pending.types.push_back(*type);
  }
  std::vector<const provisioning::InstanceTypeView*>& options =
      pending.claim.instance_type_options.Mutable();
  for (size_t i = 0; i < pending.types.size(); ++i) options[i] = &pending.types[i];
  requested_at_[name] = now;
  cluster_.queue().After(Sample(cluster_.latency().create_fleet, cluster_.random()),
                         [this, name] { Launch(name); });
  return name;
}

void KarpenterHost::Launch(const std::string& name) {
  auto it = launching_.find(name);
  if (it == launching_.end()) return;
  provisioning::NewNodeClaim& claim = it->second.claim;
  const SimMillis now = cluster_.queue().now();
  while (true) {
    absl::StatusOr<provisioning::LaunchPrediction> launch = provisioning::PredictLaunch(claim);
    if (!launch.ok()) {
      FailLaunch(name, std::string(launch.status().message()));
      return;
    }
    absl::StatusOr<double> price =
        cluster_.ec2().RunInstance(launch->instance_type, launch->zone, launch->capacity_type, now);
    if (!price.ok()) {
      cluster_.log().Record(
          now, "InsufficientCapacity",
          {Str("nodeClaim", name), Str("instanceType", launch->instance_type),
           Str("zone", launch->zone), Str("capacityType", launch->capacity_type)});
      MarkOfferingUnavailable(launch->instance_type, launch->zone, launch->capacity_type);
      for (provisioning::InstanceTypeView& type : it->second.types) {
        if (type.name != launch->instance_type) continue;
        for (provisioning::OfferingView& offering : type.offerings) {
          if (offering.zone == launch->zone && offering.capacity_type == launch->capacity_type) {
            offering.available = false;
          }
        }
      }
      continue;
    }
    const api::NodeClaim* stored = cluster_.FindNodeClaim(name);
    if (stored == nullptr) return;
    api::NodeClaim node_claim = *stored;
    InstanceRequest request;
    request.instance_type = launch->instance_type;
    request.zone = launch->zone;
    request.capacity_type = launch->capacity_type;
    request.price = *price;
    request.node_claim = name;
    request.labels = claim.labels;
    request.labels[std::string(api::kNodePoolLabelKey)] = claim.node_pool;
    request.labels[std::string(api::kCapacityTypeLabelKey)] = launch->capacity_type;
    // Startup taints are left out: the agent that would remove them is not modelled, and until
    // Ready the node's not-ready taint keeps pods away just the same.
    request.taints = node_claim.spec.taints;
    request.requested_at = requested_at_[name];
    const std::string id = cluster_.LaunchInstance(std::move(request));
    node_claim.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = launch->instance_type;
    node_claim.metadata.labels[std::string(api::kLabelTopologyZone)] = launch->zone;
    node_claim.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = launch->capacity_type;
    node_claim.status.provider_id = absl::StrCat("aws:///", launch->zone, "/", id);
    cluster_.PutNodeClaim(std::move(node_claim));
    cluster_.log().Record(now, "NodeClaimLaunched", {Str("nodeClaim", name), Str("instance", id)});
    cluster_.queue().After(Sample(cluster_.latency().registration_timeout, cluster_.random()),
                           [this, name, id] { CheckRegistered(name, id); });
    launching_.erase(it);
    requested_at_.erase(name);
    return;
  }
}

void KarpenterHost::CheckRegistered(const std::string& name, const std::string& instance_id) {
  auto it = cluster_.instances().find(instance_id);
  if (it == cluster_.instances().end() || it->second.phase != NodePhase::kBooting) return;
  cluster_.log().Record(cluster_.queue().now(), "NodeClaimRegistrationTimeout",
                        {Str("nodeClaim", name), Str("instance", instance_id)});
  cluster_.TerminateInstance(instance_id);  // the NodeClaim goes with it
  // Its pods still wait; the next batch launches a replacement.
  OnPodsPending();
}

void KarpenterHost::FailLaunch(const std::string& name, const std::string& reason) {
  const SimMillis now = cluster_.queue().now();
  cluster_.log().Record(now, "NodeClaimLaunchFailed",
                        {Str("nodeClaim", name), Str("reason", reason)});
  cluster_.DeleteNodeClaim(name);
  launching_.erase(name);
  requested_at_.erase(name);
  // Its pods are still pending; the next batch plans them without the failed offerings.
  OnPodsPending();
}

}  // namespace karpenter::sim
