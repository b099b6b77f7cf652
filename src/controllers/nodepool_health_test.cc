#include "src/controllers/nodepool_health.h"

#include "gtest/gtest.h"

namespace karpenter::controllers {
namespace {

TEST(NodePoolHealth, TwoFailuresInTheLastFourMakeAPoolUnhealthy) {
  NodePoolHealth health;
  EXPECT_EQ(health.Status("pool"), RegistrationHealth::kUnknown);
  health.Record("pool", false);
  EXPECT_EQ(health.Status("pool"), RegistrationHealth::kHealthy);
  EXPECT_EQ(health.StatusWith("pool", false), RegistrationHealth::kUnhealthy);
  EXPECT_EQ(health.Status("pool"), RegistrationHealth::kHealthy);  // StatusWith records nothing
  health.Record("pool", false);
  EXPECT_EQ(health.Status("pool"), RegistrationHealth::kUnhealthy);
  // Successes push the failures out of the window of four.
  health.Record("pool", true);
  health.Record("pool", true);
  EXPECT_EQ(health.Status("pool"), RegistrationHealth::kUnhealthy);
  health.Record("pool", true);
  EXPECT_EQ(health.Status("pool"), RegistrationHealth::kHealthy);
  EXPECT_EQ(health.Status("other"), RegistrationHealth::kUnknown);
  health.Reset("pool");
  EXPECT_EQ(health.Status("pool"), RegistrationHealth::kUnknown);
}

}  // namespace
}  // namespace karpenter::controllers
