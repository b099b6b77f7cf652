#include "src/controllers/provisioner.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "src/api/karpenter_labels.h"
#include "src/controllers/cloud_instance_types.h"
#include "src/controllers/cluster_snapshot.h"
#include "src/disruption/node_state.h"
#include "src/provisioning/plan.h"
#include "src/state/pending.h"
#include "src/state/snapshot.h"

namespace karpenter::controllers {
namespace {

// One requirement as the API spells it (upstream Requirement.NodeSelectorRequirement): bounds
// as Gt/Lt, a complement as NotIn (or Exists), a finite set as In (or DoesNotExist).
api::NodeSelectorRequirementWithMinValues ToApi(const scheduling::Requirement& requirement) {
  api::NodeSelectorRequirementWithMinValues out;
  out.key = std::string(requirement.key());
  if (requirement.min_values()) out.min_values = *requirement.min_values();
  const auto values = requirement.Values();
  if (requirement.gte()) {
    out.operator_ = std::string(api::kNodeSelectorOpGt);
    out.values = {std::to_string(*requirement.gte() - 1)};
  } else if (requirement.lte()) {
    out.operator_ = std::string(api::kNodeSelectorOpLt);
    out.values = {std::to_string(*requirement.lte() + 1)};
  } else if (requirement.is_complement()) {
    out.operator_ =
        std::string(values.empty() ? api::kNodeSelectorOpExists : api::kNodeSelectorOpNotIn);
    out.values.assign(values.begin(), values.end());
  } else {
    out.operator_ =
        std::string(values.empty() ? api::kNodeSelectorOpDoesNotExist : api::kNodeSelectorOpIn);
    out.values.assign(values.begin(), values.end());
  }
  return out;
}

void Nominate(EventRecorder& recorder, const ClusterReader& reader, const std::string& pod_key,
              std::string target) {
  const size_t slash = pod_key.find('/');
  std::optional<api::Object> object =
      reader.Get(ObjectKey{"Pod", pod_key.substr(0, slash), pod_key.substr(slash + 1)});
  const auto* pod = object ? std::get_if<api::Pod>(&*object) : nullptr;
  if (pod == nullptr) return;
  recorder.Publish(
      Event{ObjectReference{"Pod", pod->metadata.namespace_, pod->metadata.name, pod->metadata.uid},
            EventType::kNormal, "Nominated", absl::StrCat("Pod should schedule on: ", target)});
}

// Upstream's pretty.Slice: the first `shown` items, then " and N other(s)".
std::string FirstItems(const std::vector<std::string>& items, size_t shown) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i == shown) {
      absl::StrAppend(&text, " and ", items.size() - i, " other(s)");
      break;
    }
    if (i > 0) text += ", ";
    text += items[i];
  }
  return text;
}

LogField Count(std::string key, size_t value) {
  return LogField{std::move(key), std::to_string(value), /*json=*/true};
}

// A resource list as upstream's logger writes one: {"cpu":"1500m","pods":"3"}.
LogField Resources(std::string key, const api::ResourceList& resources) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [name, quantity] : resources) object[name] = quantity.String();
  return LogField{std::move(key), object.dump(), /*json=*/true};
}

std::vector<std::string> InstanceTypesOf(const api::NodeClaim& claim) {
  for (const api::NodeSelectorRequirementWithMinValues& requirement : claim.spec.requirements) {
    if (requirement.key == api::kLabelInstanceTypeStable) return requirement.values;
  }
  return {};
}

}  // namespace

