#include "src/bench/gap_breakdown.h"

#include <vector>

#include "gtest/gtest.h"

namespace karpenter::bench {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// A CPU-rich and a memory-rich type at the same price: the LP mixes them, so both resources have
// a positive dual price (2/3 $ per core, 1/3 $ per GiB for the demand below).
const std::vector<FluidNodeType> kTypes = {{1.0, 1000, 1 * kGiB, 110}, {1.0, 500, 2 * kGiB, 110}};

PackedNode CpuRichNode(double used_milli, double used_gib, double price = 1.0) {
  return {.type = "cpu-rich",
          .price = price,
          .capacity = {1000, 1 * kGiB, 110},
          .used = {used_milli, used_gib * kGiB, 2}};
}

TEST(GapBreakdown, IdleCapacityAtDualPricesFillsTheGapExactly) {
  // Demand 1000m and 1.5 GiB: the LP buys 5/6 of the CPU-rich type and 1/3 of the other, $7/6.
  const absl::StatusOr<GapBreakdown> gap =
      BreakDownGap({CpuRichNode(500, 0.75), CpuRichNode(500, 0.75)}, kTypes);
  ASSERT_TRUE(gap.ok()) << gap.status();
  EXPECT_NEAR(gap->cost, 2.0, 1e-9);
  EXPECT_NEAR(gap->bound, 7.0 / 6, 1e-6);
  EXPECT_NEAR(gap->idle_cpu, 2 * 0.5 * 2.0 / 3, 1e-6);
  EXPECT_NEAR(gap->idle_memory, 2 * 0.25 / 3, 1e-6);
  EXPECT_NEAR(gap->idle_pods, 0, 1e-9);
  EXPECT_NEAR(gap->premium, 0, 1e-6);
  EXPECT_NEAR(gap->bound + gap->idle_cpu + gap->idle_memory + gap->idle_pods + gap->premium,
              gap->cost, 1e-6);
  ASSERT_EQ(gap->types.size(), 1u);
  EXPECT_EQ(gap->types[0].type, "cpu-rich");
  EXPECT_EQ(gap->types[0].nodes, 2);
  EXPECT_NEAR(gap->types[0].cpu_used, 0.5, 1e-12);
  EXPECT_NEAR(gap->types[0].memory_used, 0.75, 1e-12);
  EXPECT_NEAR(gap->types[0].pods_used, 4.0 / 220, 1e-12);
}

TEST(GapBreakdown, PaysForADearerTypeAsPremium) {
  // The same shape at twice the price: each such node pays $1 over its capacity's dual value.
  const absl::StatusOr<GapBreakdown> gap =
      BreakDownGap({CpuRichNode(500, 0.75, 2.0), CpuRichNode(500, 0.75)}, kTypes);
  ASSERT_TRUE(gap.ok()) << gap.status();
  EXPECT_NEAR(gap->cost, 3.0, 1e-9);
  EXPECT_NEAR(gap->premium, 1.0, 1e-6);
  EXPECT_NEAR(gap->bound + gap->idle_cpu + gap->idle_memory + gap->idle_pods + gap->premium,
              gap->cost, 1e-6);
}

}  // namespace
}  // namespace karpenter::bench
