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
  return ReceiveMessage(queue_url, {.max_messages = max_messages, .wait_seconds = wait_seconds});
}

absl::StatusOr<std::vector<SqsMessage>> SqsClient::ReceiveMessage(
    const std::string& queue_url, const SqsReceiveOptions& options) {
  nlohmann::json request = {{"QueueUrl", queue_url},
                            {"MaxNumberOfMessages", std::clamp(options.max_messages, 1, 10)},
                            {"WaitTimeSeconds", std::clamp(options.wait_seconds, 0, 20)}};
  // SQS's own limit is 12 hours.
  if (options.visibility_timeout_seconds >= 0)
    request["VisibilityTimeout"] = std::min(options.visibility_timeout_seconds, 43'200);
  if (!options.attribute_names.empty()) request["AttributeNames"] = options.attribute_names;
  KP_ASSIGN_OR_RETURN(const nlohmann::json answer, Call("ReceiveMessage", request));
  std::vector<SqsMessage> out;
  const auto messages = answer.find("Messages");
  if (messages == answer.end() || !messages->is_array()) return out;
  for (const nlohmann::json& message : *messages) {
    SqsMessage parsed{.id = JsonString(message, "MessageId"),
                      .receipt_handle = JsonString(message, "ReceiptHandle"),
                      .body = JsonString(message, "Body")};
    const auto attributes = message.find("Attributes");
    if (attributes != message.end() && attributes->is_object()) {
      for (const auto& [name, value] : attributes->items()) {
        if (value.is_string()) parsed.attributes[name] = value.get<std::string>();
      }
    }
    out.push_back(std::move(parsed));
  }
  return out;
}

absl::Status SqsClient::DeleteMessage(const std::string& queue_url,
                                      const std::string& receipt_handle) {
  return Call("DeleteMessage", {{"QueueUrl", queue_url}, {"ReceiptHandle", receipt_handle}})
      .status();
}

}  // namespace karpenter::aws
