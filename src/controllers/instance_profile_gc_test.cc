#include "src/controllers/instance_profile_gc.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  std::vector<std::set<std::string>> collected;
  absl::Status failure;
  InstanceProfileGarbageCollection gc{clock, cluster, [this](const std::set<std::string>& in_use) {
                                        collected.push_back(in_use);
                                        return failure;
                                      }};

  void AddClass(const std::string& name, const std::string& profile) {
    api::EC2NodeClass node_class;
    node_class.metadata.name = name;
    ASSERT_TRUE(cluster.Create(node_class).ok());
    node_class = std::get<api::EC2NodeClass>(*cluster.Get({"EC2NodeClass", "", name}));
    node_class.status.instance_profile = profile;
    ASSERT_TRUE(cluster.UpdateStatus(node_class).ok());
  }
  void AddClaim(const std::string& name, const std::string& profile) {
    api::NodeClaim claim;
    claim.metadata.name = name;
    if (!profile.empty()) {
      claim.metadata.annotations[std::string(api::kInstanceProfileAnnotationKey)] = profile;
    }
    ASSERT_TRUE(cluster.Create(claim).ok());
  }
};

TEST(InstanceProfileGarbageCollection, ProfilesOfClassesAndOfNodeClaimsAreInUse) {
  Fixture f;
  f.AddClass("default", "demo_new");
  f.AddClass("static", "");
  f.AddClaim("default-a", "demo_old");  // launched before the role changed
  f.AddClaim("default-b", "demo_new");
  f.AddClaim("default-c", "");
  EXPECT_EQ(InstanceProfilesInUse(f.cluster), (std::set<std::string>{"demo_new", "demo_old"}));
}

TEST(InstanceProfileGarbageCollection, RunsAtStartThenEveryThirtyMinutes) {
  Fixture f;
  f.AddClass("default", "demo_new");
  f.gc.Start();
  f.clock.Advance(0);
  ASSERT_EQ(f.collected.size(), 1u);
  EXPECT_EQ(f.collected[0], std::set<std::string>{"demo_new"});
  f.clock.Advance(kInstanceProfileGarbageCollectionPeriodMillis - 1);
  EXPECT_EQ(f.collected.size(), 1u);
  f.clock.Advance(1);
  EXPECT_EQ(f.collected.size(), 2u);
}

TEST(InstanceProfileGarbageCollection, AFailedPassIsRetriedSooner) {
  Fixture f;
  f.failure = absl::UnavailableError("iam throttled");
  f.gc.Start();
  f.clock.Advance(0);
  ASSERT_EQ(f.collected.size(), 1u);
  f.failure = absl::OkStatus();
  f.clock.Advance(60 * 1000);
  EXPECT_EQ(f.collected.size(), 2u);
}

}  // namespace
}  // namespace karpenter::controllers
