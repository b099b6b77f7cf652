#include "src/fakes/fake_interruption_queue.h"

#include "gtest/gtest.h"

namespace karpenter::fakes {
namespace {

TEST(FakeInterruptionQueue, ReceivesInOrderUpToTheMaximumUntilDeleted) {
  FakeInterruptionQueue queue;
  queue.Send("one");
  queue.Send("two");
  queue.Send("three");
  absl::StatusOr<std::vector<QueueMessage>> first = queue.Receive(2);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ((*first)[0].body, "one");
  ASSERT_TRUE(queue.Delete((*first)[0]).ok());
  EXPECT_EQ(queue.Delete((*first)[0]).code(), absl::StatusCode::kNotFound);
  absl::StatusOr<std::vector<QueueMessage>> second = queue.Receive(10);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->size(), 2u);
  EXPECT_EQ((*second)[0].body, "two");
}

TEST(FakeInterruptionQueue, InjectedReceiveFailuresAreUnavailable) {
  FakeInterruptionQueue queue;
  queue.Send("one");
  queue.FailReceives(1);
  EXPECT_EQ(queue.Receive(1).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(queue.Receive(1).ok());
}

}  // namespace
}  // namespace karpenter::fakes
