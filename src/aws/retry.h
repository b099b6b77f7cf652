// Retries as the AWS SDKs' "standard" mode does them: a few attempts with full-jitter exponential
// backoff, drawn from a token bucket shared by the process so that an outage or a throttling storm
// turns into fast failures instead of a retry storm (reference/reliability.md R6).
#pragma once

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "src/aws/clock.h"

namespace karpenter::aws {

struct RetryOptions {
  int max_attempts = 3;
  absl::Duration base_delay = absl::Seconds(1);
  absl::Duration max_backoff = absl::Seconds(20);
  // Token costs of the SDKs' standard mode: a retry takes 5 tokens (10 after a timeout), a retry
  // that then succeeds gives its tokens back, and a first-attempt success adds 1.
  int retry_cost = 5;
  int timeout_cost = 10;
  int success_increment = 1;
};

// The retry budget: a bucket of tokens shared by every client that should back off together.
class RetryQuota {
 public:
  explicit RetryQuota(int capacity = 500) : capacity_(capacity), available_(capacity) {}

  // Takes `cost` tokens; false (and nothing taken) when fewer are left.
  bool TryAcquire(int cost);
  // Returns tokens, never above the capacity.
  void Release(int amount);
  int available() const;

 private:
  const int capacity_;
  mutable absl::Mutex mu_;
  int available_ ABSL_GUARDED_BY(mu_);
};

// The wait before attempt `attempt + 1` (attempt counts from 1): uniform in
// [0, min(max_backoff, base_delay * 2^(attempt-1))).
absl::Duration RetryBackoff(int attempt, Random& random, const RetryOptions& options);

}  // namespace karpenter::aws
