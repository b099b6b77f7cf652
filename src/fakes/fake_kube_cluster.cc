#include "src/fakes/fake_kube_cluster.h"

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "src/api/manifest.h"
#include "src/api/selector_match.h"
#include "src/apiserver/object_writes.h"

namespace karpenter::fakes {

using apiserver::ConflictError;
using apiserver::CopyStatus;
using apiserver::MetaOf;
using apiserver::NotFoundError;

std::optional<absl::Status> FakeKubeCluster::TakeFailure(Verb verb) {
  if (conflicts_left_ > 0) {
    --conflicts_left_;
    return absl::AbortedError("injected conflict");
  }
  auto it = failures_.find(verb);
  if (it == failures_.end() || it->second.empty()) return std::nullopt;
  absl::Status status = std::move(it->second.front());
  it->second.pop_front();
  return status;
}

void FakeKubeCluster::Log(std::string_view verb, const ObjectKey& key, std::string_view outcome) {
  std::string line = std::string(verb) + " " + key.kind + "/";
  if (!key.namespace_.empty()) line += key.namespace_ + "/";
  line += key.name;
  if (!outcome.empty()) line += " " + std::string(outcome);
  writes_.push_back(std::move(line));
}

void FakeKubeCluster::Notify(const ObjectKey& key) {
  auto it = watches_.find(key.kind);
  if (it == watches_.end()) return;
  for (const auto& on_change : it->second) on_change(key);
}

void FakeKubeCluster::Watch(std::string_view kind,
                            std::function<void(const ObjectKey&)> on_change) {
  watches_[std::string(kind)].push_back(std::move(on_change));
}

std::optional<api::Object> FakeKubeCluster::Get(const ObjectKey& key) const {
  auto it = objects_.find(key);
  if (it == objects_.end()) return std::nullopt;
  return it->second;
}

std::vector<api::Object> FakeKubeCluster::List(std::string_view kind) const {
  std::vector<api::Object> out;
  for (const auto& [key, object] : objects_) {
    if (key.kind == kind) out.push_back(object);
  }
  return out;
}

std::vector<api::Pod> FakeKubeCluster::PodsOnNode(std::string_view node_name) const {
  std::vector<api::Pod> out;
  for (const auto& [key, object] : objects_) {
    const auto* pod = std::get_if<api::Pod>(&object);
    if (pod != nullptr && pod->spec.node_name == node_name) out.push_back(*pod);
  }
  return out;
}

std::optional<api::Node> FakeKubeCluster::NodeByProviderId(std::string_view provider_id) const {
  for (const auto& [key, object] : objects_) {
    const auto* node = std::get_if<api::Node>(&object);
    if (node != nullptr && node->spec.provider_id == provider_id) return *node;
  }
  return std::nullopt;
}

std::optional<api::NodeClaim> FakeKubeCluster::NodeClaimByProviderId(
    std::string_view provider_id) const {
  for (const auto& [key, object] : objects_) {
    const auto* claim = std::get_if<api::NodeClaim>(&object);
    if (claim != nullptr && claim->status.provider_id == provider_id) return *claim;
  }
  return std::nullopt;
}

api::Object FakeKubeCluster::Store(const ObjectKey& key, api::Object object) {
  const api::ObjectMeta& meta = MetaOf(object);
  if (meta.deletion_timestamp && meta.finalizers.empty()) {
    objects_.erase(key);
  } else {
    objects_[key] = object;
  }
  Notify(key);
  return object;
}

absl::StatusOr<api::Object> FakeKubeCluster::Create(const api::Object& object) {
  api::Object created = object;
  api::ObjectMeta& meta = MetaOf(created);
  if (meta.name.empty() && !meta.generate_name.empty()) {
    meta.name = absl::StrCat(meta.generate_name, "x", ++uids_);
  }
  const ObjectKey key = KeyOf(created);
  if (std::optional<absl::Status> failure = TakeFailure(Verb::kCreate)) {
    Log("Create", key, failure->ToString());
    return *failure;
  }
  if (key.name.empty()) return absl::InvalidArgumentError("metadata.name: Required value");
  if (objects_.contains(key)) {
    Log("Create", key, "AlreadyExists");
    return apiserver::AlreadyExistsError(key);
  }
  meta.uid = absl::StrCat("uid-", ++uids_);
  meta.resource_version = NextResourceVersion();
  meta.creation_timestamp = clock_.Now();
  meta.deletion_timestamp.reset();
  Log("Create", key);
  return Store(key, std::move(created));
}

absl::StatusOr<api::Object*> FakeKubeCluster::FindForWrite(Verb verb, std::string_view name,
                                                           const api::Object& object) {
  const ObjectKey key = KeyOf(object);
  if (std::optional<absl::Status> failure = TakeFailure(verb)) {
    Log(name, key, failure->ToString());
    return *failure;
  }
  auto it = objects_.find(key);
  if (it == objects_.end()) return NotFoundError(key);
  const std::string& given = MetaOf(object).resource_version;
  if (!apiserver::VersionMatches(given, MetaOf(it->second).resource_version)) {
    Log(name, key, "Conflict");
    return ConflictError(key);
  }
  return &it->second;
}

void FakeKubeCluster::KeepServerFields(const api::ObjectMeta& stored, api::ObjectMeta& meta) {
  apiserver::KeepServerFields(stored, meta);
  meta.resource_version = NextResourceVersion();
}

absl::StatusOr<api::Object> FakeKubeCluster::Update(const api::Object& object) {
  KP_ASSIGN_OR_RETURN(api::Object * stored, FindForWrite(Verb::kUpdate, "Update", object));
  api::Object updated = object;
  CopyStatus(*stored, updated);
  KeepServerFields(MetaOf(*stored), MetaOf(updated));
  Log("Update", KeyOf(object));
  return Store(KeyOf(object), std::move(updated));
}

absl::StatusOr<api::Object> FakeKubeCluster::UpdateStatus(const api::Object& object) {
  KP_ASSIGN_OR_RETURN(api::Object * stored,
                      FindForWrite(Verb::kUpdateStatus, "UpdateStatus", object));
  api::Object updated = *stored;
  CopyStatus(object, updated);
  MetaOf(updated).resource_version = NextResourceVersion();
  Log("UpdateStatus", KeyOf(object));
  return Store(KeyOf(object), std::move(updated));
}

absl::StatusOr<api::Object> FakeKubeCluster::MergePatch(const ObjectKey& key,
                                                        std::string_view patch) {
  if (std::optional<absl::Status> failure = TakeFailure(Verb::kMergePatch)) {
    Log("MergePatch", key, failure->ToString());
    return *failure;
  }
  auto it = objects_.find(key);
  if (it == objects_.end()) return NotFoundError(key);
  absl::StatusOr<api::Object> patched = apiserver::ApplyMergePatch(it->second, patch);
  if (absl::IsAborted(patched.status())) Log("MergePatch", key, "Conflict");
  if (!patched.ok()) return patched.status();
  MetaOf(*patched).resource_version = NextResourceVersion();
  Log("MergePatch", key);
  return Store(key, *std::move(patched));
}

absl::Status FakeKubeCluster::Delete(const ObjectKey& key, const DeleteOptions& options) {
  if (std::optional<absl::Status> failure = TakeFailure(Verb::kDelete)) {
    Log("Delete", key, failure->ToString());
    return *failure;
  }
  auto it = objects_.find(key);
  if (it == objects_.end()) return NotFoundError(key);
  api::ObjectMeta& meta = MetaOf(it->second);
  if (!options.uid.empty() && options.uid != meta.uid) {
    Log("Delete", key, "Conflict");
    return ConflictError(key);
  }
  Log("Delete", key,
      options.grace_period_seconds ? absl::StrCat("grace=", *options.grace_period_seconds) : "");
  // A pod on a node is deleted gracefully: it stays, terminating, until its kubelet confirms
  // (ReapTerminatingPods); an unbound pod, or a grace period of 0, goes at once.
  const auto* pod = std::get_if<api::Pod>(&it->second);
  int64_t grace = 0;
  if (pod != nullptr && !pod->spec.node_name.empty()) {
    grace = options.grace_period_seconds.value_or(
        pod->spec.termination_grace_period_seconds.value_or(30));
  }
  if (meta.finalizers.empty() && grace <= 0) {
    objects_.erase(it);
    Notify(key);
    return absl::OkStatus();
  }
  if (!meta.deletion_timestamp || (pod != nullptr && grace > 0)) {
    const api::Time deadline = clock_.Now() + api::Duration::FromSeconds(grace);
    if (!meta.deletion_timestamp || deadline < *meta.deletion_timestamp) {
      meta.deletion_timestamp = deadline;
      if (pod != nullptr) meta.deletion_grace_period_seconds = grace;
      meta.resource_version = NextResourceVersion();
      Notify(key);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<EvictionResult> FakeKubeCluster::Evict(const ObjectKey& pod_key,
                                                      std::string_view uid) {
  if (std::optional<absl::Status> failure = TakeFailure(Verb::kEvict)) {
    Log("Evict", pod_key, failure->ToString());
    return *failure;
  }
  auto it = objects_.find(pod_key);
  if (it == objects_.end()) {
    Log("Evict", pod_key, "404");
    return EvictionResult::kNotFound;
  }
  api::Pod& pod = std::get<api::Pod>(it->second);
  if (!uid.empty() && uid != pod.metadata.uid) {
    Log("Evict", pod_key, "409");
    return EvictionResult::kConflict;
  }
  std::vector<api::PodDisruptionBudget*> budgets;
  for (auto& [key, object] : objects_) {
    auto* pdb = std::get_if<api::PodDisruptionBudget>(&object);
    if (pdb != nullptr && key.namespace_ == pod_key.namespace_ && pdb->spec.selector &&
        api::Matches(pdb->spec.selector, pod.metadata.labels)) {
      budgets.push_back(pdb);
    }
  }
  if (budgets.size() > 1) {
    Log("Evict", pod_key, "500");
    return absl::InternalError(
        "This pod has more than one PodDisruptionBudget, which the "
        "eviction subresource does not support.");
  }
  if (!pod.metadata.deletion_timestamp && !budgets.empty()) {
    if (budgets[0]->status.disruptions_allowed <= 0) {
      Log("Evict", pod_key, "429");
      return EvictionResult::kTooManyRequests;
    }
    --budgets[0]->status.disruptions_allowed;
    budgets[0]->metadata.resource_version = NextResourceVersion();
  }
  if (!pod.metadata.deletion_timestamp) {
    pod.metadata.deletion_timestamp = clock_.Now();
    pod.metadata.resource_version = NextResourceVersion();
  }
  Log("Evict", pod_key, "201");
  Notify(pod_key);
  return EvictionResult::kEvicted;
}

void FakeKubeCluster::ReapTerminatingPods() {
  std::vector<ObjectKey> gone;
  for (const auto& [key, object] : objects_) {
    const auto* pod = std::get_if<api::Pod>(&object);
    if (pod != nullptr && pod->metadata.deletion_timestamp && pod->metadata.finalizers.empty()) {
      gone.push_back(key);
    }
  }
  for (const ObjectKey& key : gone) {
    objects_.erase(key);
    Notify(key);
  }
}

absl::Status CreateFromFile(FakeKubeCluster& cluster, const std::string& path) {
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::LoadManifestFile(path);
  if (!manifests.ok()) return manifests.status();
  for (const api::Manifest& manifest : *manifests) {
    if (!manifest.object) {
      return absl::InvalidArgumentError(manifest.source + ": " + manifest.Ref() + " not decoded");
    }
    if (absl::StatusOr<api::Object> created = cluster.Create(*manifest.object); !created.ok()) {
      return created.status();
    }
  }
  return absl::OkStatus();
}

absl::Status CreateWithStatus(FakeKubeCluster& cluster, std::string_view yaml) {
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::DecodeManifests(yaml, "test.yaml");
  if (!manifests.ok()) return manifests.status();
  for (api::Manifest& manifest : *manifests) {
    if (!manifest.object) {
      return absl::InvalidArgumentError(manifest.source + ": " + manifest.Ref() + " not decoded");
    }
    const api::Object wanted = *std::move(manifest.object);
    absl::StatusOr<api::Object> created = cluster.Create(wanted);
    if (!created.ok()) return created.status();
    absl::Status written = std::visit(
        [&](auto& stored) -> absl::Status {
          using T = std::decay_t<decltype(stored)>;
          if constexpr (std::is_same_v<T, api::Node> || std::is_same_v<T, api::NodeClaim> ||
                        std::is_same_v<T, api::Pod>) {
            stored.status = std::get<T>(wanted).status;
            return cluster.UpdateStatus(stored).status();
          }
          return absl::OkStatus();
        },
        *created);
    if (!written.ok()) return written;
  }
  return absl::OkStatus();
}

absl::Status CreateUnschedulablePod(FakeKubeCluster& cluster, const std::string& name,
                                    const std::string& cpu, const std::string& memory) {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  api::Container container;
  container.name = "app";
  container.image = "nginx";
  for (const auto& [resource, text] : {std::pair{"cpu", cpu}, std::pair{"memory", memory}}) {
    absl::StatusOr<api::Quantity> quantity = api::Quantity::Parse(text);
    if (!quantity.ok()) return quantity.status();
    container.resources.requests[resource] = *quantity;
  }
  pod.spec.containers.push_back(std::move(container));
  absl::StatusOr<api::Object> created = cluster.Create(pod);
  if (!created.ok()) return created.status();
  pod = std::get<api::Pod>(*std::move(created));
  pod.status.phase = "Pending";
  pod.status.conditions.push_back(
      {.type = "PodScheduled", .status = "False", .reason = "Unschedulable"});
  return cluster.UpdateStatus(pod).status();
}

}  // namespace karpenter::fakes
