#include "src/state/ownership.h"

namespace karpenter::state {

bool RefersTo(const api::OwnerReference& ref, std::string_view kind, const api::ObjectMeta& owner) {
  if (ref.kind != kind || ref.name != owner.name) return false;
  return ref.uid.empty() || owner.uid.empty() || ref.uid == owner.uid;
}

bool IsOwnedByObject(const api::ObjectMeta& child, std::string_view kind,
                     const api::ObjectMeta& owner) {
  if (child.namespace_ != owner.namespace_) return false;
  for (const api::OwnerReference& ref : child.owner_references) {
    if (RefersTo(ref, kind, owner)) return true;
  }
  return false;
}

const api::OwnerReference* ControllerOf(const api::ObjectMeta& meta) {
  for (const api::OwnerReference& ref : meta.owner_references) {
    if (ref.controller.value_or(false)) return &ref;
  }
  return nullptr;
}

}  // namespace karpenter::state
