#include "src/fakes/fake_interruption_queue.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace karpenter::fakes {

std::string FakeInterruptionQueue::Send(std::string body, api::Time sent) {
  const uint64_t ordinal = ++sent_;
  QueueMessage message{.id = absl::StrCat("message-", ordinal),
                       .receipt_handle = absl::StrCat("receipt-", ordinal),
                       .body = std::move(body),
                       .sent = sent};
  std::string id = message.id;
  messages_.emplace(ordinal, std::move(message));
  return id;
}

absl::StatusOr<std::vector<QueueMessage>> FakeInterruptionQueue::Receive(size_t max_messages) {
  if (failing_receives_ > 0) {
    --failing_receives_;
    return absl::UnavailableError("fake queue: receive failed");
  }
  std::vector<QueueMessage> out;
  for (const auto& [ordinal, message] : messages_) {
    if (out.size() >= max_messages) break;
    out.push_back(message);
  }
  return out;
}

absl::Status FakeInterruptionQueue::Delete(const QueueMessage& message) {
  for (auto it = messages_.begin(); it != messages_.end(); ++it) {
    if (it->second.receipt_handle != message.receipt_handle) continue;
    messages_.erase(it);
    ++deleted_;
    return absl::OkStatus();
  }
  return absl::NotFoundError(absl::StrCat("fake queue: no message ", message.receipt_handle));
}

}  // namespace karpenter::fakes
