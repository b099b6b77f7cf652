#include "src/cloudprovider/unavailable_offerings.h"

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"

namespace karpenter::cloudprovider {
namespace {

TEST(UnavailableOfferings, MarkedOfferingIsUnavailableUntilItsTtlRunsOut) {
  fakes::FakeClock clock;
  UnavailableOfferings cache(clock, [] { return 180'000; });
  const uint64_t before = cache.Version();
  cache.Mark({"m5.large", "us-east-1a", "spot"});
  EXPECT_TRUE(cache.IsUnavailable("m5.large", "us-east-1a", "spot"));
  EXPECT_FALSE(cache.IsUnavailable("m5.large", "us-east-1a", "on-demand"));
  EXPECT_FALSE(cache.IsUnavailable("m5.large", "us-east-1b", "spot"));
  const uint64_t marked = cache.Version();
  EXPECT_GT(marked, before);
  clock.Advance(179'999);
  EXPECT_EQ(cache.Version(), marked);
  EXPECT_TRUE(cache.IsUnavailable("m5.large", "us-east-1a", "spot"));
  clock.Advance(1);
  EXPECT_GT(cache.Version(), marked) << "expiry changes the set";
  EXPECT_FALSE(cache.IsUnavailable("m5.large", "us-east-1a", "spot"));
  EXPECT_TRUE(cache.empty());
}

TEST(UnavailableOfferings, MarkingAgainRestartsTheTtl) {
  fakes::FakeClock clock;
  UnavailableOfferings cache(clock, [] { return 1000; });
  cache.Mark({"c5.xlarge", "us-east-1a", "on-demand"});
  clock.Advance(900);
  cache.Mark({"c5.xlarge", "us-east-1a", "on-demand"});
  clock.Advance(900);
  cache.Expire();
  EXPECT_TRUE(cache.IsUnavailable("c5.xlarge", "us-east-1a", "on-demand"));
}

}  // namespace
}  // namespace karpenter::cloudprovider
