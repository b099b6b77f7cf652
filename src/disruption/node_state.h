// Questions the disruption engine asks about one Node and its NodeClaim (upstream
// pkg/controllers/state StateNode): managed, initialized, ready, deleting, already disrupting,
// which pool, and how its status conditions read.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/api/node.h"
#include "src/api/nodeclaim.h"
#include "src/api/time.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

// The condition of that type when its status is "True".
const api::Condition* TrueCondition(const api::NodeClaim& node_claim, std::string_view type);

// Initialized: the node carries karpenter.sh/initialized=true or its NodeClaim reports
// Initialized=True.
bool IsInitialized(const api::Node& node, const api::NodeClaim& node_claim);
// The Node's Ready condition is True.
bool IsNodeReady(const api::Node& node);
// The node or its NodeClaim has a deletionTimestamp, or the instance is terminating.
bool IsDeleting(const api::Node& node, const api::NodeClaim* node_claim);
// Tainted karpenter.sh/disrupted: an earlier command owns it (the orchestration queue).
bool HasDisruptedTaint(const api::Node& node);
// karpenter.sh/nodepool of the node (NodeClaim labels when the node lacks it), or "".
std::string NodePoolOf(const api::Node& node, const api::NodeClaim* node_claim);
// The label from the node, else from its NodeClaim, else "".
std::string LabelOf(const api::Node& node, const api::NodeClaim* node_claim, std::string_view key);

// expireAfter of the NodeClaim (its pool's template when the claim has none; 720h default);
// nullopt for Never.
std::optional<api::Duration> ExpireAfter(const api::NodeClaim& node_claim,
                                         const api::NodePool* node_pool);
// When the NodeClaim expires, or nullopt (Never, or no creationTimestamp).
std::optional<api::Time> ExpirationTime(const api::NodeClaim& node_claim,
                                        const api::NodePool* node_pool);

}  // namespace karpenter::disruption
