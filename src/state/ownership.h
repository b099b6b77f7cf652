// Which object owns which: owner references between objects of one snapshot. Workload expansion
// counts the pods a controller already has, DaemonSet overhead finds a DaemonSet's live pod.
#pragma once

#include <string_view>

#include "src/api/meta.h"

namespace karpenter::state {

// `ref` names the object of `kind` described by `owner`: same kind and name, and the same uid
// whenever both carry one (hand-written snapshots often leave uids out).
bool RefersTo(const api::OwnerReference& ref, std::string_view kind, const api::ObjectMeta& owner);

// `child` lives in `owner`'s namespace and has an owner reference to it. Owner references never
// cross namespaces, so a same-named owner elsewhere does not count.
bool IsOwnedByObject(const api::ObjectMeta& child, std::string_view kind,
                     const api::ObjectMeta& owner);

// The owner reference with controller: true, or nullptr when the object has no controller.
const api::OwnerReference* ControllerOf(const api::ObjectMeta& meta);

}  // namespace karpenter::state
