#include "src/controllers/nodepool_health.h"

#include <algorithm>

namespace karpenter::controllers {

RegistrationHealth NodePoolHealth::Verdict(const std::deque<bool>& outcomes) {
  if (outcomes.empty()) return RegistrationHealth::kUnknown;
  // Failures count against the full buffer, not against the outcomes seen so far: two
  // failures are needed before a pool is unhealthy, however young it is.
  const auto failures = static_cast<size_t>(std::count(outcomes.begin(), outcomes.end(), false));
  return failures >= kUnhealthyFailures ? RegistrationHealth::kUnhealthy
                                        : RegistrationHealth::kHealthy;
}

RegistrationHealth NodePoolHealth::Status(const std::string& uid) const {
  auto it = outcomes_.find(uid);
  return it == outcomes_.end() ? RegistrationHealth::kUnknown : Verdict(it->second);
}

RegistrationHealth NodePoolHealth::StatusWith(const std::string& uid, bool registered) const {
  std::deque<bool> outcomes;
  if (auto it = outcomes_.find(uid); it != outcomes_.end()) outcomes = it->second;
  outcomes.push_back(registered);
  if (outcomes.size() > kOutcomes) outcomes.pop_front();
  return Verdict(outcomes);
}

void NodePoolHealth::Record(const std::string& uid, bool registered) {
  std::deque<bool>& outcomes = outcomes_[uid];
  outcomes.push_back(registered);
  if (outcomes.size() > kOutcomes) outcomes.pop_front();
}

}  // namespace karpenter::controllers
