// The RFC 7386 JSON merge patch that turns one document into another. Writes send only what the
// caller changed: a typed object lacks the fields the engine does not model, so a PUT of it (or
// a patch of all of it) would erase them on the server.
#pragma once

#include "nlohmann/json.hpp"

namespace karpenter::kube {

// Members of `to` that differ from `from` (recursing into objects present in both), and null for
// members `from` has and `to` lacks. Arrays and scalars are replaced whole, as merge patches
// replace them. An empty object when nothing changed.
nlohmann::json MergeDiff(const nlohmann::json& from, const nlohmann::json& to);

}  // namespace karpenter::kube
