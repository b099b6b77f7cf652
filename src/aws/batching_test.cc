#include "src/aws/batching.h"

#include "gtest/gtest.h"

namespace karpenter::aws {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1'800'000'000);

TEST(AwsBatching, IdleWindowClosesABatch) {
  BatchQueue<int> queue(CreateFleetWindow());
  EXPECT_EQ(queue.NextDue(), std::nullopt);
  queue.Add("k", 1, kStart);
  queue.Add("k", 2, kStart + absl::Milliseconds(30));
  EXPECT_EQ(queue.NextDue(), kStart + absl::Milliseconds(65));
  EXPECT_TRUE(queue.TakeDue(kStart + absl::Milliseconds(64)).empty());
  auto due = queue.TakeDue(kStart + absl::Milliseconds(65));
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].items, (std::vector<int>{1, 2}));
  EXPECT_EQ(queue.waiting(), 0u);
}

TEST(AwsBatching, MaxWindowClosesABusyBatch) {
  BatchQueue<int> queue(CreateFleetWindow());
  absl::Time now = kStart;
  // One request every 30 ms never lets the 35 ms idle window pass; the 1 s cap does.
  for (int i = 0; i < 40; ++i, now += absl::Milliseconds(30)) {
    queue.Add("k", i, now);
    auto due = queue.TakeDue(now);
    if (!due.empty()) {
      EXPECT_GE(now - kStart, absl::Seconds(1));
      EXPECT_EQ(due[0].items.size(), 35u);  // 0 ms .. 1,020 ms
      return;
    }
  }
  FAIL() << "the batch never closed";
}

TEST(AwsBatching, FullBatchIsDueAtOnceAndKeysStayApart) {
  BatchQueue<int> queue(
      {.idle_timeout = absl::Seconds(1), .max_timeout = absl::Seconds(5), .max_items = 3});
  queue.Add("a", 1, kStart);
  queue.Add("b", 10, kStart);
  queue.Add("a", 2, kStart);
  queue.Add("a", 3, kStart);
  queue.Add("a", 4, kStart);
  EXPECT_EQ(queue.NextDue(), absl::InfinitePast());
  auto due = queue.TakeDue(kStart);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].items, (std::vector<int>{1, 2, 3}));
  due = queue.TakeDue(kStart + absl::Seconds(1));
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0].key, "b");  // opened first
  EXPECT_EQ(due[1].items, (std::vector<int>{4}));
}

TEST(AwsBatching, FleetRequestsBatchByEverythingButCountAndToken) {
  const FleetRequest a{.launch_template_name = "lt",
                       .overrides = {{.instance_type = "m5.large", .subnet_id = "s1"}},
                       .spot = true,
                       .tags = {{"karpenter.sh/nodepool", "default"}},
                       .client_token = "t1"};
  FleetRequest b = a;
  b.client_token = "t2";
  EXPECT_EQ(FleetBatchKey(a), FleetBatchKey(b));
  FleetRequest c = a;
  c.spot = false;
  EXPECT_NE(FleetBatchKey(a), FleetBatchKey(c));
  FleetRequest d = a;
  d.tags["karpenter.sh/nodeclaim"] = "x";
  EXPECT_NE(FleetBatchKey(a), FleetBatchKey(d));
  const FleetRequest merged = MergeFleetRequests({a, b, b});
  EXPECT_EQ(merged.count, 3);
  EXPECT_EQ(merged.client_token, "");
  EXPECT_EQ(merged.overrides.size(), 1u);
}

TEST(AwsBatching, FleetAnswerIsHandedOutOneInstancePerRequest) {
  const FleetResult result{
      .fleet_id = "fleet-1",
      .instances = {{.id = "i-1"}, {.id = "i-2"}},
      .errors = {{.code = "InsufficientInstanceCapacity", .message = "no c5"}}};
  std::vector<FleetInstance> surplus;
  auto split = SplitFleetResult(result, 3, &surplus);
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(split[0].instances[0].id, "i-1");
  EXPECT_EQ(split[1].instances[0].id, "i-2");
  EXPECT_TRUE(split[2].instances.empty());
  EXPECT_EQ(split[2].errors[0].code, "InsufficientInstanceCapacity");
  EXPECT_TRUE(surplus.empty());

  split = SplitFleetResult({.fleet_id = "f"}, 1, &surplus);
  EXPECT_EQ(split[0].errors[0].code, "too few instances returned");
  split = SplitFleetResult({.instances = {{.id = "i-1"}, {.id = "i-2"}}}, 1, &surplus);
  ASSERT_EQ(surplus.size(), 1u);
  EXPECT_EQ(surplus[0].id, "i-2");
}

TEST(AwsBatching, TerminateBatchesMergeAndSplitById) {
  const std::vector<std::vector<std::string>> requests = {{"i-2", "i-1"}, {"i-1"}, {"i-3"}};
  EXPECT_EQ(MergeInstanceIds(requests), (std::vector<std::string>{"i-1", "i-2", "i-3"}));
  auto split = SplitTerminateResult({{"i-1", "shutting-down"}, {"i-2", "terminated"}}, requests);
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(split[0].size(), 2u);
  EXPECT_EQ(split[1].at("i-1"), "shutting-down");
  EXPECT_TRUE(split[2].empty());
}

}  // namespace
}  // namespace karpenter::aws
