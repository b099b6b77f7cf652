// Taints and tolerations (v1.Taint, v1.Toleration). Matching lives in taint_match.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/api/time.h"

namespace karpenter::api {

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule | PreferNoSchedule | NoExecute
  std::optional<Time> time_added;
  bool operator==(const Taint&) const = default;
  template <class V>
  void Fields(V& v) {
    v("key", key);
    v("value", value);
    v("effect", effect);
    v("timeAdded", time_added);
  }
};

struct Toleration {
  std::string key;
  std::string operator_;  // Exists | Equal ("" means Equal)
  std::string value;
  std::string effect;  // "" matches every effect
  std::optional<int64_t> toleration_seconds;
  bool operator==(const Toleration&) const = default;
  template <class V>
  void Fields(V& v) {
    v("key", key);
    v("operator", operator_);
    v("value", value);
    v("effect", effect);
    v("tolerationSeconds", toleration_seconds);
  }
};

}  // namespace karpenter::api
