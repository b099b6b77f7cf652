#include "src/aws/background_receive_queue.h"

#include <chrono>
#include <utility>

namespace karpenter::aws {

BackgroundReceiveQueue::BackgroundReceiveQueue(InterruptionQueue& inner,
                                               BackgroundReceiveOptions options)
    : inner_(inner), options_(options), thread_([this] { Run(); }) {}

BackgroundReceiveQueue::~BackgroundReceiveQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BackgroundReceiveQueue::Run() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait(lock, [this] { return stopping_ || buffered_.size() < options_.max_buffered; });
      if (stopping_) return;
    }
    absl::StatusOr<std::vector<QueueMessage>> received = inner_.Receive(options_.batch);
    std::unique_lock<std::mutex> lock(mu_);
    int pause_millis = 0;
    if (!received.ok()) {
      last_error_ = received.status();
      pause_millis = options_.retry_millis;
    } else {
      last_error_ = absl::OkStatus();
      if (received->empty()) pause_millis = options_.idle_millis;
      for (QueueMessage& message : *received) buffered_.push_back(std::move(message));
    }
    // Waits on the condition rather than sleeping, so a stop is not held up by the pause.
    if (pause_millis > 0) {
      changed_.wait_for(lock, std::chrono::milliseconds(pause_millis),
                        [this] { return stopping_; });
    }
  }
}

absl::StatusOr<std::vector<QueueMessage>> BackgroundReceiveQueue::Receive(size_t max_messages) {
  std::vector<QueueMessage> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (buffered_.empty() && !last_error_.ok()) return std::exchange(last_error_, absl::OkStatus());
    while (!buffered_.empty() && out.size() < max_messages) {
      out.push_back(std::move(buffered_.front()));
      buffered_.pop_front();
    }
  }
  changed_.notify_all();  // room in the buffer again
  return out;
}

}  // namespace karpenter::aws
