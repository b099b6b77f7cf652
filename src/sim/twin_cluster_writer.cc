#include "src/sim/twin_cluster_writer.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/apiserver/object_writes.h"
#include "src/controllers/eviction_queue.h"
#include "src/state/generated_names.h"

namespace karpenter::sim {
namespace {

using apiserver::MetaOf;

bool IsKarpenterKind(std::string_view kind) {
  return kind == "NodeClaim" || kind == "NodePool" || kind == "EC2NodeClass";
}

// Whether the twin takes `verb` ("Create", "Update", ...) for `kind`.
bool Takes(std::string_view verb, std::string_view kind) {
  if (IsKarpenterKind(kind)) return true;
  if (kind == "Node") return verb != "Create";
  if (kind == "Pod") return verb == "Delete";
  return false;
}

absl::Status Refused(std::string_view verb, std::string_view kind) {
  std::string message = "the twin does not take ";
  message.append(verb).append(" of ").append(kind);
  message +=
      ": it writes NodeClaims, NodePools and EC2NodeClasses, updates and deletes Nodes, and "
      "deletes and evicts Pods";
  return absl::InvalidArgumentError(message);
}

std::string PodKey(const ObjectKey& key) { return key.namespace_ + "/" + key.name; }

}  // namespace

TwinClusterWriter::TwinClusterWriter(Cluster& cluster, TwinClusterReader& reader)
    : cluster_(cluster), reader_(reader) {
  reader_.TrackResourceVersions();
}

absl::StatusOr<api::Object> TwinClusterWriter::Stored(const ObjectKey& key, std::string_view verb,
                                                      std::string_view version) const {
  if (!Takes(verb, key.kind)) return Refused(verb, key.kind);
  std::optional<api::Object> stored = reader_.Get(key);
  if (!stored) return apiserver::NotFoundError(key);
  if (!apiserver::VersionMatches(version, MetaOf(*stored).resource_version)) {
    return apiserver::ConflictError(key);
  }
  return *std::move(stored);
}

absl::StatusOr<api::Object> TwinClusterWriter::Create(const api::Object& object) {
  api::Object created = object;
  api::ObjectMeta& meta = MetaOf(created);
  if (!Takes("Create", KeyOf(created).kind)) return Refused("Create", KeyOf(created).kind);
  if (!meta.resource_version.empty()) {
    return absl::InvalidArgumentError(
        "metadata.resourceVersion: Invalid value: must not be set on create");
  }
  const uint64_t ordinal = ++created_;
  if (meta.name.empty() && !meta.generate_name.empty()) {
    // As the API server expands generateName, but reproducibly.
    meta.name = state::GeneratedName(
        meta.generate_name, state::StableHash({meta.generate_name, std::to_string(ordinal)}));
  }
  const ObjectKey key = KeyOf(created);
  if (key.name.empty()) return absl::InvalidArgumentError("metadata.name: Required value");
  if (reader_.Get(key)) return apiserver::AlreadyExistsError(key);
  meta.uid = state::DeterministicUid({key.kind, key.name, std::to_string(ordinal)});
  meta.creation_timestamp = cluster_.queue().Now();
  meta.deletion_timestamp.reset();
  return Store(std::move(created));
}

absl::StatusOr<api::Object> TwinClusterWriter::Update(const api::Object& object) {
  const ObjectKey key = KeyOf(object);
  KP_ASSIGN_OR_RETURN(api::Object stored, Stored(key, "Update", MetaOf(object).resource_version));
  api::Object updated = object;
  apiserver::CopyStatus(stored, updated);
  apiserver::KeepServerFields(MetaOf(stored), MetaOf(updated));
  return Store(std::move(updated));
}

absl::StatusOr<api::Object> TwinClusterWriter::UpdateStatus(const api::Object& object) {
  const ObjectKey key = KeyOf(object);
  KP_ASSIGN_OR_RETURN(api::Object stored,
                      Stored(key, "UpdateStatus", MetaOf(object).resource_version));
  apiserver::CopyStatus(object, stored);
  return Store(std::move(stored));
}

absl::StatusOr<api::Object> TwinClusterWriter::MergePatch(const ObjectKey& key,
                                                          std::string_view patch) {
  KP_ASSIGN_OR_RETURN(api::Object stored, Stored(key, "MergePatch"));
  KP_ASSIGN_OR_RETURN(api::Object patched, apiserver::ApplyMergePatch(stored, patch));
  return Store(std::move(patched));
}

absl::Status TwinClusterWriter::Delete(const ObjectKey& key, const DeleteOptions& options) {
  KP_ASSIGN_OR_RETURN(api::Object stored, Stored(key, "Delete"));
  api::ObjectMeta& meta = MetaOf(stored);
  if (!options.uid.empty() && options.uid != meta.uid) return apiserver::ConflictError(key);
  if (const auto* pod = std::get_if<api::Pod>(&stored)) {
    // A pod already terminating keeps its deadline; the twin does not shorten it.
    if (meta.deletion_timestamp) return absl::OkStatus();
    cluster_.DeleteGracefully(PodKey(key), options.grace_period_seconds.value_or(
                                               pod->spec.termination_grace_period_seconds.value_or(
                                                   api::kDefaultTerminationGracePeriodSeconds)));
    return absl::OkStatus();
  }
  if (meta.finalizers.empty()) return Remove(key);
  if (meta.deletion_timestamp) return absl::OkStatus();
  meta.deletion_timestamp = cluster_.queue().Now();
  return Store(std::move(stored)).status();
}

absl::StatusOr<EvictionResult> TwinClusterWriter::Evict(const ObjectKey& pod,
                                                        std::string_view uid) {
  if (pod.kind != "Pod") return Refused("Evict", pod.kind);
  std::optional<api::Object> stored = reader_.Get(pod);
  if (!stored) return EvictionResult::kNotFound;
  const api::ObjectMeta& meta = MetaOf(*stored);
  if (!uid.empty() && uid != meta.uid) return EvictionResult::kConflict;
  // Being deleted already: the eviction has nothing left to do, and says so with 201.
  if (meta.deletion_timestamp) return EvictionResult::kEvicted;
  switch (cluster_.Evict(PodKey(pod))) {
    case Cluster::Eviction::kEvicted:
      return EvictionResult::kEvicted;
    case Cluster::Eviction::kBlockedByPdb:
      return EvictionResult::kTooManyRequests;
    case Cluster::Eviction::kMultiplePdbs:
      return absl::InternalError(std::string(controllers::kMultiplePdbsMessage));
    case Cluster::Eviction::kNoSuchPod:
      break;
  }
  return EvictionResult::kNotFound;
}

absl::StatusOr<api::Object> TwinClusterWriter::Store(api::Object object) {
  api::ObjectMeta& meta = MetaOf(object);
  const ObjectKey key = KeyOf(object);
  if (meta.deletion_timestamp && meta.finalizers.empty()) {
    KP_RETURN_IF_ERROR(Remove(key));
    return object;
  }
  // The twin stores no versions; the reader stamps the one this change is given.
  meta.resource_version.clear();
  if (auto* claim = std::get_if<api::NodeClaim>(&object)) {
    cluster_.PutNodeClaim(std::move(*claim));
  } else if (auto* pool = std::get_if<api::NodePool>(&object)) {
    cluster_.PutNodePool(std::move(*pool));
  } else if (auto* node_class = std::get_if<api::EC2NodeClass>(&object)) {
    cluster_.PutNodeClass(std::move(*node_class));
  } else if (auto* node = std::get_if<api::Node>(&object)) {
    if (!cluster_.PutNode(*node)) return apiserver::NotFoundError(key);
  } else {
    return Refused("writes", key.kind);
  }
  std::optional<api::Object> stored = reader_.Get(key);
  if (!stored) return apiserver::NotFoundError(key);
  return *std::move(stored);
}

absl::Status TwinClusterWriter::Remove(const ObjectKey& key) {
  if (key.kind == "NodeClaim") {
    cluster_.DeleteNodeClaim(key.name);
  } else if (key.kind == "NodePool") {
    cluster_.RemoveNodePool(key.name);
  } else if (key.kind == "EC2NodeClass") {
    cluster_.RemoveNodeClass(key.name);
  } else if (key.kind == "Node") {
    return absl::FailedPreconditionError(absl::StrCat(
        "Node \"", key.name,
        "\": the twin keeps a Node while its instance runs; delete its NodeClaim (the cloud "
        "provider terminates the instance) instead"));
  } else {
    return Refused("Delete", key.kind);
  }
  return absl::OkStatus();
}

}  // namespace karpenter::sim
