// Upstream: aws/karpenter-provider-aws pkg/providers/amifamily/{al2023,al2,bottlerocket,
// windows}.go (DescribeImageQuery) and types.go (Variant). An `alias` term ("al2023@latest",
// "bottlerocket@v1.20.3") names the EKS-optimized images through SSM parameters, one per
// architecture and accelerator variant. Each parameter also says which instance types its image
// serves, which DescribeImages cannot tell: the standard image only types without GPUs or
// accelerators, the NVIDIA image types with GPUs, the Neuron image types with accelerators.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/selector.h"

namespace karpenter::aws {

using RequirementSet = std::vector<api::NodeSelectorRequirement>;

enum class AmiVariant { kStandard, kNvidia, kNeuron };

// The instance types an image of `variant` serves.
RequirementSet VariantRequirements(AmiVariant variant);

struct AliasParameter {
  std::string name;
  // The architecture of the image it names, in EC2's spelling ("x86_64", "arm64").
  std::string architecture;
  // One set per kind of instance type the image serves, before its architecture is added (the
  // AL2 GPU image serves NVIDIA and Neuron types alike).
  std::vector<RequirementSet> requirements;
};

// The parameters `alias` resolves through on a cluster of `kubernetes_version` ("1.32").
// InvalidArgument naming the alias when the family is unknown or a Windows alias asks for a
// version other than latest; FailedPrecondition for AL2 on Kubernetes 1.33 and later and for
// Windows Server 2025 before 1.35, which EKS publishes no images for.
absl::StatusOr<std::vector<AliasParameter>> AliasParameters(std::string_view alias,
                                                            std::string_view kubernetes_version);

}  // namespace karpenter::aws
