// An InterruptionQueue whose receives happen on a thread of their own. The controllers share
// one event-loop thread, so a long poll there (upstream waits 20 s on SQS in a goroutine of its
// own) would stall every controller for as long; a short poll would cost a call a second and
// still block the loop for most of it. Here one thread long-polls the inner queue and buffers
// what arrives, and the controller's Receive only takes from the buffer, at once.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "karpenter/interruption_queue.h"

namespace karpenter::aws {

struct BackgroundReceiveOptions {
  // Messages held for the controller at most; the thread waits while the buffer is full, so a
  // stalled controller leaves the rest in the queue (visible again to whoever receives next).
  size_t max_buffered = 100;
  // Per receive call of the inner queue.
  size_t batch = 10;
  // After a failed receive, before the next (a queue that cannot be reached is not hammered).
  int retry_millis = 1000;
  // After a receive that brought nothing. SQS has long-polled already by then, so this costs
  // little; it keeps an inner queue that answers at once from spinning.
  int idle_millis = 1000;
};

class BackgroundReceiveQueue final : public InterruptionQueue {
 public:
  // `inner` must be safe to Receive on the thread while Delete runs on the caller's, and must
  // outlive this object; its Receive should return within its long-poll wait.
  BackgroundReceiveQueue(InterruptionQueue& inner, BackgroundReceiveOptions options = {});
  // Stops the thread; waits for a receive in flight (at most the inner queue's long poll).
  ~BackgroundReceiveQueue() override;
  BackgroundReceiveQueue(const BackgroundReceiveQueue&) = delete;
  BackgroundReceiveQueue& operator=(const BackgroundReceiveQueue&) = delete;

  // Up to `max_messages` buffered messages, without waiting; the last receive error when none is
  // buffered and the thread's latest receive failed.
  absl::StatusOr<std::vector<QueueMessage>> Receive(size_t max_messages) override;
  absl::Status Delete(const QueueMessage& message) override { return inner_.Delete(message); }
  std::string Name() const override { return inner_.Name(); }

 private:
  void Run();

  InterruptionQueue& inner_;
  const BackgroundReceiveOptions options_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<QueueMessage> buffered_;
  absl::Status last_error_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace karpenter::aws
