// `karpenter validate` on objects of the APIs Karpenter v1 no longer serves (karpenter.sh/v1beta1
// NodePool and NodeClaim, karpenter.k8s.aws/v1beta1 EC2NodeClass, karpenter.sh/v1alpha5
// Provisioner, karpenter.k8s.aws/v1alpha1 AWSNodeTemplate): the v1 spelling of every moved or
// renamed field the object uses, with the object's name, read from the file as written (the v1
// decoder cannot read these objects).
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::cli {

struct LegacyObject {
  std::string api_version;
  std::string kind;
  std::string name;
  // "old.path → new.path (note)" per field the object sets that v1 spells differently.
  std::vector<std::string> moves;
};

// True for the apiVersions above.
bool IsLegacyApiVersion(const std::string& api_version);

// Every object of a legacy apiVersion in `path` (YAML or JSON, `kind: List` items included), in
// file order. InvalidArgument when the file cannot be parsed; standard input ("-") is not re-read
// and yields nothing.
absl::StatusOr<std::vector<LegacyObject>> LegacyObjectsIn(const std::string& path);

}  // namespace karpenter::cli
