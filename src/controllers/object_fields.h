// Small readings of API objects the controllers share: a label's value, and how long ago an
// optional timestamp was. Node readiness and true conditions come from src/disruption/node_state.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "karpenter/clock.h"
#include "src/api/time.h"

namespace karpenter::controllers {

// The value of label `key`, or "" when it is not set.
inline std::string LabelOf(const std::map<std::string, std::string>& labels, std::string_view key) {
  auto it = labels.find(std::string(key));
  return it == labels.end() ? std::string() : it->second;
}

// Milliseconds from `since` to the clock's now; 0 when there is no timestamp.
inline int64_t MillisSince(const Clock& clock, const std::optional<api::Time>& since) {
  return since ? (clock.Now() - *since).Nanos() / api::Duration::kMillisecond : 0;
}

inline double SecondsSince(const Clock& clock, const std::optional<api::Time>& since) {
  return since ? (clock.Now() - *since).Seconds() : 0;
}

}  // namespace karpenter::controllers
