// PoolLimits charges and filters as a scan of every candidate's capacity does.
#include "src/provisioning/pool_limits.h"

#include <optional>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

struct Fixture {
  std::vector<InstanceTypeView> catalog = Catalog();
  std::vector<TypeCandidate> candidates;
  Fixture() {
    // p.metal charges a raw capacity above its allocatable; the others charge allocatable.
    catalog.back().capacity =
        Resources({{"cpu", "100"}, {"memory", "800Gi"}, {"nvidia.com/gpu", "8"}});
    for (const InstanceTypeView& type : catalog) candidates.push_back(MakeTypeCandidate(type, {}));
  }
};

// What the claim's candidates charge, found by scanning their capacity lists.
api::ResourceList ScannedCharge(const CandidateList& candidates, api::ResourceList remaining) {
  for (auto& [name, left] : remaining) {
    if (name == kResourceNodes) continue;
    std::optional<api::Quantity> largest;
    for (const TypeCandidate* candidate : candidates) {
      const api::ResourceList& capacity = CapacityOf(*candidate->type);
      auto it = capacity.find(name);
      if (it != capacity.end() && (!largest || it->second > *largest)) largest = it->second;
    }
    if (largest) left.Sub(*largest);
  }
  return remaining;
}

TEST(PoolLimits, LargestCapacityIsPerLimitedResourceOverTheTemplate) {
  Fixture fixture;
  const PoolLimits limits(fixture.candidates, Resources({{"cpu", "1000"}, {"nodes", "5"}}));
  EXPECT_THAT(limits.largest(), ::testing::ElementsAre(::testing::Pair("cpu", Q("100"))));
}

TEST(PoolLimits, SubtractsTheLargestCapacityOfTheClaimsTypes) {
  Fixture fixture;
  const api::ResourceList remaining =
      Resources({{"cpu", "1000"}, {"memory", "4000Gi"}, {"nvidia.com/gpu", "16"}});
  const PoolLimits limits(fixture.candidates, remaining);
  const std::vector<CandidateList> claims = {
      AllCandidates(fixture.candidates),
      {&fixture.candidates[0]},
      {&fixture.candidates[1], &fixture.candidates[3]},  // Equal cpu, memory differs.
      {&fixture.candidates[4], &fixture.candidates[9]},  // Only p.metal has GPUs.
      {},
  };
  for (const CandidateList& claim : claims) {
    api::ResourceList charged = remaining;
    limits.SubtractLargest(charged, claim);
    EXPECT_EQ(charged, ScannedCharge(claim, remaining)) << claim.size();
  }
  api::ResourceList charged = remaining;
  limits.SubtractLargest(charged, {&fixture.candidates[4], &fixture.candidates[9]});
  EXPECT_EQ(charged.at("cpu"), Q("900"));
  EXPECT_EQ(charged.at("memory"), Q("3200Gi"));
  EXPECT_EQ(charged.at("nvidia.com/gpu"), Q("8"));
}

TEST(PoolLimits, ChargesCandidatesOfAnotherTemplateByScanning) {
  Fixture fixture;
  Fixture other;
  const api::ResourceList remaining = Resources({{"cpu", "1000"}});
  const PoolLimits limits(fixture.candidates, remaining);
  const CandidateList foreign = {&other.candidates[5]};
  api::ResourceList charged = remaining;
  limits.SubtractLargest(charged, foreign);
  EXPECT_EQ(charged.at("cpu"), Q("992"));
}

TEST(PoolLimits, KeepsOnlyTypesWithinTheRemainingLimits) {
  Fixture fixture;
  const PoolLimits limits(fixture.candidates, Resources({{"cpu", "1000"}, {"nodes", "10"}}));
  const CandidateList all = AllCandidates(fixture.candidates);
  EXPECT_EQ(limits.WithinLimits(all, Resources({{"cpu", "100"}, {"nodes", "1"}})), all);
  const CandidateList small = limits.WithinLimits(all, Resources({{"cpu", "4"}}));
  ASSERT_EQ(small.size(), 7u);  // Up to 4 cpu: every type but the 8, 16 and 100 cpu ones.
  for (const TypeCandidate* candidate : small) {
    EXPECT_LE(CapacityOf(*candidate->type).at("cpu"), Q("4")) << candidate->type->name;
  }
  EXPECT_TRUE(limits.WithinLimits(all, Resources({{"cpu", "100"}, {"nodes", "0"}})).empty());
}

}  // namespace
}  // namespace karpenter::provisioning