api::NodeClaim ToNodeClaim(const provisioning::NewNodeClaim& claim, const api::NodePool& pool) {
  scheduling::Requirements requirements = claim.requirements;
  const scheduling::Requirement types = requirements.Get(api::kLabelInstanceTypeStable);
  const size_t kept = std::min(claim.instance_types.size(), kMaxNodeClaimInstanceTypes);
  std::vector<std::string> cheapest(
      claim.instance_types.begin(),
      claim.instance_types.begin() + static_cast<std::ptrdiff_t>(kept));
  requirements.Remove(api::kLabelInstanceTypeStable);
  requirements.Add(
      scheduling::Requirement::In(api::kLabelInstanceTypeStable, cheapest, types.min_values()));
  if (!claim.capacity_types.empty()) {
    requirements.Remove(api::kCapacityTypeLabelKey);
    requirements.Add(scheduling::Requirement::In(api::kCapacityTypeLabelKey, claim.capacity_types));
  }

  api::NodeClaim node_claim;
  node_claim.metadata.generate_name = claim.node_pool + "-";
  node_claim.metadata.labels = claim.labels;
  node_claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = claim.node_pool;
  for (std::string_view key :
       {api::kNodePoolHashAnnotationKey, api::kNodePoolHashVersionAnnotationKey}) {
    if (auto it = pool.metadata.annotations.find(std::string(key));
        it != pool.metadata.annotations.end()) {
      node_claim.metadata.annotations.insert(*it);
    }
  }
  if (claim.min_values_relaxed) {
    node_claim.metadata.annotations[std::string(api::kNodeClaimMinValuesRelaxedAnnotationKey)] =
        "true";
  }
  node_claim.metadata.owner_references.push_back(api::OwnerReference{
      .api_version = pool.api_version,
      .kind = pool.kind,
      .name = pool.metadata.name,
      .uid = pool.metadata.uid,
      .block_owner_deletion = true,
  });
  const api::NodeClaimTemplateSpec& spec = pool.spec.template_.spec;
  node_claim.spec.taints = spec.taints;
  node_claim.spec.startup_taints = spec.startup_taints;
  node_claim.spec.node_class_ref = spec.node_class_ref;
  node_claim.spec.expire_after = spec.expire_after;
  node_claim.spec.termination_grace_period = spec.termination_grace_period;
  node_claim.spec.resources.requests = claim.requests;
  for (const scheduling::Requirement& requirement : requirements) {
    node_claim.spec.requirements.push_back(ToApi(requirement));
  }
  return node_claim;
}

Provisioner::Provisioner(ProvisionerSeams seams, ProvisionerOptions options)
    : seams_(seams),
      options_(std::move(options)),
      catalogs_(options_.spot_prices),
      batcher_(
          seams.clock, [this] { return options_.batch_idle_millis; },
          [this] { return options_.batch_max_millis; }, [this](int64_t) { OnBatchClosed(); }) {}

void Provisioner::Start() {
  seams_.reader.Watch("Pod", [this](const ObjectKey& key) {
    std::optional<api::Object> object = seams_.reader.Get(key);
    const auto* pod = object ? std::get_if<api::Pod>(&*object) : nullptr;
    if (pod != nullptr && state::IsProvisionable(*pod, kPendingPods)) Trigger(pod->metadata.uid);
  });
  seams_.reader.Watch("NodeClaim", [this](const ObjectKey& key) {
    unobserved_claims_.erase(key.name);
    if (seams_.marks != nullptr) seams_.marks->Observed(key.name);
  });
  // Upstream's provisioner.trigger.node: a node being disrupted has pods that will need room,
  // planned for before they are evicted.
  seams_.reader.Watch("Node", [this](const ObjectKey& key) {
    std::optional<api::Object> object = seams_.reader.Get(key);
    const auto* node = object ? std::get_if<api::Node>(&*object) : nullptr;
    if (node != nullptr && disruption::HasDisruptedTaint(*node)) Trigger(node->metadata.uid);
  });
  // Pods already pending when this replica became the leader (no watch event will come), and
  // pods still pending after a pass (a launch that failed, a NodeClaim deleted for
  // insufficient capacity) are looked at again, as upstream's pod controller requeues every
  // provisionable pod every 10 s.
  RecheckPendingPods();
}

void Provisioner::RecheckPendingPods() {
  seams_.clock.After(kPendingPodRecheckMillis, [this] { RecheckPendingPods(); });
  // Pods waiting for a NodeClaim that has not launched are looked at once it has launched (or
  // was deleted for want of capacity); until then a batch would only wait for the sync.
  if (!ClusterViewSynced()) return;
  for (const api::Object& object : seams_.reader.List("Pod")) {
    const auto* pod = std::get_if<api::Pod>(&object);
    if (pod != nullptr && state::IsProvisionable(*pod, kPendingPods)) Trigger(pod->metadata.uid);
  }
  // Upstream's node trigger requeues every 10 s while the taint stays.
  for (const api::Object& object : seams_.reader.List("Node")) {
    const auto* node = std::get_if<api::Node>(&object);
    if (node != nullptr && disruption::HasDisruptedTaint(*node)) Trigger(node->metadata.uid);
  }
}

