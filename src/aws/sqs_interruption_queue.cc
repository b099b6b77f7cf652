#include "src/aws/sqs_interruption_queue.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

constexpr char kSentTimestamp[] = "SentTimestamp";

absl::StatusCode QueueCode(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kAborted:
      return absl::StatusCode::kUnavailable;
    default:
      return code;
  }
}

// SentTimestamp is epoch milliseconds as text; nullopt when absent or not a number.
std::optional<api::Time> SentTime(const SqsMessage& message) {
  const auto found = message.attributes.find(kSentTimestamp);
  int64_t millis = 0;
  if (found == message.attributes.end() || !absl::SimpleAtoi(found->second, &millis) ||
      millis < 0 || millis > INT64_MAX / 1'000'000) {
    return std::nullopt;
  }
  return api::Time::FromUnixNanos(millis * 1'000'000);
}

}  // namespace

absl::Status InterruptionQueueError(const absl::Status& status, std::string_view queue_name,
                                    std::string_view action) {
  if (status.ok()) return status;
  absl::Status out(QueueCode(status.code()),
                   absl::StrCat("interruption queue \"", AbslView(queue_name),
                                "\": ", AbslView(action), ": ", status.message()));
  status.ForEachPayload(
      [&out](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

absl::StatusOr<std::unique_ptr<SqsInterruptionQueue>> SqsInterruptionQueue::Create(
    SqsClient& sqs, Clock& clock, std::string queue_name, SqsInterruptionQueueOptions options) {
  if (queue_name.empty()) return absl::InvalidArgumentError("interruption queue: empty name");
  absl::StatusOr<std::string> url = sqs.GetQueueUrl(queue_name);
  if (!url.ok()) return InterruptionQueueError(url.status(), queue_name, "resolving its URL");
  return std::unique_ptr<SqsInterruptionQueue>(
      new SqsInterruptionQueue(sqs, clock, std::move(queue_name), *std::move(url), options));
}

absl::StatusOr<std::vector<QueueMessage>> SqsInterruptionQueue::Receive(size_t max_messages) {
  std::vector<QueueMessage> out;
  if (max_messages == 0) return out;
  absl::StatusOr<std::vector<SqsMessage>> received = sqs_.ReceiveMessage(
      url_, {.max_messages = static_cast<int>(std::min<size_t>(max_messages, 10)),
             .wait_seconds = options_.wait_seconds,
             .visibility_timeout_seconds = options_.visibility_timeout_seconds,
             .attribute_names = {kSentTimestamp}});
  if (!received.ok()) return InterruptionQueueError(received.status(), name_, "receiving");
  out.reserve(received->size());
  for (SqsMessage& message : *received) {
    // Without SentTimestamp the queue-duration metric would read decades; "now" reads zero.
    const api::Time sent = SentTime(message).value_or(ToApiTime(clock_.Now()));
    out.push_back({.id = std::move(message.id),
                   .receipt_handle = std::move(message.receipt_handle),
                   .body = std::move(message.body),
                   .sent = sent});
  }
  return out;
}

absl::Status SqsInterruptionQueue::Delete(const QueueMessage& message) {
  return InterruptionQueueError(sqs_.DeleteMessage(url_, message.receipt_handle), name_,
                                absl::StrCat("deleting message ", message.id));
}

}  // namespace karpenter::aws
