#include "src/aws/sqs_client.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/json.h"

namespace karpenter::aws {

absl::StatusOr<nlohmann::json> SqsClient::Call(const std::string& operation,
                                               const nlohmann::json& body) {
  return client_.CallJson(absl::StrCat("AmazonSQS.", operation), body,
                          "application/x-amz-json-1.0");
}

absl::StatusOr<std::string> SqsClient::CreateQueue(const std::string& name) {
  KP_ASSIGN_OR_RETURN(const nlohmann::json answer, Call("CreateQueue", {{"QueueName", name}}));
  std::string url = JsonString(answer, "QueueUrl");
  if (url.empty()) return absl::InternalError("CreateQueue: answer has no QueueUrl");
  return url;
}

absl::StatusOr<std::string> SqsClient::GetQueueUrl(const std::string& name) {
  KP_ASSIGN_OR_RETURN(const nlohmann::json answer, Call("GetQueueUrl", {{"QueueName", name}}));
  std::string url = JsonString(answer, "QueueUrl");
  if (url.empty()) return absl::InternalError("GetQueueUrl: answer has no QueueUrl");
  return url;
}

absl::StatusOr<std::string> SqsClient::SendMessage(const std::string& queue_url,
                                                   const std::string& body) {
  KP_ASSIGN_OR_RETURN(const nlohmann::json answer,
                      Call("SendMessage", {{"QueueUrl", queue_url}, {"MessageBody", body}}));
  return JsonString(answer, "MessageId");
}

absl::StatusOr<std::vector<SqsMessage>> SqsClient::ReceiveMessage(const std::string& queue_url,
                                                                  int max_messages,
                                                                  int wait_seconds) {
  KP_ASSIGN_OR_RETURN(
      const nlohmann::json answer,
      Call("ReceiveMessage", {{"QueueUrl", queue_url},
                              {"MaxNumberOfMessages", std::clamp(max_messages, 1, 10)},
                              {"WaitTimeSeconds", std::clamp(wait_seconds, 0, 20)}}));
  std::vector<SqsMessage> out;
  const auto messages = answer.find("Messages");
  if (messages == answer.end() || !messages->is_array()) return out;
  for (const nlohmann::json& message : *messages) {
    out.push_back({.id = JsonString(message, "MessageId"),
                   .receipt_handle = JsonString(message, "ReceiptHandle"),
                   .body = JsonString(message, "Body")});
  }
  return out;
}

absl::Status SqsClient::DeleteMessage(const std::string& queue_url,
                                      const std::string& receipt_handle) {
  return Call("DeleteMessage", {{"QueueUrl", queue_url}, {"ReceiptHandle", receipt_handle}})
      .status();
}

}  // namespace karpenter::aws
