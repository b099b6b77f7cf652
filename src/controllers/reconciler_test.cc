#include "src/controllers/reconciler.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"

namespace karpenter::controllers {
namespace {

constexpr RateLimits kNoBucket{.bucket_per_second = 0};

TEST(KeyedController, ErrorsRetryWithBackoffAndSuccessForgets) {
  fakes::FakeClock clock;
  std::vector<int64_t> attempts;
  int failures_left = 3;
  KeyedController controller(
      "test", clock,
      [&](const std::string&) -> absl::StatusOr<ReconcileResult> {
        attempts.push_back(clock.NowMillis());
        if (failures_left-- > 0) return absl::AbortedError("conflict");
        return ReconcileResult{};
      },
      kNoBucket);
  controller.Enqueue("a");
  clock.Advance(1000);
  // 0, then 5, 10 and 20 ms of backoff after each failure.
  EXPECT_EQ(attempts, (std::vector<int64_t>{0, 5, 15, 35}));
  EXPECT_EQ(controller.errors(), 3u);
  EXPECT_EQ(controller.queue().NumRequeues("a"), 0) << "success forgets the failures";
}

TEST(KeyedController, ErrorsReachTheHostsHandler) {
  fakes::FakeClock clock;
  std::vector<std::string> reported;
  SetReconcileErrorHandler(
      [&reported](const std::string& controller, const std::string& key, const absl::Status& e) {
        reported.push_back(controller + " " + key + " " + std::string(e.message()));
      });
  KeyedController controller("nodeclass.status", clock, [](const std::string&) {
    return absl::StatusOr<ReconcileResult>(absl::UnavailableError("throttled"));
  });
  SingletonLoop loop("disruption", clock, [] {
    return absl::StatusOr<ReconcileResult>(absl::InternalError("no catalog"));
  });
  controller.Enqueue("default");
  loop.Start();
  clock.Advance(0);
  SetReconcileErrorHandler(nullptr);
  ASSERT_EQ(reported.size(), 2u);
  EXPECT_EQ(reported[0], "nodeclass.status default throttled");
  EXPECT_EQ(reported[1], "disruption  no catalog");
  loop.Stop();
}

// A clock whose wall time a reconcile can move without running timers, as real work takes time.
class SlowWorkClock : public fakes::FakeClock {
 public:
  api::Time Now() const override {
    return FakeClock::Now() + api::Duration::FromMillis(worked_millis);
  }
  int64_t worked_millis = 0;
};

TEST(KeyedController, EveryOutcomeReachesTheObserverWithItsDuration) {
  SlowWorkClock clock;
  std::vector<std::string> outcomes;
  double seconds = 0;
  SetReconcileObserver([&](const std::string& controller, std::string_view result, double took) {
    outcomes.push_back(controller + " " + std::string(result));
    seconds += took;
  });
  int call = 0;
  KeyedController controller("metrics.pod", clock, [&](const std::string&) {
    switch (call++) {
      case 0:
        return absl::StatusOr<ReconcileResult>(absl::AbortedError("conflict"));
      case 1:
        return absl::StatusOr<ReconcileResult>(ReconcileResult{.requeue = true});
      case 2:
        return absl::StatusOr<ReconcileResult>(ReconcileResult{.requeue_after_millis = 10});
      default:
        return absl::StatusOr<ReconcileResult>(ReconcileResult{});
    }
  });
  SingletonLoop loop("metrics.node", clock, [&clock] {
    clock.worked_millis += 250;
    return absl::StatusOr<ReconcileResult>(ReconcileResult{.requeue_after_millis = 60'000});
  });
  controller.Enqueue("default/a");
  loop.Start();
  clock.Advance(1000);
  SetReconcileObserver(nullptr);
  loop.Stop();
  EXPECT_EQ(outcomes, (std::vector<std::string>{"metrics.pod error", "metrics.node requeue_after",
                                                "metrics.pod requeue", "metrics.pod requeue_after",
                                                "metrics.pod success"}));
  EXPECT_DOUBLE_EQ(seconds, 0.25) << "the loop's reconcile took 250 ms on the clock";
}

TEST(KeyedController, RequeueAfterComesBackThenAndResetsBackoff) {
  fakes::FakeClock clock;
  std::vector<int64_t> attempts;
  KeyedController controller(
      "test", clock,
      [&](const std::string&) -> absl::StatusOr<ReconcileResult> {
        attempts.push_back(clock.NowMillis());
        if (attempts.size() == 1) return absl::UnavailableError("throttled");
        return ReconcileResult{.requeue_after_millis = 10'000};
      },
      kNoBucket);
  controller.Enqueue("a");
  clock.Advance(25'000);
  EXPECT_EQ(attempts, (std::vector<int64_t>{0, 5, 10'005, 20'005}));
}

TEST(KeyedController, KeysEnqueuedWhileQueuedReconcileOnce) {
  fakes::FakeClock clock;
  std::map<std::string, int> reconciled;
  KeyedController controller("test", clock,
                             [&](const std::string& key) -> absl::StatusOr<ReconcileResult> {
                               ++reconciled[key];
                               return ReconcileResult{};
                             });
  controller.Enqueue("a");
  controller.Enqueue("b");
  controller.Enqueue("a");
  clock.RunDue();
  EXPECT_EQ(reconciled, (std::map<std::string, int>{{"a", 1}, {"b", 1}}));
}

TEST(SingletonLoop, RunsOnItsIntervalAndBacksOffOnError) {
  fakes::FakeClock clock;
  std::vector<int64_t> runs;
  SingletonLoop loop(
      "poll", clock,
      [&]() -> absl::StatusOr<ReconcileResult> {
        runs.push_back(clock.NowMillis());
        if (runs.size() == 2) return absl::InternalError("boom");
        return ReconcileResult{.requeue_after_millis = 10'000};
      },
      kNoBucket);
  loop.Start();
  clock.Advance(20'010);
  EXPECT_EQ(runs, (std::vector<int64_t>{0, 10'000, 10'005, 20'005}));
  loop.Stop();
  clock.Advance(60'000);
  EXPECT_EQ(runs.size(), 4u) << "the run already due at Stop returns without reconciling";
}

}  // namespace
}  // namespace karpenter::controllers
