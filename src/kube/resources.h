// Where each kind lives on the API server: its group/version, plural resource name and scope.
// The kinds of api::Object take their apiVersion from the typed structs (the kind registry), so
// a version bump there moves the paths too; the kinds the engine does not model (Namespace,
// Event, Lease) are listed with theirs.
#pragma once

#include <string>
#include <string_view>

namespace karpenter::kube {

struct Resource {
  std::string kind;
  std::string api_version;  // "v1", "policy/v1"
  std::string plural;       // "pods"
  bool namespaced = false;
};

// The resource of `kind`, or nullptr when the client does not know it.
const Resource* FindResource(std::string_view kind);

// "/api/v1/namespaces/NS/pods" or "/apis/karpenter.sh/v1/nodeclaims" (every namespace when
// `namespace_` is empty).
std::string CollectionPath(const Resource& resource, std::string_view namespace_);
// The collection path plus "/NAME".
std::string ObjectPath(const Resource& resource, std::string_view namespace_,
                       std::string_view name);

}  // namespace karpenter::kube
