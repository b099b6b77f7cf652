// Upstream: k8s.io/client-go/util/workqueue (queue.go, delaying_queue.go, default_rate_limiters.go)
// as controller-runtime uses it. A queue of keys for reconcilers on the Clock seam:
//   - a key is queued at most once: adding a queued key does nothing, and adding a key that is
//     being processed queues it again only once its processing is Done;
//   - AddAfter holds a key back, keeping only the earliest time asked for;
//   - AddRateLimited holds it back by the rate limiter: per-key exponential backoff (5 ms
//     doubling up to 1,000 s) and, above it, an overall token bucket (10 per second, burst 100);
//     Forget clears the key's failures.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "karpenter/clock.h"

namespace karpenter::controllers {

struct RateLimits {
  int64_t base_delay_millis = 5;
  int64_t max_delay_millis = 1000 * 1000;
  double bucket_per_second = 10;
  int64_t bucket_burst = 100;
};

// The delay before a key may be retried: the larger of its exponential backoff and the overall
// bucket's. Upstream's MaxOfRateLimiter(ItemExponentialFailureRateLimiter, BucketRateLimiter).
class RateLimiter {
 public:
  RateLimiter(const Clock& clock, RateLimits limits) : clock_(clock), limits_(limits) {}

  // Records one more failure of `key` and returns how long it must wait.
  int64_t When(const std::string& key);
  void Forget(const std::string& key) { failures_.erase(key); }
  int NumRequeues(const std::string& key) const;

 private:
  int64_t BucketDelay();

  const Clock& clock_;
  RateLimits limits_;
  std::map<std::string, int> failures_;
  // The token bucket as the instant from which the next token is free (reservations move it).
  std::optional<int64_t> bucket_full_at_;
};

class WorkQueue {
 public:
  // `ready` is called whenever a key becomes available to Get (the owner schedules processing).
  WorkQueue(Clock& clock, RateLimits limits, std::function<void()> ready);

  void Add(const std::string& key);
  void AddAfter(const std::string& key, int64_t delay_millis);
  void AddRateLimited(const std::string& key) { AddAfter(key, limiter_.When(key)); }
  void Forget(const std::string& key) { limiter_.Forget(key); }
  int NumRequeues(const std::string& key) const { return limiter_.NumRequeues(key); }

  // The next key to process, or nullopt when none is ready. The caller must call Done(key).
  std::optional<std::string> Get();
  void Done(const std::string& key);

  // Keys ready to Get.
  size_t Len() const { return queue_.size(); }
  // Keys held back by AddAfter / AddRateLimited.
  size_t Waiting() const { return waiting_.size(); }
  bool Processing(const std::string& key) const { return processing_.contains(key); }

 private:
  void FireWaiting(const std::string& key, int64_t at);

  Clock& clock_;
  RateLimiter limiter_;
  std::function<void()> ready_;
  std::deque<std::string> queue_;
  std::set<std::string> dirty_;             // queued, or to be queued again when Done
  std::set<std::string> processing_;        // handed out by Get, not yet Done
  std::map<std::string, int64_t> waiting_;  // key → the earliest instant it was asked for
};

}  // namespace karpenter::controllers
