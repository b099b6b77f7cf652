#include "src/kube/merge_diff.h"

namespace karpenter::kube {

nlohmann::json MergeDiff(const nlohmann::json& from, const nlohmann::json& to) {
  nlohmann::json patch = nlohmann::json::object();
  if (!from.is_object() || !to.is_object()) return to;
  for (const auto& [key, value] : from.items()) {
    if (!to.contains(key)) patch[key] = nullptr;
  }
  for (const auto& [key, value] : to.items()) {
    auto old = from.find(key);
    if (old == from.end()) {
      patch[key] = value;
    } else if (old->is_object() && value.is_object()) {
      nlohmann::json nested = MergeDiff(*old, value);
      if (!nested.empty()) patch[key] = std::move(nested);
    } else if (*old != value) {
      patch[key] = value;
    }
  }
  return patch;
}

}  // namespace karpenter::kube
