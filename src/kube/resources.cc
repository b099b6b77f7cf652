#include "src/kube/resources.h"

#include <array>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/api/manifest.h"

namespace karpenter::kube {
namespace {

struct Plural {
  std::string_view kind;
  std::string_view plural;
  bool namespaced;
  std::string_view api_version;  // only for kinds outside api::Object
};

constexpr Plural kPlurals[] = {
    {"Pod", "pods", true, ""},
    {"Node", "nodes", false, ""},
    {"DaemonSet", "daemonsets", true, ""},
    {"Deployment", "deployments", true, ""},
    {"ReplicaSet", "replicasets", true, ""},
    {"StatefulSet", "statefulsets", true, ""},
    {"Job", "jobs", true, ""},
    {"PodDisruptionBudget", "poddisruptionbudgets", true, ""},
    {"PersistentVolume", "persistentvolumes", false, ""},
    {"PersistentVolumeClaim", "persistentvolumeclaims", true, ""},
    {"StorageClass", "storageclasses", false, ""},
    {"CSINode", "csinodes", false, ""},
    {"VolumeAttachment", "volumeattachments", false, ""},
    {"NodeClaim", "nodeclaims", false, ""},
    {"NodePool", "nodepools", false, ""},
    {"EC2NodeClass", "ec2nodeclasses", false, ""},
    {"Namespace", "namespaces", false, "v1"},
    {"Event", "events", true, "v1"},
    {"Lease", "leases", true, "coordination.k8s.io/v1"},
};

// The apiVersion the typed struct of `kind` carries by default; empty for unmodelled kinds.
template <size_t... I>
std::string ModelledApiVersion(std::string_view kind, std::index_sequence<I...>) {
  std::string found;
  auto check = [&](auto typed) {
    if (found.empty() && typed.kind == kind) found = typed.api_version;
  };
  (check(std::variant_alternative_t<I, api::Object>{}), ...);
  return found;
}

std::vector<Resource> BuildResources() {
  std::vector<Resource> resources;
  for (const Plural& p : kPlurals) {
    std::string version =
        ModelledApiVersion(p.kind, std::make_index_sequence<std::variant_size_v<api::Object>>());
    if (version.empty()) version = std::string(p.api_version);
    resources.push_back(
        Resource{std::string(p.kind), std::move(version), std::string(p.plural), p.namespaced});
  }
  return resources;
}

}  // namespace

const Resource* FindResource(std::string_view kind) {
  // Built once from constants; read-only afterwards.
  static const std::vector<Resource> kResources = BuildResources();
  for (const Resource& resource : kResources) {
    if (resource.kind == kind) return &resource;
  }
  return nullptr;
}

std::string CollectionPath(const Resource& resource, std::string_view namespace_) {
  const bool core = resource.api_version.find('/') == std::string::npos;
  std::string path = absl::StrCat(core ? "/api/" : "/apis/", resource.api_version);
  if (resource.namespaced && !namespace_.empty()) {
    absl::StrAppend(&path, "/namespaces/", std::string(namespace_));
  }
  absl::StrAppend(&path, "/", resource.plural);
  return path;
}

std::string ObjectPath(const Resource& resource, std::string_view namespace_,
                       std::string_view name) {
  return absl::StrCat(CollectionPath(resource, namespace_), "/", std::string(name));
}

}  // namespace karpenter::kube
