// NodeClaimFinalizer shares what claims with equal candidates and offering requirements have in
// common, and otherwise gives what finalizing each claim alone gives.
#include "src/provisioning/node_claim_finalizer.h"

#include <deque>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

struct Fixture {
  std::vector<InstanceTypeView> catalog = Catalog();
  NodeClaimTemplate tmpl;
  std::deque<api::Pod> pods;  // Claims point at their pods.

  Fixture() {
    tmpl.node_pool = "default";
    tmpl.requirements.Add(scheduling::Requirement::In("karpenter.sh/nodepool", {"default"}));
    for (const InstanceTypeView& type : catalog) tmpl.candidates.push_back({&type, {}});
  }

  // A claim holding one pod asking `cpu`, optionally pinned to `zone`.
  InFlightNodeClaim Claim(const std::string& name, const char* cpu, const char* zone = nullptr) {
    InFlightNodeClaim claim(tmpl, AllCandidates(tmpl.candidates));
    const api::Pod& pod = pods.emplace_back(MakePod(name, cpu, "1Gi"));
    scheduling::Requirements requirements;
    if (zone != nullptr) {
      requirements.Add(scheduling::Requirement::In("topology.kubernetes.io/zone", {zone}));
    }
    EXPECT_TRUE(
        claim.Add(PodAttempt(pod), requirements, RequestsForPod(pod), SchedulerOptions{}).ok());
    return claim;
  }
};

void ExpectSameAsAlone(const NewNodeClaim& shared, const InFlightNodeClaim& claim) {
  absl::StatusOr<NewNodeClaim> alone = FinalizeNodeClaim(claim, SchedulerOptions{}, 600);
  ASSERT_TRUE(alone.ok()) << alone.status();
  EXPECT_EQ(shared.instance_types, alone->instance_types.vector());
  EXPECT_EQ(shared.instance_type_options, alone->instance_type_options.vector());
  EXPECT_EQ(shared.zones, alone->zones);
  EXPECT_EQ(shared.capacity_types, alone->capacity_types);
  EXPECT_EQ(shared.requirements, alone->requirements);
  EXPECT_EQ(shared.pods, alone->pods);
  EXPECT_EQ(shared.requests, alone->requests);
}

TEST(NodeClaimFinalizer, ClaimsWithTheSameCandidatesShareTheirLists) {
  Fixture fixture;
  const InFlightNodeClaim a = fixture.Claim("a", "100m");
  const InFlightNodeClaim b = fixture.Claim("b", "200m");
  NodeClaimFinalizer finalizer(SchedulerOptions{}, 600);
  absl::StatusOr<NewNodeClaim> out_a = finalizer.Finalize(a);
  absl::StatusOr<NewNodeClaim> out_b = finalizer.Finalize(b);
  ASSERT_TRUE(out_a.ok() && out_b.ok());
  EXPECT_EQ(finalizer.distinct_selections(), 1u);
  EXPECT_TRUE(out_a->instance_types.SharesWith(out_b->instance_types));
  EXPECT_TRUE(out_a->instance_type_options.SharesWith(out_b->instance_type_options));
  // The claims' own parts stay their own.
  EXPECT_THAT(out_a->pods, ElementsAre("default/a"));
  EXPECT_THAT(out_b->pods, ElementsAre("default/b"));
  ExpectSameAsAlone(*out_a, a);
  ExpectSameAsAlone(*out_b, b);
}

TEST(NodeClaimFinalizer, DifferentZonesOrCandidatesAreComputedApart) {
  Fixture fixture;
  const InFlightNodeClaim any = fixture.Claim("any", "100m");
  const InFlightNodeClaim zone_a = fixture.Claim("a", "100m", kZoneA);
  const InFlightNodeClaim zone_b = fixture.Claim("b", "100m", kZoneB);
  // Too big for the smallest types: fewer candidates.
  const InFlightNodeClaim big = fixture.Claim("big", "3");
  ASSERT_LT(big.candidates().size(), any.candidates().size());
  NodeClaimFinalizer finalizer(SchedulerOptions{}, 600);
  for (const InFlightNodeClaim* claim : {&any, &zone_a, &zone_b, &big, &zone_a}) {
    absl::StatusOr<NewNodeClaim> out = finalizer.Finalize(*claim);
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectSameAsAlone(*out, *claim);
  }
  EXPECT_EQ(finalizer.distinct_selections(), 4u);
  absl::StatusOr<NewNodeClaim> out_b = finalizer.Finalize(zone_b);
  ASSERT_TRUE(out_b.ok());
  EXPECT_THAT(out_b->zones, ElementsAre(kZoneB));
}

}  // namespace
}  // namespace karpenter::provisioning
