#include "src/controllers/work_queue.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace karpenter::controllers {

int64_t RateLimiter::When(const std::string& key) {
  const int failures = failures_[key]++;
  // 5 ms · 2^failures, computed in floating point so a long failure streak saturates at the
  // maximum instead of overflowing.
  const double exponential =
      static_cast<double>(limits_.base_delay_millis) * std::pow(2.0, std::min(failures, 62));
  const int64_t backoff = exponential >= static_cast<double>(limits_.max_delay_millis)
                              ? limits_.max_delay_millis
                              : static_cast<int64_t>(exponential);
  return std::max(backoff, BucketDelay());
}

int RateLimiter::NumRequeues(const std::string& key) const {
  auto it = failures_.find(key);
  return it == failures_.end() ? 0 : it->second;
}

// A token bucket of `bucket_burst` tokens refilled at `bucket_per_second`, kept as the instant
// at which the bucket would be full again: each reservation moves it one token interval later.
int64_t RateLimiter::BucketDelay() {
  if (limits_.bucket_per_second <= 0) return 0;
  const int64_t now = clock_.NowMillis();
  const double interval = 1000.0 / limits_.bucket_per_second;
  const int64_t capacity =
      static_cast<int64_t>(interval * static_cast<double>(limits_.bucket_burst));
  int64_t full_at = std::max(bucket_full_at_.value_or(now), now);
  full_at += static_cast<int64_t>(std::llround(interval));
  bucket_full_at_ = full_at;
  // The token is free once the bucket holds at least one: full_at − capacity ≤ now.
  return std::max<int64_t>(0, full_at - capacity - now);
}

WorkQueue::WorkQueue(Clock& clock, RateLimits limits, std::function<void()> ready)
    : clock_(clock), limiter_(clock, limits), ready_(std::move(ready)) {}

void WorkQueue::Add(const std::string& key) {
  if (dirty_.contains(key)) return;
  dirty_.insert(key);
  if (processing_.contains(key)) return;  // queued again when Done
  queue_.push_back(key);
  if (ready_) ready_();
}

void WorkQueue::AddAfter(const std::string& key, int64_t delay_millis) {
  if (delay_millis <= 0) {
    Add(key);
    return;
  }
  const int64_t at = clock_.NowMillis() + delay_millis;
  auto it = waiting_.find(key);
  if (it != waiting_.end() && it->second <= at) return;  // an earlier wake-up already stands
  waiting_[key] = at;
  clock_.After(delay_millis, [this, key, at] { FireWaiting(key, at); });
}

void WorkQueue::FireWaiting(const std::string& key, int64_t at) {
  auto it = waiting_.find(key);
  // A later AddAfter that asked for an earlier instant replaced this wake-up.
  if (it == waiting_.end() || it->second != at) return;
  waiting_.erase(it);
  Add(key);
}

std::optional<std::string> WorkQueue::Get() {
  if (queue_.empty()) return std::nullopt;
  std::string key = std::move(queue_.front());
  queue_.pop_front();
  dirty_.erase(key);
  processing_.insert(key);
  return key;
}

void WorkQueue::Done(const std::string& key) {
  processing_.erase(key);
  if (!dirty_.contains(key)) return;
  queue_.push_back(key);
  if (ready_) ready_();
}

}  // namespace karpenter::controllers
