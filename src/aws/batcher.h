// The threaded side of request batching: callers block in `Add` while a dispatcher thread waits
// out the batch window (on the injected `Clock`), runs one executor call per batch and hands each
// caller its own result. The window rules live in `BatchQueue` (batching.h).
#pragma once

#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "src/aws/batching.h"
#include "src/aws/clock.h"

namespace karpenter::aws {

template <typename Request, typename Response>
class Batcher {
 public:
  using KeyFn = std::function<std::string(const Request&)>;
  // Runs one batch; returns one result per request, in order (a shorter answer fails the rest).
  using Executor =
      std::function<std::vector<absl::StatusOr<Response>>(const std::vector<Request>&)>;

  Batcher(Clock& clock, BatchWindowOptions options, KeyFn key, Executor execute)
      : clock_(clock),
        options_(options),
        key_(std::move(key)),
        execute_(std::move(execute)),
        queue_(options) {
    dispatcher_ = std::thread([this] { Dispatch(); });
  }

  // Requests still waiting are failed with kCancelled. Joins the dispatcher, which may first have
  // to finish a nap on the clock (at most the idle timeout).
  ~Batcher() {
    Stop();
    dispatcher_.join();
    for (auto& batch : queue_.TakeDue(absl::InfiniteFuture())) {
      for (Pending& pending : batch.items) {
        pending.result.set_value(absl::CancelledError("batcher stopped"));
      }
    }
  }
  Batcher(const Batcher&) = delete;
  Batcher& operator=(const Batcher&) = delete;

  // Refuses new requests and tells the dispatcher to run no more batches.
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
  }

  // Blocks until the batch holding `request` has run; kCancelled once stopped.
  absl::StatusOr<Response> Add(Request request) {
    std::future<absl::StatusOr<Response>> result;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return absl::CancelledError("batcher stopped");
      Pending pending{std::move(request), {}};
      result = pending.result.get_future();
      const std::string key = key_(pending.request);
      queue_.Add(key, std::move(pending), clock_.Now());
    }
    cv_.notify_all();
    return result.get();
  }

  // Requests waiting for their batch (for tests and metrics).
  size_t waiting() const {
    std::lock_guard<std::mutex> lock(mu_);
    return queue_.waiting();
  }
  // Executor calls made so far.
  int batches() const {
    std::lock_guard<std::mutex> lock(mu_);
    return batches_;
  }

 private:
  struct Pending {
    Request request;
    std::promise<absl::StatusOr<Response>> result;
  };

  void Dispatch() {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      cv_.wait(lock, [this] { return stopping_ || queue_.NextDue().has_value(); });
      if (stopping_) return;
      const absl::Time now = clock_.Now();
      const absl::Time due = *queue_.NextDue();
      if (due > now) {
        // Short naps: a batch that opens meanwhile may fall due before this one.
        lock.unlock();
        clock_.SleepFor(std::min(due - now, options_.idle_timeout));
        lock.lock();
        continue;
      }
      auto batches = queue_.TakeDue(now);
      batches_ += static_cast<int>(batches.size());
      lock.unlock();
      for (auto& batch : batches) Run(batch.items);
      lock.lock();
    }
  }

  void Run(std::vector<Pending>& items) {
    std::vector<Request> requests;
    requests.reserve(items.size());
    for (const Pending& pending : items) requests.push_back(pending.request);
    std::vector<absl::StatusOr<Response>> results = execute_(requests);
    for (size_t i = 0; i < items.size(); ++i) {
      if (i < results.size()) {
        items[i].result.set_value(std::move(results[i]));
      } else {
        items[i].result.set_value(absl::InternalError("batch executor returned too few results"));
      }
    }
  }

  Clock& clock_;
  const BatchWindowOptions options_;
  const KeyFn key_;
  const Executor execute_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  BatchQueue<Pending> queue_;
  bool stopping_ = false;
  int batches_ = 0;
  std::thread dispatcher_;
};

}  // namespace karpenter::aws
