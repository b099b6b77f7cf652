#include "src/sim/twin_cloud_provider.h"

#include <gtest/gtest.h>

#include "src/api/karpenter_labels.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::World;

api::NodeSelectorRequirementWithMinValues In(std::string key, std::vector<std::string> values) {
  api::NodeSelectorRequirementWithMinValues requirement;
  requirement.key = std::move(key);
  requirement.operator_ = "In";
  requirement.values = std::move(values);
  return requirement;
}

// A NodeClaim on the "default" class allowing these types and capacity types, asking 1 cpu.
api::NodeClaim Claim(std::vector<std::string> types, std::vector<std::string> capacity_types) {
  api::NodeClaim claim;
  claim.metadata.name = "default-abc12";
  claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = "default";
  claim.spec.node_class_ref = api::NodeClassReference{
      .kind = "EC2NodeClass", .name = "default", .group = "karpenter.k8s.aws"};
  claim.spec.requirements = {
      In(std::string(api::kLabelInstanceTypeStable), std::move(types)),
      In(std::string(api::kCapacityTypeLabelKey), std::move(capacity_types))};
  claim.spec.resources.requests["cpu"] = *api::Quantity::Parse("1");
  claim.spec.taints = {api::Taint{.key = "dedicated", .value = "web", .effect = "NoSchedule"}};
  return claim;
}

struct Provider {
  explicit Provider(std::vector<CapacityFault> faults = {}) : world(std::move(faults)) {
    EXPECT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  }
  World world;
  provisioning::CatalogCache catalogs;
  cloudprovider::UnavailableOfferings unavailable{world.queue, [] { return 180000; }};
  TwinCloudProvider cloud{world.cluster, catalogs, unavailable};
};

