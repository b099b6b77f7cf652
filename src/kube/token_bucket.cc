#include "src/kube/token_bucket.h"

#include <algorithm>
#include <cmath>

#include "src/kube/clock_wait.h"

namespace karpenter::kube {

TokenBucket::TokenBucket(Clock& clock, double qps, int burst)
    : clock_(clock),
      qps_(qps),
      burst_(std::max(1, burst)),
      tokens_(burst_),
      last_millis_(clock.NowMillis()) {}

int64_t TokenBucket::Reserve() {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t now = clock_.NowMillis();
  tokens_ = std::min(burst_, tokens_ + static_cast<double>(now - last_millis_) * qps_ / 1000.0);
  last_millis_ = now;
  tokens_ -= 1;
  if (tokens_ >= 0) return 0;
  return static_cast<int64_t>(std::ceil(-tokens_ * 1000.0 / qps_));
}

void TokenBucket::Wait() { WaitOnClock(clock_, Reserve()); }

}  // namespace karpenter::kube
