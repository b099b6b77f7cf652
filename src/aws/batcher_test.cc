#include "src/aws/batcher.h"

#include <atomic>
#include <thread>

#include "gtest/gtest.h"
#include "src/aws/test_fakes.h"

namespace karpenter::aws {
namespace {

TEST(AwsBatcher, ConcurrentCallersShareOneExecution) {
  ManualClock clock;
  std::vector<std::vector<int>> calls;
  Batcher<int, int> batcher(
      clock, CreateFleetWindow(), [](const int&) { return std::string("fleet"); },
      [&](const std::vector<int>& requests) {
        calls.push_back(requests);
        std::vector<absl::StatusOr<int>> out;
        for (int r : requests) out.emplace_back(r * 10);
        return out;
      });
  std::vector<std::thread> callers;
  std::vector<int> results(5, 0);
  for (int i = 0; i < 5; ++i) {
    callers.emplace_back([&, i] { results[i] = batcher.Add(i).value_or(-1); });
  }
  WaitUntil([&] { return batcher.waiting() == 5 && clock.sleepers() == 1; });
  EXPECT_EQ(batcher.batches(), 0);
  clock.Advance(absl::Milliseconds(35));
  for (std::thread& caller : callers) caller.join();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].size(), 5u);
  EXPECT_EQ(results, (std::vector<int>{0, 10, 20, 30, 40}));
}

TEST(AwsBatcher, DifferentKeysRunSeparatelyAndShortAnswersFail) {
  ManualClock clock;
  std::atomic<int> executions = 0;
  Batcher<int, int> batcher(
      clock, TerminateInstancesWindow(),
      [](const int& r) { return std::string(r % 2 == 0 ? "even" : "odd"); },
      [&](const std::vector<int>& requests) {
        ++executions;
        std::vector<absl::StatusOr<int>> out;
        if (requests.front() % 2 == 0) out.emplace_back(requests.front());
        return out;
      });
  absl::StatusOr<int> even_a, even_b, odd;
  std::thread a([&] { even_a = batcher.Add(2); });
  WaitUntil([&] { return batcher.waiting() == 1 && clock.sleepers() == 1; });
  std::thread b([&] { even_b = batcher.Add(4); });
  std::thread c([&] { odd = batcher.Add(1); });
  WaitUntil([&] { return batcher.waiting() == 3; });
  while (batcher.waiting() > 0) {
    WaitUntil([&] { return clock.sleepers() == 1 || batcher.waiting() == 0; });
    clock.Advance(absl::Milliseconds(100));
  }
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(executions, 2);
  EXPECT_EQ(even_a.value_or(-1), 2);
  EXPECT_EQ(even_b.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(odd.status().code(), absl::StatusCode::kInternal);
}

TEST(AwsBatcher, StoppingCancelsWhatWaits) {
  ManualClock clock;
  std::atomic<int> executions = 0;
  absl::StatusOr<int> result;
  std::thread caller;
  {
    Batcher<int, int> batcher(
        clock, CreateFleetWindow(), [](const int&) { return std::string("k"); },
        [&](const std::vector<int>& requests) {
          ++executions;
          return std::vector<absl::StatusOr<int>>(requests.size(), 1);
        });
    caller = std::thread([&] { result = batcher.Add(7); });
    WaitUntil([&] { return batcher.waiting() == 1 && clock.sleepers() == 1; });
    batcher.Stop();
    EXPECT_EQ(batcher.Add(8).status().code(), absl::StatusCode::kCancelled);
    // Wakes the napping dispatcher, which now stops instead of running the due batch.
    clock.Advance(absl::Seconds(1));
  }
  caller.join();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(executions, 0);
}

}  // namespace
}  // namespace karpenter::aws