TEST(TwinCloudProvider, CreateLaunchesTheCheapestOfferingTheClaimAllows) {
  Provider p;
  CloudOr<api::NodeClaim> created =
      p.cloud.Create(Claim({"c6i.2xlarge", "c6i.xlarge"}, {"on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(created));
  const api::NodeClaim& launched = std::get<api::NodeClaim>(created);
  EXPECT_EQ(launched.metadata.labels.at(std::string(api::kLabelInstanceTypeStable)), "c6i.xlarge");
  EXPECT_EQ(launched.metadata.labels.at(std::string(api::kCapacityTypeLabelKey)), "on-demand");
  // Equal prices in every zone: the first zone.
  EXPECT_EQ(launched.metadata.labels.at(std::string(api::kLabelTopologyZone)), "us-east-1a");
  EXPECT_FALSE(launched.status.allocatable.empty());
  ASSERT_EQ(p.world.cluster.instances().size(), 1u);
  const Instance& instance = p.world.cluster.instances().begin()->second;
  EXPECT_EQ(launched.status.provider_id, "aws:///us-east-1a/" + instance.id);
  EXPECT_EQ(instance.request.node_claim, "default-abc12");
  // The kubelet registers with the claim's taint and karpenter.sh/unregistered.
  ASSERT_EQ(instance.request.taints.size(), 2u);
  EXPECT_EQ(instance.request.taints[0].key, "dedicated");
  EXPECT_EQ(instance.request.taints[1].key, api::kUnregisteredTaintKey);
}

TEST(TwinCloudProvider, ARefusedOfferingFallsToTheNextOfTheSameCapacityType) {
  Provider p({CapacityFault{"c6i.xlarge", "on-demand", {"us-east-1a"}, 0, 1000}});
  CloudOr<api::NodeClaim> created = p.cloud.Create(Claim({"c6i.xlarge"}, {"on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(created));
  EXPECT_EQ(
      std::get<api::NodeClaim>(created).metadata.labels.at(std::string(api::kLabelTopologyZone)),
      "us-east-1b");
  EXPECT_TRUE(p.unavailable.IsUnavailable("c6i.xlarge", "us-east-1a", "on-demand"));
}

TEST(TwinCloudProvider, AFleetRefusedEverywhereIsInsufficientCapacityNamingEachOffering) {
  Provider p({CapacityFault{"c6i.xlarge", "spot", {}, 0, 1000}});
  CloudOr<api::NodeClaim> created = p.cloud.Create(Claim({"c6i.xlarge"}, {"spot", "on-demand"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(created));
  const CloudError& error = std::get<CloudError>(created);
  EXPECT_EQ(error.kind, CloudErrorKind::kInsufficientCapacity);
  ASSERT_EQ(error.offerings.size(), 3u);
  for (const OfferingRef& offering : error.offerings) {
    EXPECT_EQ(offering.capacity_type, "spot");
    EXPECT_TRUE(p.unavailable.IsUnavailable(offering.instance_type, offering.zone, "spot"));
  }
  EXPECT_TRUE(p.world.cluster.instances().empty());
  // With spot unavailable, the next launch of the same claim is on demand.
  CloudOr<api::NodeClaim> again = p.cloud.Create(Claim({"c6i.xlarge"}, {"spot", "on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(again));
  EXPECT_EQ(
      std::get<api::NodeClaim>(again).metadata.labels.at(std::string(api::kCapacityTypeLabelKey)),
      "on-demand");
}

TEST(TwinCloudProvider, RequestsNoTypeFitsAndAMissingClassAreNotLaunched) {
  Provider p;
  api::NodeClaim huge = Claim({"c6i.xlarge"}, {"on-demand"});
  huge.spec.resources.requests["cpu"] = *api::Quantity::Parse("64");
  CloudOr<api::NodeClaim> created = p.cloud.Create(huge);
  ASSERT_TRUE(std::holds_alternative<CloudError>(created));
  EXPECT_EQ(std::get<CloudError>(created).kind, CloudErrorKind::kInsufficientCapacity);
  api::NodeClaim classless = Claim({"c6i.xlarge"}, {"on-demand"});
  classless.spec.node_class_ref->name = "missing";
  created = p.cloud.Create(classless);
  ASSERT_TRUE(std::holds_alternative<CloudError>(created));
  EXPECT_EQ(std::get<CloudError>(created).kind, CloudErrorKind::kNodeClassNotReady);
  api::NodeClaim invalid = Claim({"c6i.xlarge"}, {"on-demand"});
  invalid.spec.requirements[0].operator_ = "Near";
  created = p.cloud.Create(invalid);
  ASSERT_TRUE(std::holds_alternative<CloudError>(created));
  EXPECT_EQ(std::get<CloudError>(created).kind, CloudErrorKind::kCreateError);
  EXPECT_NE(std::get<CloudError>(created).message.find("spec.requirements[0]"), std::string::npos);
  EXPECT_TRUE(p.world.cluster.instances().empty());
}

TEST(TwinCloudProvider, GetListAndDeleteSeeOnlyLiveInstancesOfNodeClaims) {
  Provider p;
  CloudOr<api::NodeClaim> created = p.cloud.Create(Claim({"c6i.xlarge"}, {"on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(created));
  InstanceRequest group;  // a node group's instance: not Karpenter's
  group.instance_type = "c6i.xlarge";
  group.zone = "us-east-1b";
  group.capacity_type = "on-demand";
  p.world.cluster.LaunchInstance(group, /*initial=*/true);
  const api::NodeClaim& launched = std::get<api::NodeClaim>(created);
  CloudOr<std::vector<api::NodeClaim>> listed = p.cloud.List();
  ASSERT_TRUE(std::holds_alternative<std::vector<api::NodeClaim>>(listed));
  ASSERT_EQ(std::get<std::vector<api::NodeClaim>>(listed).size(), 1u);
  EXPECT_EQ(std::get<std::vector<api::NodeClaim>>(listed)[0].metadata.name, "default-abc12");
  CloudOr<api::NodeClaim> got = p.cloud.Get(launched.status.provider_id);
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(got));
  EXPECT_EQ(std::get<api::NodeClaim>(got).status.provider_id, launched.status.provider_id);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(p.cloud.Delete(launched)));
  // Gone: NotFound from now on, which is how the caller learns deletion finished.
  auto deleted = p.cloud.Delete(launched);
  ASSERT_TRUE(std::holds_alternative<CloudError>(deleted));
  EXPECT_EQ(std::get<CloudError>(deleted).kind, CloudErrorKind::kNotFound);
  got = p.cloud.Get(launched.status.provider_id);
  ASSERT_TRUE(std::holds_alternative<CloudError>(got));
  EXPECT_EQ(std::get<CloudError>(got).kind, CloudErrorKind::kNotFound);
  EXPECT_TRUE(std::get<std::vector<api::NodeClaim>>(p.cloud.List()).empty());
}

TEST(TwinCloudProvider, InstanceTypesMarkTheOfferingsEc2RecentlyRefused) {
  Provider p;
  p.unavailable.Mark({"c6i.xlarge", "us-east-1b", "spot"});
  CloudOr<std::vector<cloudprovider::InstanceType>> types =
      p.cloud.GetInstanceTypes(testing::MakeNodePool({"c6i.xlarge"}, {"spot"}));
  ASSERT_TRUE(std::holds_alternative<std::vector<cloudprovider::InstanceType>>(types));
  size_t refused = 0;
  size_t offered = 0;
  for (const cloudprovider::InstanceType& type :
       std::get<std::vector<cloudprovider::InstanceType>>(types)) {
    for (const cloudprovider::Offering& offering : type.offerings) {
      ++offered;
      const bool marked = type.name == "c6i.xlarge" && offering.zone == "us-east-1b" &&
                          offering.capacity_type == "spot";
      if (marked) {
        EXPECT_FALSE(offering.available);
        ++refused;
      }
    }
  }
  EXPECT_EQ(refused, 1u);
  EXPECT_GT(offered, refused);
}

}  // namespace
}  // namespace karpenter::sim