void Provisioner::OnBatchClosed() {
  absl::StatusOr<ProvisionOutcome> outcome = Provision();
  // Not synced yet, or the API failed: try again shortly, as a requeue would.
  if (!outcome.ok() || !outcome->synced) {
    seams_.clock.After(1000, [this] { batcher_.Trigger(); });
  }
}

bool Provisioner::ClusterViewSynced() {
  std::erase_if(unobserved_claims_, [this](const std::string& name) {
    return seams_.reader.Get(ObjectKey{"NodeClaim", "", name}).has_value();
  });
  if (seams_.marks != nullptr && !seams_.marks->ReplacementsObserved(seams_.reader)) return false;
  return unobserved_claims_.empty() && ClusterStateSynced(seams_.reader);
}

void Provisioner::RecordSynced(bool synced) {
  seams_.metrics.Set("karpenter_cluster_state_synced", {}, synced ? 1 : 0);
  const int64_t now = seams_.clock.NowMillis();
  if (synced) {
    unsynced_since_millis_.reset();
  } else if (!unsynced_since_millis_) {
    unsynced_since_millis_ = now;
  }
  const int64_t unsynced = unsynced_since_millis_ ? now - *unsynced_since_millis_ : 0;
  seams_.metrics.Set("karpenter_cluster_state_unsynced_time_seconds", {},
                     static_cast<double>(unsynced) / 1000.0);
}

void Provisioner::RecordQueueDepth(size_t unscheduled) {
  // Upstream's scheduler sets the gauge as it pops pods and leaves the last value (the pods it
  // gave up on) under its scheduling_id until the next solve replaces the series. The solve here
  // is one call and scrapes wait for it, so only that last value could ever be seen.
  if (queue_depth_series_)
    seams_.metrics.Delete("karpenter_scheduler_queue_depth", *queue_depth_series_);
  queue_depth_series_ =
      MetricLabels{{"controller", "provisioner"}, {"scheduling_id", std::to_string(++solves_)}};
  seams_.metrics.Set("karpenter_scheduler_queue_depth", *queue_depth_series_,
                     static_cast<double>(unscheduled));
}

