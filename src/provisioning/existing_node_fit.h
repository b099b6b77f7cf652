// For `plan --explain pod/NS/NAME`: whether one pod alone fits each existing node and in-flight
// NodeClaim of a scheduler input, asked of the same ExistingNode checks the solve uses (taints,
// host ports, volume limits, resources, requirements, topology), with the check that refuses it.
// The solve itself, which places other pods first, stays the authority on where the pod lands.
#pragma once

#include <string>
#include <vector>

#include "src/api/pod.h"
#include "src/provisioning/types.h"

namespace karpenter::provisioning {

struct ExistingNodeFit {
  std::string node;
  bool initialized = true;  // false: an in-flight NodeClaim or a node still initializing
  std::string refusal;      // "" when the pod fits
};

// In the order the solve tries them: initialized nodes first, then by name.
std::vector<ExistingNodeFit> ExplainExistingNodes(const SchedulerInput& input, const api::Pod& pod);

}  // namespace karpenter::provisioning
