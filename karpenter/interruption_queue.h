// The interruption seam: the queue of EC2 events (EventBridge → SQS in AWS) that the
// interruption controller drains. Long polling and visibility timeouts are the implementation's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/time.h"

namespace karpenter {

struct QueueMessage {
  std::string id;
  // What Delete needs; opaque to the caller.
  std::string receipt_handle;
  std::string body;
  // When the queue received it (SQS SentTimestamp), for the queue-duration metric.
  api::Time sent;
};

class InterruptionQueue {
 public:
  virtual ~InterruptionQueue() = default;

  // Up to `max_messages` messages now visible (possibly none); kUnavailable when the queue
  // cannot be reached.
  virtual absl::StatusOr<std::vector<QueueMessage>> Receive(size_t max_messages) = 0;
  // Removes a received message for good: handled, or unparsable and never to be retried.
  virtual absl::Status Delete(const QueueMessage& message) = 0;
  // The queue's name (INTERRUPTION_QUEUE), for logs.
  virtual std::string Name() const = 0;
};

}  // namespace karpenter
