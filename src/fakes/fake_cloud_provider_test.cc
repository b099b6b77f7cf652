#include "src/fakes/fake_cloud_provider.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::fakes {
namespace {

cloudprovider::InstanceType Type(std::string name, double od_price, double spot_price) {
  cloudprovider::InstanceType type;
  type.name = std::move(name);
  type.offerings = {
      {.zone = "us-east-1a", .capacity_type = "on-demand", .price = od_price, .available = true},
      {.zone = "us-east-1a", .capacity_type = "spot", .price = spot_price, .available = true}};
  return type;
}

api::NodeClaim Claim(std::string name, std::vector<std::string> capacity_types) {
  api::NodeClaim claim;
  claim.metadata.name = std::move(name);
  claim.spec.requirements.push_back({.key = std::string(api::kCapacityTypeLabelKey),
                                     .operator_ = "In",
                                     .values = std::move(capacity_types)});
  return claim;
}

TEST(FakeCloudProvider, CreateLaunchesTheCheapestAllowedOffering) {
  FakeCloudProvider cloud;
  cloud.SetInstanceTypes({Type("m5.large", 0.096, 0.04), Type("c5.large", 0.085, 0.03)});
  CloudOr<api::NodeClaim> launched = cloud.Create(Claim("a", {"on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(launched));
  const api::NodeClaim& claim = std::get<api::NodeClaim>(launched);
  EXPECT_EQ(claim.metadata.labels.at(std::string(api::kLabelInstanceTypeStable)), "c5.large");
  EXPECT_EQ(claim.metadata.labels.at(std::string(api::kCapacityTypeLabelKey)), "on-demand");
  EXPECT_EQ(claim.status.provider_id, "fake:///us-east-1a/i-1");
}

TEST(FakeCloudProvider, InsufficientCapacityNamesEveryOfferingTried) {
  FakeCloudProvider cloud;
  cloud.SetInstanceTypes({Type("m5.large", 0.096, 0.04), Type("c5.large", 0.085, 0.03)});
  cloud.SetInsufficientCapacity({"c5.large", "us-east-1a", "spot"});
  cloud.SetInsufficientCapacity({"m5.large", "us-east-1a", "spot"});
  CloudOr<api::NodeClaim> launched = cloud.Create(Claim("a", {"spot"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(launched));
  const CloudError& error = std::get<CloudError>(launched);
  EXPECT_EQ(error.kind, CloudErrorKind::kInsufficientCapacity);
  EXPECT_EQ(error.offerings, (std::vector<OfferingRef>{{"c5.large", "us-east-1a", "spot"},
                                                       {"m5.large", "us-east-1a", "spot"}}));
}

TEST(FakeCloudProvider, DeleteAnswersNotFoundOnceTheInstanceIsGone) {
  FakeCloudProvider cloud;
  cloud.SetInstanceTypes({Type("m5.large", 0.096, 0.04)});
  api::NodeClaim claim = std::get<api::NodeClaim>(cloud.Create(Claim("a", {"spot"})));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(cloud.Delete(claim)));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(cloud.Delete(claim))) << "still terminating";
  cloud.FinishTerminations();
  auto gone = cloud.Delete(claim);
  ASSERT_TRUE(std::holds_alternative<CloudError>(gone));
  EXPECT_EQ(std::get<CloudError>(gone).kind, CloudErrorKind::kNotFound);
}

TEST(FakeCloudProvider, InjectedFailuresComeFirstAndInOrder) {
  FakeCloudProvider cloud;
  cloud.SetInstanceTypes({Type("m5.large", 0.096, 0.04)});
  cloud.FailNext(FakeCloudProvider::Method::kCreate,
                 {.kind = CloudErrorKind::kNodeClassNotReady, .reason = "NodeClassNotReady"});
  auto first = cloud.Create(Claim("a", {"spot"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(first));
  EXPECT_EQ(std::get<CloudError>(first).kind, CloudErrorKind::kNodeClassNotReady);
  EXPECT_TRUE(std::holds_alternative<api::NodeClaim>(cloud.Create(Claim("a", {"spot"}))));
  EXPECT_EQ(cloud.calls(), (std::vector<std::string>{"Create a", "Create a"}));
}

}  // namespace
}  // namespace karpenter::fakes
