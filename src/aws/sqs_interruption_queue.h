// Upstream: aws/karpenter-provider-aws pkg/providers/sqs/sqs.go. The interruption queue
// (`karpenter::InterruptionQueue`) over SQS: the queue EventBridge feeds with EC2's spot, health,
// rebalance and state-change events, which `controllers::InterruptionController` drains.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "karpenter/interruption_queue.h"
#include "src/api/time.h"
#include "src/aws/clock.h"
#include "src/aws/sqs_client.h"

namespace karpenter::aws {

// The bridge from this provider's time (`aws::Clock`, absl::Time) to the controllers'
// (`karpenter::Clock`, api::Time). The two seams differ in kind: the provider's blocks (`SleepFor`,
// for backoff inside one call), the controllers' schedules (`After`, on the host's event loop),
// so neither can stand in for the other; values cross here.
inline api::Time ToApiTime(absl::Time time) {
  return api::Time::FromUnixNanos(absl::ToUnixNanos(time));
}

struct SqsInterruptionQueueOptions {
  // Upstream long-polls for the maximum, 20 s, so an idle controller costs three calls a minute;
  // tests use 0-1 s.
  int wait_seconds = 20;
  // Upstream's: a message another receiver (a restarted or second replica) could otherwise see
  // while this one is still acting on it stays hidden this long, and reappears if we die first.
  int visibility_timeout_seconds = 20;
};

class SqsInterruptionQueue final : public InterruptionQueue {
 public:
  // Resolves the queue's URL once (GetQueueUrl of `queue_name`, the INTERRUPTION_QUEUE setting);
  // kNotFound naming the queue when there is no such queue, kUnavailable when SQS cannot be
  // reached. `clock` stands in for a message's SentTimestamp when SQS leaves it out.
  static absl::StatusOr<std::unique_ptr<SqsInterruptionQueue>> Create(
      SqsClient& sqs, Clock& clock, std::string queue_name,
      SqsInterruptionQueueOptions options = {});

  absl::StatusOr<std::vector<QueueMessage>> Receive(size_t max_messages) override;
  absl::Status Delete(const QueueMessage& message) override;
  std::string Name() const override { return name_; }

  const std::string& url() const { return url_; }

 private:
  SqsInterruptionQueue(SqsClient& sqs, Clock& clock, std::string name, std::string url,
                       SqsInterruptionQueueOptions options)
      : sqs_(sqs), clock_(clock), name_(std::move(name)), url_(std::move(url)), options_(options) {}

  SqsClient& sqs_;
  Clock& clock_;
  std::string name_;
  std::string url_;
  SqsInterruptionQueueOptions options_;
};

// `status` from an SQS call as the interruption controller reads it: a missing queue is
// kNotFound, anything worth retrying (throttling, 5xx, transport failures and timeouts) is
// kUnavailable, other codes are kept; the message names the queue and the AWS code is kept.
absl::Status InterruptionQueueError(const absl::Status& status, std::string_view queue_name,
                                    std::string_view action);

}  // namespace karpenter::aws
