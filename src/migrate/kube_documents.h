// Kubernetes objects read as plain JSON, for the fields the typed decoder of `src/api` skips
// (a container's command, args and env; a ConfigMap's data): the Cluster Autoscaler Deployment,
// its priority-expander ConfigMap and the aws-node DaemonSet.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "nlohmann/json.hpp"

namespace karpenter::migrate {

struct KubeDocument {
  std::string where;  // "SOURCE: Kind/namespace/name", the prefix of every message about it
  std::string kind;
  std::string namespace_;
  std::string name;
  nlohmann::json object;
};

// Every object of a YAML stream or a JSON value (the items of a `kind: List` one by one), after
// the same size and nesting checks as the AWS CLI files. InvalidArgument naming `source`.
absl::StatusOr<std::vector<KubeDocument>> ParseKubeDocuments(std::string_view text,
                                                             std::string_view source);
absl::StatusOr<std::vector<KubeDocument>> LoadKubeDocumentsFile(const std::string& path);

// The container list of a Deployment or DaemonSet (empty when absent or malformed).
const nlohmann::json* ContainersOf(const KubeDocument& document);

}  // namespace karpenter::migrate
