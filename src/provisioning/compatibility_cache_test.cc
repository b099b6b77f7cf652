// CompatibilityCache answers as FilterInstanceTypes does, once per distinct requirements.
#include "src/provisioning/compatibility_cache.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures
using scheduling::Requirement;
using scheduling::Requirements;

struct Fixture {
  std::vector<InstanceTypeView> catalog = Catalog();
  std::vector<TypeCandidate> candidates;
  Fixture() {
    for (const InstanceTypeView& type : catalog) candidates.push_back(MakeTypeCandidate(type, {}));
  }
};

Requirements WithHostname(Requirements requirements, std::string_view hostname) {
  requirements.Add(Requirement::In("kubernetes.io/hostname", {hostname}));
  return requirements;
}

TEST(CompatibilityCache, AnswersAsTheFilterDoes) {
  Fixture fixture;
  CompatibilityCache cache(fixture.candidates);
  const CandidateList all = AllCandidates(fixture.candidates);
  ASSERT_TRUE(cache.Covers(all));
  const std::vector<Requirements> cases = {
      {},
      {Requirement::In("topology.kubernetes.io/zone", {kZoneA})},
      {Requirement::In("topology.kubernetes.io/zone", {"nowhere"})},
      {Requirement::In("karpenter.sh/capacity-type", {"spot"}),
       Requirement::In(kInstanceCpu, {"2", "4"})},
      {Requirement::NotIn(kInstanceCpu, {"2"})},
  };
  for (const char* cpu : {"100m", "3", "1000"}) {
    const api::ResourceList requests = Resources({{"cpu", cpu}});
    for (const Requirements& requirements : cases) {
      const CandidateList expected =
          FilterInstanceTypes(all, requirements, requests, /*explain=*/false).remaining;
      EXPECT_EQ(cache.Filter(all, requirements, requests), expected) << requirements.ToString();
      EXPECT_EQ(cache.Filter(all, WithHostname(requirements, "h"), requests), expected);
    }
  }
  // Hostnames and resources do not make new entries.
  EXPECT_EQ(cache.entries(), cases.size());
}

TEST(CompatibilityCache, FiltersOnlyTheCandidatesAsked) {
  Fixture fixture;
  CompatibilityCache cache(fixture.candidates);
  const CandidateList some = {&fixture.candidates[1], &fixture.candidates[3]};
  EXPECT_EQ(cache.Filter(some, {}, Resources({{"cpu", "100m"}})), some);
}

TEST(CompatibilityCache, DeclinesForeignCandidatesAndHostnameTypes) {
  Fixture fixture;
  CompatibilityCache cache(fixture.candidates);
  const TypeCandidate stranger = MakeTypeCandidate(fixture.catalog[0], {});
  EXPECT_FALSE(cache.Covers(CandidateList{&stranger}));

  fixture.catalog[0].requirements.Add(Requirement::In("kubernetes.io/hostname", {"h"}));
  CompatibilityCache declining(fixture.candidates);
  EXPECT_FALSE(declining.Covers(AllCandidates(fixture.candidates)));
}

}  // namespace
}  // namespace karpenter::provisioning