absl::StatusOr<ProvisionOutcome> Provisioner::Provision() {
  ProvisionOutcome outcome;
  const bool synced = ClusterViewSynced();
  RecordSynced(synced);
  if (!synced) {
    outcome.synced = false;
    return outcome;
  }
  absl::StatusOr<state::ClusterSnapshot> snapshot = SnapshotOf(seams_.reader);
  if (!snapshot.ok()) return snapshot.status();
  provisioning::PlanOptions plan_options;
  plan_options.scheduler = options_.scheduler;
  plan_options.now = seams_.clock.Now();
  plan_options.spot_prices = options_.spot_prices;
  if (seams_.marks != nullptr) {
    seams_.marks->Prune(seams_.reader);
    plan_options.marked_for_deletion = seams_.marks->provider_ids();
  }
  plan_options.host_supplies_node_pool_types = seams_.cloud != nullptr;
  plan_options.pending = kPendingPods;
  absl::StatusOr<provisioning::SnapshotSchedulerInput> input =
      provisioning::BuildSchedulerInput(*snapshot, plan_options, catalogs_);
  if (!input.ok()) return input.status();
  if (input->input.pending_pods.empty()) return outcome;
  UseCloudInstanceTypes(seams_.cloud, seams_.logger, "provisioner", *snapshot, *input);
  if (seams_.logger != nullptr) {
    seams_.logger->Debug(
        "computing scheduling decision for provisionable pod(s)",
        {{"controller", "provisioner"}, Count("pending-pods", input->input.pending_pods.size())});
  }
  const int64_t solve_start = seams_.clock.NowMillis();
  provisioning::PlanResult plan = provisioning::PlanFromInput(*input);
  const int64_t solve_millis = seams_.clock.NowMillis() - solve_start;
  seams_.metrics.Observe("karpenter_scheduler_scheduling_duration_seconds",
                         {{"controller", "provisioner"}},
                         static_cast<double>(solve_millis) / 1000.0);
  seams_.metrics.Set("karpenter_scheduler_unschedulable_pods_count",
                     {{"controller", "provisioner"}},
                     static_cast<double>(plan.unschedulable.size()));
  RecordQueueDepth(plan.unschedulable.size());
  LogSolve(*input, plan, solve_millis);

  absl::Status failed;
  for (const provisioning::PlannedNodeClaim& planned : plan.node_claims) {
    const api::NodePool* pool = snapshot->FindNodePool(planned.claim.node_pool);
    if (pool == nullptr) continue;
    const api::NodeClaim claim = ToNodeClaim(planned.claim, *pool);
    absl::StatusOr<api::Object> created = seams_.writer.Create(claim);
    if (!created.ok()) {
      if (failed.ok()) failed = created.status();
      continue;
    }
    const std::string name = KeyOf(*created).name;
    if (!seams_.reader.Get(ObjectKey{"NodeClaim", "", name})) unobserved_claims_.insert(name);
    outcome.created.push_back(name);
    if (seams_.logger != nullptr) {
      seams_.logger->Info("created nodeclaim",
                          {{"controller", "provisioner"},
                           {"NodePool", pool->metadata.name},
                           {"NodeClaim", name},
                           Resources("requests", claim.spec.resources.requests),
                           {"instance-types", FirstItems(InstanceTypesOf(claim), 5)}});
    }
    seams_.metrics.Add(
        "karpenter_nodeclaims_created_total",
        {{"reason", "provisioning"},
         {"nodepool", planned.claim.node_pool},
         {"min_values_relaxed", planned.claim.min_values_relaxed ? "true" : "false"}},
        1);
    for (const std::string& pod : planned.claim.pods) {
      Nominate(seams_.recorder, seams_.reader, pod, absl::StrCat("nodeclaim/", name));
    }
  }
  for (const provisioning::PlannedExistingNode& node : plan.existing_nodes) {
    for (const std::string& pod : node.pods) {
      Nominate(seams_.recorder, seams_.reader, pod, absl::StrCat("node/", node.name));
      outcome.nominated_pods.push_back(pod);
    }
  }
  for (const provisioning::UnschedulablePod& unschedulable : plan.unschedulable) {
    const size_t slash = unschedulable.pod.find('/');
    std::optional<api::Object> object = seams_.reader.Get(
        ObjectKey{"Pod", unschedulable.pod.substr(0, slash), unschedulable.pod.substr(slash + 1)});
    const auto* pod = object ? std::get_if<api::Pod>(&*object) : nullptr;
    if (pod == nullptr) continue;
    ++outcome.unschedulable_pods;
    seams_.recorder.Publish(Event{
        ObjectReference{"Pod", pod->metadata.namespace_, pod->metadata.name, pod->metadata.uid},
        EventType::kWarning, "FailedScheduling",
        absl::StrCat("Failed to schedule pod, ", unschedulable.reason)});
  }
  if (!failed.ok()) return failed;
  return outcome;
}

void Provisioner::LogSolve(const provisioning::SnapshotSchedulerInput& input,
                           const provisioning::PlanResult& plan, int64_t solve_millis) const {
  if (seams_.logger == nullptr || plan.node_claims.empty()) return;
  std::vector<std::string> pods;
  for (const api::Pod& pod : input.input.pending_pods) {
    pods.push_back(absl::StrCat(pod.metadata.namespace_, "/", pod.metadata.name));
  }
  seams_.logger->Info("found provisionable pod(s)",
                      {{"controller", "provisioner"},
                       {"Pods", FirstItems(pods, 5)},
                       {"duration", api::Duration::FromMillis(solve_millis).String()}});
  size_t new_pods = 0;
  for (const provisioning::PlannedNodeClaim& planned : plan.node_claims) {
    new_pods += planned.claim.pods.size();
  }
  seams_.logger->Info("computed new nodeclaim(s) to fit pod(s)",
                      {{"controller", "provisioner"},
                       Count("nodeclaims", plan.node_claims.size()),
                       Count("pods", new_pods)});
  size_t nodes = 0;
  size_t existing_pods = 0;
  for (const provisioning::PlannedExistingNode& node : plan.existing_nodes) {
    if (node.pods.empty()) continue;
    ++nodes;
    existing_pods += node.pods.size();
  }
  if (existing_pods == 0) return;
  seams_.logger->Info(
      "computed unready node(s) will fit pod(s)",
      {{"controller", "provisioner"}, Count("nodes", nodes), Count("pods", existing_pods)});
}

}  // namespace karpenter::controllers
