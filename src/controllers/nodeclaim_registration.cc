// The registration and initialization steps of NodeClaimLifecycle (upstream:
// lifecycle/registration.go and initialization.go).
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/disruption/node_state.h"

namespace karpenter::controllers {
namespace {

// Two taints are the same taint when key and effect match (corev1.Taint.MatchTaint).
bool SameTaint(const api::Taint& a, const api::Taint& b) {
  return a.key == b.key && a.effect == b.effect;
}

void MergeTaints(std::vector<api::Taint>& into, const std::vector<api::Taint>& taints) {
  for (const api::Taint& taint : taints) {
    if (std::none_of(into.begin(), into.end(),
                     [&](const api::Taint& held) { return SameTaint(held, taint); })) {
      into.push_back(taint);
    }
  }
}

bool IsUnregisteredTaint(const api::Taint& taint) {
  return taint.key == api::kUnregisteredTaintKey && taint.effect == "NoExecute";
}

// Taints that nodes carry while they start (upstream's scheduling.KnownEphemeralTaints and its
// key prefix for the node readiness controller): initialization waits for them to go.
bool IsKnownEphemeralTaint(const api::Taint& taint) {
  if (taint.key == "node.kubernetes.io/not-ready") {
    return taint.effect == "NoSchedule" || taint.effect == "NoExecute";
  }
  if (taint.key == "node.kubernetes.io/unreachable" ||
      taint.key == "node.cloudprovider.kubernetes.io/uninitialized") {
    return taint.effect == "NoSchedule";
  }
  return IsUnregisteredTaint(taint) || taint.key.starts_with("readiness.k8s.io/");
}

// Go's %q of corev1.Taint.ToString(): key[=value]:effect.
std::string TaintString(const api::Taint& taint) {
  return taint.value.empty() ? absl::StrCat(taint.key, ":", taint.effect)
                             : absl::StrCat(taint.key, "=", taint.value, ":", taint.effect);
}

// The NodeClaim's view pushed onto its Node: finalizer, owner, labels, annotations and (unless
// the node opts out) taints and startup taints.
void SyncNode(const api::NodeClaim& claim, api::Node& node) {
  if (std::find(node.metadata.finalizers.begin(), node.metadata.finalizers.end(),
                api::kTerminationFinalizer) == node.metadata.finalizers.end()) {
    node.metadata.finalizers.emplace_back(api::kTerminationFinalizer);
  }
  const bool owned =
      std::any_of(node.metadata.owner_references.begin(), node.metadata.owner_references.end(),
                  [&](const api::OwnerReference& owner) {
                    return owner.api_version == claim.api_version && owner.kind == claim.kind &&
                           owner.uid == claim.metadata.uid;
                  });
  if (!owned) {
    api::OwnerReference owner;
    owner.api_version = claim.api_version;
    owner.kind = claim.kind;
    owner.name = claim.metadata.name;
    owner.uid = claim.metadata.uid;
    owner.block_owner_deletion = true;
    node.metadata.owner_references.push_back(std::move(owner));
  }
  auto no_sync = node.metadata.labels.find(std::string(api::kNodeDoNotSyncTaintsLabelKey));
  if (no_sync == node.metadata.labels.end() || no_sync->second != "true") {
    MergeTaints(node.spec.taints, claim.spec.taints);
    MergeTaints(node.spec.taints, claim.spec.startup_taints);
  }
  for (const auto& [key, value] : claim.metadata.annotations) {
    node.metadata.annotations[key] = value;
  }
  for (const auto& [key, value] : claim.metadata.labels) node.metadata.labels[key] = value;
}

}  // namespace

void RegisterNode(const api::NodeClaim& claim, api::Node& node) {
  SyncNode(claim, node);
  std::erase_if(node.spec.taints, IsUnregisteredTaint);
  node.metadata.labels[std::string(api::kNodeRegisteredLabelKey)] = "true";
}

std::optional<InitializationBlock> InitializationBlocker(const api::NodeClaim& claim,
                                                         const api::Node& node) {
  if (!disruption::IsNodeReady(node)) {
    return InitializationBlock{"NodeNotReady", "Node status is NotReady"};
  }
  for (const api::Taint& startup : claim.spec.startup_taints) {
    for (const api::Taint& taint : node.spec.taints) {
      if (SameTaint(startup, taint)) {
        return InitializationBlock{
            "StartupTaintsExist",
            absl::StrCat("StartupTaint \"", TaintString(taint), "\" still exists")};
      }
    }
  }
  for (const api::Taint& taint : node.spec.taints) {
    if (IsKnownEphemeralTaint(taint)) {
      return InitializationBlock{
          "KnownEphemeralTaintsExist",
          absl::StrCat("KnownEphemeralTaint \"", TaintString(taint), "\" still exists")};
    }
  }
  for (const auto& [resource, quantity] : claim.spec.resources.requests) {
    if (quantity.IsZero()) continue;
    auto allocatable = node.status.allocatable.find(resource);
    if (allocatable == node.status.allocatable.end() || allocatable->second.IsZero()) {
      return InitializationBlock{
          "ResourceNotRegistered",
          absl::StrCat("Resource \"", resource, "\" was requested but not registered")};
    }
  }
  return std::nullopt;
}

absl::StatusOr<ReconcileResult> NodeClaimLifecycle::Register(api::NodeClaim& claim,
                                                             ConditionSet& conditions) {
  if (!conditions.IsUnknown(api::kConditionTypeRegistered)) return ReconcileResult{};
  std::optional<api::Node> node;
  if (!claim.status.provider_id.empty()) {
    node = seams_.reader.NodeByProviderId(claim.status.provider_id);
  }
  if (!node) {
    conditions.SetUnknown(api::kConditionTypeRegistered, "NodeNotFound",
                          "Node not registered with cluster");
    return ReconcileResult{};
  }
  const bool has_unregistered_taint =
      std::any_of(node->spec.taints.begin(), node->spec.taints.end(), IsUnregisteredTaint);
  if (!node->metadata.labels.contains(std::string(api::kNodeRegisteredLabelKey)) &&
      !has_unregistered_taint) {
    Publish(claim, "UnregisteredTaintMissing",
            absl::StrCat("Missing ", std::string(api::kUnregisteredTaintKey),
                         " taint which prevents registration related race conditions on "
                         "Karpenter-managed nodes"));
  }
  const api::Node stored = *node;
  RegisterNode(claim, *node);
  if (*node != stored) {
    // The Node is written at the resourceVersion it was read at: a kubelet's concurrent update
    // wins and this pass is retried.
    absl::StatusOr<api::Object> written = seams_.writer.Update(*node);
    if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
    if (!written.ok()) {
      return absl::Status(written.status().code(),
                          absl::StrCat("patching node, ", written.status().message()));
    }
  }
  conditions.SetTrue(api::kConditionTypeRegistered);
  claim.status.node_name = node->metadata.name;
  Log("registered nodeclaim", claim, {{"Node", node->metadata.name}});
  seams_.metrics.Add("karpenter_nodes_created_total",
                     {{"nodepool", claim.metadata.labels[std::string(api::kNodePoolLabelKey)]},
                      {"zone", claim.metadata.labels[std::string(api::kLabelTopologyZone)]}},
                     1);
  absl::Status health = RecordRegistration(claim, /*registered=*/true, conditions);
  if (absl::IsAborted(health)) return ReconcileResult{std::nullopt, true};
  if (!health.ok() && !absl::IsNotFound(health)) return health;
  return ReconcileResult{};
}

absl::StatusOr<ReconcileResult> NodeClaimLifecycle::Initialize(api::NodeClaim& claim,
                                                               ConditionSet& conditions) {
  if (!conditions.IsUnknown(api::kConditionTypeInitialized)) return ReconcileResult{};
  if (!conditions.IsTrue(api::kConditionTypeRegistered)) return ReconcileResult{};
  std::optional<api::Node> node = seams_.reader.NodeByProviderId(claim.status.provider_id);
  if (!node) {
    conditions.SetUnknown(api::kConditionTypeInitialized, "NodeNotFound",
                          "Node not registered with cluster");
    return ReconcileResult{};
  }
  if (std::optional<InitializationBlock> block = InitializationBlocker(claim, *node)) {
    conditions.SetUnknown(api::kConditionTypeInitialized, block->reason, block->message);
    return ReconcileResult{};
  }
  auto initialized = node->metadata.labels.find(std::string(api::kNodeInitializedLabelKey));
  if (initialized == node->metadata.labels.end() || initialized->second != "true") {
    // A merge patch of the one label this controller owns: no precondition needed.
    const std::string patch =
        absl::StrCat(R"({"metadata":{"labels":{")", std::string(api::kNodeInitializedLabelKey),
                     R"(":"true"}}})");
    absl::StatusOr<api::Object> written =
        seams_.writer.MergePatch(ObjectKey{"Node", "", node->metadata.name}, patch);
    if (!written.ok()) return written.status();
  }
  conditions.SetTrue(api::kConditionTypeInitialized);
  Log("initialized nodeclaim", claim,
      {{"Node", node->metadata.name}, {"allocatable", ResourceListText(node->status.allocatable)}});
  return ReconcileResult{};
}

}  // namespace karpenter::controllers
