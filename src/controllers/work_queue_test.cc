#include "src/controllers/work_queue.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"

namespace karpenter::controllers {
namespace {

// No overall bucket, so the per-key backoff is what shows.
constexpr RateLimits kNoBucket{.bucket_per_second = 0};

std::vector<std::string> DrainKeys(WorkQueue& queue) {
  std::vector<std::string> keys;
  while (std::optional<std::string> key = queue.Get()) {
    keys.push_back(*key);
    queue.Done(*key);
  }
  return keys;
}

TEST(WorkQueue, AddingAQueuedKeyQueuesItOnce) {
  fakes::FakeClock clock;
  int ready = 0;
  WorkQueue queue(clock, kNoBucket, [&] { ++ready; });
  queue.Add("a");
  queue.Add("b");
  queue.Add("a");
  EXPECT_EQ(queue.Len(), 2u);
  EXPECT_EQ(ready, 2);
  EXPECT_EQ(DrainKeys(queue), (std::vector<std::string>{"a", "b"}));
}

TEST(WorkQueue, KeyAddedWhileProcessingIsQueuedAgainOnlyWhenDone) {
  fakes::FakeClock clock;
  WorkQueue queue(clock, kNoBucket, nullptr);
  queue.Add("a");
  std::optional<std::string> key = queue.Get();
  ASSERT_TRUE(key);
  queue.Add("a");
  queue.Add("a");
  EXPECT_EQ(queue.Len(), 0u) << "never handed to two workers at once";
  EXPECT_FALSE(queue.Get());
  queue.Done("a");
  EXPECT_EQ(queue.Len(), 1u);
  EXPECT_EQ(DrainKeys(queue), (std::vector<std::string>{"a"}));
}

TEST(WorkQueue, AddAfterKeepsTheEarliestWakeUp) {
  fakes::FakeClock clock;
  WorkQueue queue(clock, kNoBucket, nullptr);
  queue.AddAfter("a", 1000);
  queue.AddAfter("a", 300);
  queue.AddAfter("a", 2000);
  EXPECT_EQ(queue.Waiting(), 1u);
  clock.Advance(299);
  EXPECT_EQ(queue.Len(), 0u);
  clock.Advance(1);
  EXPECT_EQ(queue.Len(), 1u);
  EXPECT_EQ(DrainKeys(queue), (std::vector<std::string>{"a"}));
  clock.Advance(5000);
  EXPECT_EQ(queue.Len(), 0u) << "the superseded wake-ups add nothing";
}

TEST(RateLimiter, BackoffDoublesFromFiveMillisecondsToAThousandSeconds) {
  fakes::FakeClock clock;
  RateLimiter limiter(clock, kNoBucket);
  EXPECT_EQ(limiter.When("a"), 5);
  EXPECT_EQ(limiter.When("a"), 10);
  EXPECT_EQ(limiter.When("a"), 20);
  EXPECT_EQ(limiter.When("b"), 5) << "per key";
  for (int i = 0; i < 100; ++i) limiter.When("a");
  EXPECT_EQ(limiter.When("a"), 1000 * 1000);
  EXPECT_EQ(limiter.NumRequeues("a"), 104);
  limiter.Forget("a");
  EXPECT_EQ(limiter.NumRequeues("a"), 0);
  EXPECT_EQ(limiter.When("a"), 5);
}

TEST(RateLimiter, BucketAllowsABurstOfAHundredThenTenPerSecond) {
  fakes::FakeClock clock;
  RateLimiter limiter(clock, RateLimits{});
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(limiter.When("k" + std::to_string(i)), 5) << i;
  }
  EXPECT_EQ(limiter.When("x"), 100);
  EXPECT_EQ(limiter.When("y"), 200);
  clock.Advance(10 * 1000);  // a hundred tokens back
  EXPECT_EQ(limiter.When("z"), 5);
}

TEST(WorkQueue, AddRateLimitedWaitsForTheBackoff) {
  fakes::FakeClock clock;
  WorkQueue queue(clock, kNoBucket, nullptr);
  queue.AddRateLimited("a");
  queue.AddRateLimited("a");  // 5 ms stands, 10 ms is later
  clock.Advance(4);
  EXPECT_EQ(queue.Len(), 0u);
  clock.Advance(1);
  EXPECT_EQ(queue.Len(), 1u);
  EXPECT_EQ(queue.NumRequeues("a"), 2);
}

}  // namespace
}  // namespace karpenter::controllers
