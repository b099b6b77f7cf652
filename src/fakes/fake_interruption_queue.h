// An InterruptionQueue for tests: messages sent by the test are received in order (at most the
// number asked for), stay until deleted, and receiving can be made to fail.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "karpenter/interruption_queue.h"

namespace karpenter::fakes {

class FakeInterruptionQueue : public InterruptionQueue {
 public:
  // Queues a message; returns its id.
  std::string Send(std::string body, api::Time sent = {});
  // The next `count` Receive calls fail with kUnavailable.
  void FailReceives(int count) { failing_receives_ = count; }

  absl::StatusOr<std::vector<QueueMessage>> Receive(size_t max_messages) override;
  absl::Status Delete(const QueueMessage& message) override;
  std::string Name() const override { return "fake-queue"; }

  size_t size() const { return messages_.size(); }
  uint64_t deleted() const { return deleted_; }

 private:
  std::map<uint64_t, QueueMessage> messages_;  // by send order
  uint64_t sent_ = 0;
  uint64_t deleted_ = 0;
  int failing_receives_ = 0;
};

}  // namespace karpenter::fakes
