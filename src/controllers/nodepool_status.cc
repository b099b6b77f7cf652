#include "src/controllers/nodepool_status.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "nlohmann/json.hpp"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/object_fields.h"
#include "src/disruption/node_state.h"

namespace karpenter::controllers {
namespace {

// Upstream's counter rate: 10 per second, bursts of 100, as its other controllers.
const RateLimits kNodePoolRateLimits{};

// Taints as a set: the order they are written in is no change.
nlohmann::json TaintSet(const std::vector<api::Taint>& taints) {
  std::vector<std::string> encoded;
  for (const api::Taint& taint : taints) {
    nlohmann::json one = {{"key", taint.key}, {"value", taint.value}, {"effect", taint.effect}};
    if (taint.time_added) one["timeAdded"] = taint.time_added->UnixNanos();
    encoded.push_back(one.dump());
  }
  std::sort(encoded.begin(), encoded.end());
  encoded.erase(std::unique(encoded.begin(), encoded.end()), encoded.end());
  return encoded;
}

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ULL;
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string AnnotationOf(const api::ObjectMeta& meta, std::string_view key) {
  return LabelOf(meta.annotations, key);
}

// A state node's capacity as upstream's cluster state reports it: the Node's once initialized,
// before that the NodeClaim's where the Node reports nothing (yet).
api::ResourceList CapacityOf(const api::NodeClaim& claim, const std::optional<api::Node>& node) {
  if (!node) return claim.status.capacity;
  if (LabelOf(node->metadata.labels, api::kNodeInitializedLabelKey) == "true") {
    return node->status.capacity;
  }
  api::ResourceList capacity = node->status.capacity;
  for (const auto& [name, quantity] : claim.status.capacity) {
    auto it = capacity.find(name);
    if (it == capacity.end() || it->second.IsZero()) capacity[name] = quantity;
  }
  return capacity;
}

void AddInto(api::ResourceList& total, const api::ResourceList& more) {
  for (const auto& [name, quantity] : more) total[name].Add(quantity);
}

}  // namespace

std::string NodePoolHash(const api::NodePool& pool) {
  const api::NodeClaimTemplate& tmpl = pool.spec.template_;
  nlohmann::json canonical = {
      {"labels", tmpl.metadata.labels},
      {"annotations", tmpl.metadata.annotations},
      {"taints", TaintSet(tmpl.spec.taints)},
      {"startupTaints", TaintSet(tmpl.spec.startup_taints)},
  };
  if (const auto& ref = tmpl.spec.node_class_ref) {
    canonical["nodeClassRef"] = {{"group", ref->group}, {"kind", ref->kind}, {"name", ref->name}};
  }
  if (const auto& expire = tmpl.spec.expire_after) {
    canonical["expireAfter"] =
        expire->IsNever() ? nlohmann::json("Never") : nlohmann::json(expire->duration->Nanos());
  }
  if (const auto& grace = tmpl.spec.termination_grace_period) {
    canonical["terminationGracePeriod"] = grace->value.Nanos();
  }
  return std::to_string(Fnv1a64(canonical.dump()));
}

api::ResourceList NodePoolResources(const ClusterReader& reader, std::string_view pool) {
  api::ResourceList total;
  for (const char* name : {"cpu", "memory", "pods", "ephemeral-storage", "nodes"}) {
    total[name] = api::Quantity();
  }
  std::set<std::string> counted;  // provider IDs
  const auto count = [&total](const api::ResourceList& capacity) {
    AddInto(total, capacity);
    total["nodes"].Add(api::Quantity::FromInt(1, api::Quantity::Format::kDecimalSI));
  };
  for (const api::Object& object : reader.List("NodeClaim")) {
    const auto& claim = std::get<api::NodeClaim>(object);
    // A claim not launched yet is no node of the cluster's state.
    if (claim.status.provider_id.empty()) continue;
    std::optional<api::Node> node = reader.NodeByProviderId(claim.status.provider_id);
    const auto& labels = node ? node->metadata.labels : claim.metadata.labels;
    if (LabelOf(labels, api::kNodePoolLabelKey) != pool) continue;
    counted.insert(claim.status.provider_id);
    count(CapacityOf(claim, node));
  }
  for (const api::Object& object : reader.List("Node")) {
    const auto& node = std::get<api::Node>(object);
    if (LabelOf(node.metadata.labels, api::kNodePoolLabelKey) != pool) continue;
    if (!node.spec.provider_id.empty() && counted.contains(node.spec.provider_id)) continue;
    count(node.status.capacity);
  }
  return total;
}

void CountNodePool(const ClusterReader& reader, api::NodePool& pool) {
  pool.status.resources = NodePoolResources(reader, pool.metadata.name);
  pool.status.nodes = pool.status.resources["nodes"].Value();
}

NodePoolHashController::NodePoolHashController(NodePoolSeams seams)
    : seams_(seams),
      controller_(
          "nodepool.hash", seams.clock, [this](const std::string& name) { return Reconcile(name); },
          kNodePoolRateLimits) {}

void NodePoolHashController::Start() {
  seams_.reader.Watch("NodePool", [this](const ObjectKey& key) { controller_.Enqueue(key.name); });
  for (const api::Object& object : seams_.reader.List("NodePool")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodePoolHashController::Reconcile(const std::string& name) {
  std::optional<api::Object> object = seams_.reader.Get(ObjectKey{"NodePool", "", name});
  const auto* pool = object ? std::get_if<api::NodePool>(&*object) : nullptr;
  if (pool == nullptr) return ReconcileResult{};
  const std::string hash = NodePoolHash(*pool);
  if (AnnotationOf(pool->metadata, api::kNodePoolHashVersionAnnotationKey) !=
      kNodePoolHashVersion) {
    if (absl::Status restamped = RestampNodeClaims(*pool, hash); !restamped.ok()) {
      return restamped;
    }
  }
  if (AnnotationOf(pool->metadata, api::kNodePoolHashAnnotationKey) == hash &&
      AnnotationOf(pool->metadata, api::kNodePoolHashVersionAnnotationKey) ==
          kNodePoolHashVersion) {
    return ReconcileResult{};
  }
  nlohmann::json patch;
  patch["metadata"]["annotations"][std::string(api::kNodePoolHashAnnotationKey)] = hash;
  patch["metadata"]["annotations"][std::string(api::kNodePoolHashVersionAnnotationKey)] =
      kNodePoolHashVersion;
  absl::StatusOr<api::Object> patched =
      seams_.writer.MergePatch(ObjectKey{"NodePool", "", name}, patch.dump());
  if (!patched.ok() && !absl::IsNotFound(patched.status())) return patched.status();
  return ReconcileResult{};
}

absl::Status NodePoolHashController::RestampNodeClaims(const api::NodePool& pool,
                                                       const std::string& hash) {
  absl::Status failed;
  for (const api::Object& object : seams_.reader.List("NodeClaim")) {
    const auto& claim = std::get<api::NodeClaim>(object);
    if (LabelOf(claim.metadata.labels, api::kNodePoolLabelKey) != pool.metadata.name) continue;
    if (AnnotationOf(claim.metadata, api::kNodePoolHashVersionAnnotationKey) ==
        kNodePoolHashVersion) {
      continue;
    }
    nlohmann::json annotations;
    annotations[std::string(api::kNodePoolHashVersionAnnotationKey)] = kNodePoolHashVersion;
    // Whether a drifted claim still differs cannot be told across hash versions: it stays so.
    if (disruption::TrueCondition(claim, api::kConditionTypeDrifted) == nullptr) {
      annotations[std::string(api::kNodePoolHashAnnotationKey)] = hash;
    }
    nlohmann::json patch;
    patch["metadata"]["annotations"] = std::move(annotations);
    absl::StatusOr<api::Object> patched =
        seams_.writer.MergePatch(ObjectKey{"NodeClaim", "", claim.metadata.name}, patch.dump());
    if (!patched.ok() && !absl::IsNotFound(patched.status())) failed.Update(patched.status());
  }
  return failed;
}

NodePoolCounter::NodePoolCounter(NodePoolSeams seams)
    : seams_(seams),
      controller_(
          "nodepool.counter", seams.clock,
          [this](const std::string& name) { return Reconcile(name); }, kNodePoolRateLimits) {}

void NodePoolCounter::Start() {
  // Only new pools are enqueued by events; each keeps itself current every 5 s after that.
  seams_.reader.Watch("NodePool", [this](const ObjectKey& key) {
    if (seams_.reader.Get(key)) controller_.Enqueue(key.name);
  });
  for (const api::Object& object : seams_.reader.List("NodePool")) {
    controller_.Enqueue(KeyOf(object).name);
  }
}

absl::StatusOr<ReconcileResult> NodePoolCounter::Reconcile(const std::string& name) {
  // On a partial view the counts would drop, and limits would let too much through.
  if (!seams_.reader.Synced()) return ReconcileResult{1000, false};
  std::optional<api::Object> object = seams_.reader.Get(ObjectKey{"NodePool", "", name});
  const auto* stored = object ? std::get_if<api::NodePool>(&*object) : nullptr;
  if (stored == nullptr) return ReconcileResult{};
  api::NodePool pool = *stored;
  CountNodePool(seams_.reader, pool);
  if (pool.status != stored->status) {
    absl::StatusOr<api::Object> written = seams_.writer.UpdateStatus(pool);
    if (!written.ok()) {
      if (absl::IsNotFound(written.status())) return ReconcileResult{};
      if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
      return written.status();
    }
  }
  return ReconcileResult{kNodePoolCounterPeriodMillis, false};
}

}  // namespace karpenter::controllers
