#include "src/aws/retry.h"

#include <algorithm>

namespace karpenter::aws {

bool RetryQuota::TryAcquire(int cost) {
  absl::MutexLock lock(&mu_);
  if (available_ < cost) return false;
  available_ -= cost;
  return true;
}

void RetryQuota::Release(int amount) {
  absl::MutexLock lock(&mu_);
  available_ = std::min(capacity_, available_ + amount);
}

int RetryQuota::available() const {
  absl::MutexLock lock(&mu_);
  return available_;
}

absl::Duration RetryBackoff(int attempt, Random& random, const RetryOptions& options) {
  absl::Duration ceiling = options.base_delay;
  for (int i = 1; i < attempt && ceiling < options.max_backoff; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, options.max_backoff);
  return ceiling * random.Uniform01();
}

}  // namespace karpenter::aws
