#include "src/controllers/batcher.h"

#include <vector>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  std::vector<std::pair<int64_t, int64_t>> closed;  // (at, window)
  Batcher batcher{clock, [] { return 1000; }, [] { return 10'000; },
                  [this](int64_t window) { closed.emplace_back(clock.NowMillis(), window); }};
};

TEST(Batcher, ClosesOnceIdleForTheIdleDuration) {
  Fixture f;
  f.batcher.Trigger();
  f.clock.Advance(600);
  f.batcher.Trigger();  // extends the idle deadline to 1.6 s
  f.clock.Advance(999);
  EXPECT_TRUE(f.closed.empty());
  f.clock.Advance(1);
  ASSERT_EQ(f.closed.size(), 1u);
  EXPECT_EQ(f.closed[0], std::make_pair(int64_t{1600}, int64_t{1600}));
  EXPECT_FALSE(f.batcher.open());
}

TEST(Batcher, ClosesAtTheMaximumWhilePodsKeepArriving) {
  Fixture f;
  for (int i = 0; i < 30; ++i) {
    f.batcher.Trigger();
    f.clock.Advance(500);
  }
  ASSERT_FALSE(f.closed.empty());
  EXPECT_EQ(f.closed[0], std::make_pair(int64_t{10'000}, int64_t{10'000}));
}

TEST(Batcher, RepeatedPodUidDoesNotExtendTheWindow) {
  Fixture f;
  f.batcher.Trigger("uid-1");
  f.clock.Advance(800);
  f.batcher.Trigger("uid-1");
  f.clock.Advance(200);
  ASSERT_EQ(f.closed.size(), 1u);
  EXPECT_EQ(f.closed[0].first, 1000);
  // A new window forgets the old one's pods.
  f.batcher.Trigger("uid-1");
  f.clock.Advance(1000);
  EXPECT_EQ(f.closed.size(), 2u);
}

TEST(Batcher, AsksForIdleThenMaxAsAWindowOpens) {
  fakes::FakeClock clock;
  std::vector<char> asked;
  Batcher batcher(
      clock,
      [&] {
        asked.push_back('i');
        return 1000;
      },
      [&] {
        asked.push_back('m');
        return 10'000;
      },
      [](int64_t) {});
  batcher.Trigger();
  batcher.Trigger();
  EXPECT_EQ(asked, (std::vector<char>{'i', 'm', 'i'}));
}

}  // namespace
}  // namespace karpenter::controllers
