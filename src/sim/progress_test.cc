#include "src/sim/progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace karpenter::sim {
namespace {

TEST(ProgressLine, ShowsTheRunAndSimulatedSecondsOnABar) {
  EXPECT_EQ(ProgressLine(Autoscaler::kKarpenter, 1350000, 2700000),
            "\rsim karpenter          [##########..........]  1350/2700 s");
  EXPECT_EQ(ProgressLine(Autoscaler::kClusterAutoscaler, 2700000, 2700000),
            "\rsim cluster-autoscaler [####################]  2700/2700 s");
}

TEST(ProgressIndicator, RedrawsOnlyOnChangeAndClearsTheLine) {
  std::ostringstream out;
  ProgressIndicator indicator(out);
  indicator.Update(Autoscaler::kKarpenter, 1000, 100000);
  indicator.Update(Autoscaler::kKarpenter, 1500, 100000);  // same second, same bar
  const std::string once = ProgressLine(Autoscaler::kKarpenter, 1000, 100000);
  EXPECT_EQ(out.str(), once);
  indicator.Update(Autoscaler::kKarpenter, 50000, 100000);
  indicator.Finish();
  const std::string half = ProgressLine(Autoscaler::kKarpenter, 50000, 100000);
  EXPECT_EQ(out.str(), once + half + "\r" + std::string(half.size(), ' ') + "\r");
}

}  // namespace
}  // namespace karpenter::sim
