#include "src/aws/background_receive_queue.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>

#include "gtest/gtest.h"

namespace karpenter::aws {
namespace {

// A queue whose Receive blocks, as a long poll does, until the test answers it.
class ScriptedQueue final : public InterruptionQueue {
 public:
  absl::StatusOr<std::vector<QueueMessage>> Receive(size_t) override {
    std::unique_lock<std::mutex> lock(mu_);
    ++receives_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return closed_ || !answers_.empty(); });
    if (answers_.empty()) return std::vector<QueueMessage>();
    absl::StatusOr<std::vector<QueueMessage>> answer = std::move(answers_.front());
    answers_.pop_front();
    return answer;
  }
  absl::Status Delete(const QueueMessage& message) override {
    std::lock_guard<std::mutex> lock(mu_);
    deleted_.push_back(message.id);
    return absl::OkStatus();
  }
  std::string Name() const override { return "scripted"; }

  void Answer(absl::StatusOr<std::vector<QueueMessage>> answer) {
    std::lock_guard<std::mutex> lock(mu_);
    answers_.push_back(std::move(answer));
    changed_.notify_all();
  }
  // Returns once Receive has been entered `count` times: everything answered before the last of
  // those has been taken in by the caller.
  void WaitForReceives(int count) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return receives_ >= count; });
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    changed_.notify_all();
  }
  std::vector<std::string> deleted() {
    std::lock_guard<std::mutex> lock(mu_);
    return deleted_;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<absl::StatusOr<std::vector<QueueMessage>>> answers_;
  std::vector<std::string> deleted_;
  int receives_ = 0;
  bool closed_ = false;
};

std::vector<QueueMessage> Messages(std::initializer_list<const char*> ids) {
  std::vector<QueueMessage> out;
  for (const char* id : ids) out.push_back(QueueMessage{.id = id, .receipt_handle = id});
  return out;
}

std::vector<std::string> Ids(const absl::StatusOr<std::vector<QueueMessage>>& messages) {
  std::vector<std::string> out;
  if (messages.ok()) {
    for (const QueueMessage& message : *messages) out.push_back(message.id);
  }
  return out;
}

struct Fixture {
  ScriptedQueue inner;
  std::unique_ptr<BackgroundReceiveQueue> queue = std::make_unique<BackgroundReceiveQueue>(
      inner, BackgroundReceiveOptions{.retry_millis = 0, .idle_millis = 0});
  // The receive in flight must return for the thread to stop.
  ~Fixture() {
    inner.Close();
    queue.reset();
  }
};

TEST(BackgroundReceiveQueue, ReceiveNeverWaitsForTheLongPoll) {
  Fixture f;
  f.inner.WaitForReceives(1);
  // The thread is inside a long poll: the controller's receive answers at once, empty.
  absl::StatusOr<std::vector<QueueMessage>> nothing = f.queue->Receive(10);
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->empty());

  f.inner.Answer(Messages({"a", "b", "c"}));
  f.inner.WaitForReceives(2);
  EXPECT_EQ(Ids(f.queue->Receive(2)), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Ids(f.queue->Receive(10)), (std::vector<std::string>{"c"}));
  EXPECT_TRUE(Ids(f.queue->Receive(10)).empty());
}

TEST(BackgroundReceiveQueue, AFailedReceiveIsReportedOnceAndReceivingGoesOn) {
  Fixture f;
  f.inner.Answer(absl::UnavailableError("sqs unreachable"));
  f.inner.WaitForReceives(2);
  absl::StatusOr<std::vector<QueueMessage>> failed = f.queue->Receive(10);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(f.queue->Receive(10).ok());

  f.inner.Answer(Messages({"a"}));
  f.inner.WaitForReceives(3);
  EXPECT_EQ(Ids(f.queue->Receive(10)), std::vector<std::string>{"a"});
}

TEST(BackgroundReceiveQueue, DeleteGoesToTheQueueAndTheNameIsItsName) {
  Fixture f;
  ASSERT_TRUE(f.queue->Delete(QueueMessage{.id = "a", .receipt_handle = "a"}).ok());
  EXPECT_EQ(f.inner.deleted(), std::vector<std::string>{"a"});
  EXPECT_EQ(f.queue->Name(), "scripted");
}

TEST(BackgroundReceiveQueue, StopsWhileTheQueueIsIdle) {
  ScriptedQueue inner;
  inner.Close();  // answers at once, empty, as a queue with no long poll would
  {
    BackgroundReceiveQueue queue(inner, BackgroundReceiveOptions{.idle_millis = 60'000});
    inner.WaitForReceives(1);
  }  // the idle pause is cut short by the stop: this returns without waiting a minute
  SUCCEED();
}

}  // namespace
}  // namespace karpenter::aws
