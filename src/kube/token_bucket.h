// The client's request-rate limit (KUBE_CLIENT_QPS / KUBE_CLIENT_BURST): a token bucket holding
// up to `burst` tokens and refilled at `qps` per second, as client-go's flowcontrol limiter.
// Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>

#include "karpenter/clock.h"

namespace karpenter::kube {

class TokenBucket {
 public:
  // Starts full.
  TokenBucket(Clock& clock, double qps, int burst);

  // Takes a token and returns how many milliseconds the caller must wait before using it: 0 when
  // one was in the bucket. Tokens taken ahead of time are owed, so callers are served in order.
  int64_t Reserve();
  // Reserve, then wait on the clock until the token is due.
  void Wait();

 private:
  Clock& clock_;
  const double qps_;
  const double burst_;
  std::mutex mu_;
  double tokens_;
  int64_t last_millis_;
};

}  // namespace karpenter::kube
