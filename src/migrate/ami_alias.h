// The EC2NodeClass `amiSelectorTerms[].alias` that selects the AMI a managed node group's
// `amiType` and `releaseVersion` run.
#pragma once

#include <string>

namespace karpenter::migrate {

struct AmiChoice {
  std::string alias;  // "al2023@v20240625", "bottlerocket@latest"...
  std::string loss;   // why the choice is not the group's AMI; empty when it is
};

// AL2023_*/AL2_* pin the release date of `release_version` ("1.30.0-20240625" →
// al2023@v20240625); Bottlerocket and Windows follow @latest; CUSTOM and unknown types fall back
// to al2023@latest with the loss said.
AmiChoice AmiAliasFor(const std::string& ami_type, const std::string& release_version);

}  // namespace karpenter::migrate
