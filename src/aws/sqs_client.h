// SQS over the JSON 1.0 protocol (what current SDKs speak): the interruption queue's calls, plus
// the create/send the tests and the twin use to feed it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"

namespace karpenter::aws {

struct SqsMessage {
  std::string id;
  std::string receipt_handle;
  std::string body;
  // The system attributes asked for (e.g. SentTimestamp, epoch milliseconds as text).
  std::map<std::string, std::string> attributes;
};

struct SqsReceiveOptions {
  int max_messages = 10;  // 1..10
  int wait_seconds = 0;   // 0..20; long polling above 0
  // How long the received messages stay hidden from other receivers; the queue's default when
  // negative.
  int visibility_timeout_seconds = -1;
  std::vector<std::string> attribute_names;  // e.g. {"SentTimestamp"}
};

class SqsClient {
 public:
  explicit SqsClient(AwsClient& client) : client_(client) {}

  absl::StatusOr<std::string> CreateQueue(const std::string& name);
  // kNotFound (code QueueDoesNotExist) when there is no such queue.
  absl::StatusOr<std::string> GetQueueUrl(const std::string& name);
  // The new message's id.
  absl::StatusOr<std::string> SendMessage(const std::string& queue_url, const std::string& body);
  // Up to `max_messages` (1..10); waits up to `wait_seconds` (0..20) when the queue is empty.
  absl::StatusOr<std::vector<SqsMessage>> ReceiveMessage(const std::string& queue_url,
                                                         int max_messages, int wait_seconds);
  absl::StatusOr<std::vector<SqsMessage>> ReceiveMessage(const std::string& queue_url,
                                                         const SqsReceiveOptions& options);
  absl::Status DeleteMessage(const std::string& queue_url, const std::string& receipt_handle);

 private:
  absl::StatusOr<nlohmann::json> Call(const std::string& operation, const nlohmann::json& body);

  AwsClient& client_;
};

}  // namespace karpenter::aws
