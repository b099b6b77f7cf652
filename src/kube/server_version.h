// The API server's Kubernetes version as "MAJOR.MINOR" ("1.33"), read from GET /version as
// upstream's version provider reads the discovery ServerVersion (EKS answers minor "33+"; the
// "+" is dropped). The AWS provider picks the EKS AMI SSM parameters of that version.
#pragma once

#include <string>

#include "karpenter/common/status.h"
#include "src/kube/client.h"

namespace karpenter::kube {

// kUnavailable (or the call's own code) when the server cannot be asked; kInvalidArgument naming
// the field when the answer has no numeric `major` / `minor`.
absl::StatusOr<std::string> ServerMinorVersion(Client& client);

}  // namespace karpenter::kube
