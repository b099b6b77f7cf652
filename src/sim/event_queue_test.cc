#include "src/sim/event_queue.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "src/sim/latency.h"
#include "src/sim/random.h"

namespace karpenter::sim {
namespace {

TEST(EventQueue, RunsEventsInTimeThenInsertionOrder) {
  EventQueue queue;
  std::vector<std::string> order;
  queue.At(2000, [&] { order.push_back("b@2"); });
  queue.At(1000, [&] { order.push_back("a@1"); });
  queue.At(2000, [&] { order.push_back("c@2"); });
  queue.RunUntil(5000);
  EXPECT_EQ(order, (std::vector<std::string>{"a@1", "b@2", "c@2"}));
  EXPECT_EQ(queue.now(), 5000);
  EXPECT_EQ(queue.executed(), 3u);
}

TEST(EventQueue, ClockShowsTheRunningEventsTime) {
  EventQueue queue;
  SimMillis seen = -1;
  queue.At(1234, [&] { seen = queue.now(); });
  queue.RunUntil(2000);
  EXPECT_EQ(seen, 1234);
}

TEST(EventQueue, EventsScheduledWhileRunningRunWithinTheHorizon) {
  EventQueue queue;
  std::vector<SimMillis> times;
  queue.At(100, [&] {
    times.push_back(queue.now());
    queue.After(50, [&] { times.push_back(queue.now()); });
    queue.After(10000, [&] { times.push_back(queue.now()); });
  });
  queue.RunUntil(1000);
  EXPECT_EQ(times, (std::vector<SimMillis>{100, 150}));
  EXPECT_EQ(queue.pending(), 1u);
}

TEST(EventQueue, PastTimesRunNowAfterWhatIsDue) {
  EventQueue queue;
  std::vector<std::string> order;
  queue.At(500, [&] {
    queue.At(0, [&] { order.push_back("late"); });
    order.push_back("first");
  });
  queue.At(500, [&] { order.push_back("second"); });
  queue.RunUntil(500);
  EXPECT_EQ(order, (std::vector<std::string>{"first", "second", "late"}));
}

TEST(EventQueue, EventEndActionsRunAfterTheirEventBeforeTheNextAndAreNotEvents) {
  EventQueue queue;
  std::vector<std::string> order;
  queue.AtEventEnd([&] { order.push_back("before the run"); });
  queue.At(100, [&] {
    queue.AtEventEnd([&] {
      order.push_back("end of a");
      queue.AtEventEnd([&] { order.push_back("added by an end action"); });
    });
    order.push_back("a");
  });
  queue.At(100, [&] { order.push_back("b"); });
  queue.RunUntil(1000);
  EXPECT_EQ(order, (std::vector<std::string>{"before the run", "a", "end of a",
                                             "added by an end action", "b"}));
  EXPECT_EQ(queue.executed(), 2u);
  EXPECT_EQ(queue.now(), 1000);
}

TEST(EventQueue, NowIsEpochPlusVirtualTime) {
  EventQueue queue;
  queue.set_epoch(api::Time::FromUnixSeconds(1000));
  queue.RunUntil(2500);
  EXPECT_EQ(queue.Now(), api::Time::FromUnixNanos(1002500000000));
}

TEST(Random, SameSeedSameSequenceOtherSeedOther) {
  Random a(42);
  Random b(42);
  Random c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const double x = a.Uniform01();
    EXPECT_EQ(x, b.Uniform01());
    differs = differs || x != c.Uniform01();
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
  }
  EXPECT_TRUE(differs);
}

TEST(Random, BelowStaysInRangeAndCoversIt) {
  Random random(1);
  std::vector<int> seen(3, 0);
  for (int i = 0; i < 300; ++i) {
    const uint64_t draw = random.Below(3);
    ASSERT_LT(draw, 3u);
    ++seen[draw];
  }
  for (int count : seen) EXPECT_GT(count, 50);
  EXPECT_EQ(random.Below(0), 0u);
}

TEST(Latency, SampleStaysWithinItsRange) {
  Random random(3);
  for (int i = 0; i < 100; ++i) {
    const SimMillis draw = Sample({30, 40}, random);
    EXPECT_GE(draw, 30000);
    EXPECT_LE(draw, 40000);
  }
  EXPECT_EQ(Sample({10, 10}, random), 10000);
}

TEST(Latency, OverrideSetsTheNamedParameter) {
  LatencyModel model;
  ASSERT_TRUE(OverrideLatency(model, "instanceBootToRegistered", {50, 60}).ok());
  EXPECT_EQ(model.instance_boot_to_registered, (Range{50, 60}));
}

TEST(Latency, OverrideRejectsUnknownNamesAndBadRanges) {
  LatencyModel model;
  EXPECT_EQ(OverrideLatency(model, "bootTime", {1, 2}).message(),
            "bootTime: unknown latency parameter");
  EXPECT_FALSE(OverrideLatency(model, "batchIdle", {3, 2}).ok());
  EXPECT_FALSE(OverrideLatency(model, "batchIdle", {-1, 2}).ok());
}

// A period of 0 scheduled the next round at the same instant forever.
TEST(Latency, OverrideRejectsLoopPeriodsUnderASecond) {
  LatencyModel model;
  for (const char* period : {"disruptionPoll", "caScanInterval", "asgRefreshInterval"}) {
    EXPECT_EQ(OverrideLatency(model, period, {0, 0}).message(),
              std::string(period) + ": a loop's period must be at least 1 s, got min 0");
    EXPECT_TRUE(OverrideLatency(model, period, {1, 1}).ok()) << period;
  }
  EXPECT_TRUE(OverrideLatency(model, "batchIdle", {0, 0}).ok());
}

// 1e16 s and more overflowed the millisecond clock (undefined behaviour: the run wrapped).
TEST(EventQueue, SecondsToMillisSaturates) {
  EXPECT_EQ(SecondsToMillis(1.5), 1500);
  EXPECT_EQ(SecondsToMillis(1e30), SimMillis{1} << 53);
  EXPECT_EQ(SecondsToMillis(-1e300), -(SimMillis{1} << 53));
  EXPECT_EQ(SecondsToMillis(std::nan("")), 0);
}

TEST(Latency, EveryParameterHasASourceAndAUniqueName) {
  std::set<std::string_view> names;
  for (const LatencyParameter& parameter : LatencyParameters()) {
    EXPECT_FALSE(parameter.source.empty()) << parameter.name;
    EXPECT_TRUE(names.insert(parameter.name).second) << parameter.name;
  }
  EXPECT_EQ(names.size(), 20u);
}

}  // namespace
}  // namespace karpenter::sim
