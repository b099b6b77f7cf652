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

// One field of a legacy object that v1 spells differently, drops, requires or defaults otherwise.
struct LegacyField {
  std::string from;    // dotted path in the old object; "path[key]" for a map key
  std::string change;  // "moved", "renamed", "removed", "required", "default changed"
  std::string to;      // the v1 spelling and what else changes
};

struct LegacyObject {
  std::string api_version;
  std::string kind;
  std::string name;
  // Per field the object sets (or lacks) that v1 treats differently.
  std::vector<LegacyField> moves;
};

// True for the apiVersions above.
bool IsLegacyApiVersion(const std::string& api_version);

// Every object of a legacy apiVersion in `path` (YAML or JSON, `kind: List` items included), in
// file order. InvalidArgument when the file cannot be parsed; standard input ("-") is not re-read
// and yields nothing.
absl::StatusOr<std::vector<LegacyObject>> LegacyObjectsIn(const std::string& path);

}  // namespace karpenter::cli
