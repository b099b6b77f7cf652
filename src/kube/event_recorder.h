// Kubernetes Events (core/v1) posted through the client, for the controller host: the events
// seam's implementation against a real API server. De-duplication happens above the seam
// (controllers::DedupingRecorder); a post that fails is counted, never retried (events are
// best-effort, as client-go's broadcaster drops them under pressure).
// Publish only queues: a thread of the recorder's own posts, so a controller that nominates a
// thousand pods does not wait for a thousand POSTs (and the client's rate limit) before it goes
// on, as client-go's broadcaster never makes its callers wait. Like the broadcaster's queue, this
// one holds kMaxQueuedEvents and drops what comes beyond.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "karpenter/clock.h"
#include "karpenter/event_recorder.h"
#include "src/kube/client.h"

namespace karpenter::kube {

class ApiEventRecorder : public EventRecorder {
 public:
  // client-go's maxQueuedEvents.
  static constexpr size_t kMaxQueuedEvents = 1000;

  // `component` is the event's reportingController / source ("karpenter").
  ApiEventRecorder(Client& client, const Clock& clock, std::string component);
  // Events still queued are dropped (shutdown does not wait on the API server).
  ~ApiEventRecorder() override;
  ApiEventRecorder(const ApiEventRecorder&) = delete;
  ApiEventRecorder& operator=(const ApiEventRecorder&) = delete;

  // Queues the event, stamped now; drops it (counted) when kMaxQueuedEvents wait already.
  void Publish(const Event& event) override;
  // Returns once every event queued so far has been posted (or failed).
  void Drain();

  // The JSON body of `event` as posted, at `now`; `sequence` makes the name unique.
  static std::string EventJson(const Event& event, const std::string& component, api::Time now,
                               uint64_t sequence);
  uint64_t failed() const { return failed_.load(); }
  // Events dropped because the queue was full.
  uint64_t dropped() const { return dropped_.load(); }

 private:
  struct Post {
    std::string path;
    std::string body;
  };
  void PostQueued();

  Client& client_;
  const Clock& clock_;
  std::string component_;
  std::atomic<uint64_t> sequence_ = 0;
  std::atomic<uint64_t> failed_ = 0;
  std::atomic<uint64_t> dropped_ = 0;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Post> queue_;
  bool posting_ = false;  // a post taken off the queue is in flight
  bool stopping_ = false;
  std::thread poster_;  // last: starts once everything above exists
};

}  // namespace karpenter::kube
