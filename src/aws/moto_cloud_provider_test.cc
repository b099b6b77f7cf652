// AwsCloudProvider against moto_server: launch, look up, list, delete, insufficient capacity,
// a launch template deleted behind the provider's back, ownership and drift. Every test also
// runs the launch-call properties of MotoProviderTest::CheckLaunchProperties.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/errors.h"
#include "src/aws/test_ec2_answers.h"
#include "src/aws/test_moto_provider.h"
#include "src/fakes/recording_metrics.h"

namespace karpenter::aws {
namespace {

using MotoProvider = MotoProviderTest;

api::NodeClaim Launched(CloudOr<api::NodeClaim> result) {
  if (const auto* error = std::get_if<CloudError>(&result)) {
    ADD_FAILURE() << "Create failed: " << error->reason << ": " << error->message;
    return api::NodeClaim();
  }
  return std::get<api::NodeClaim>(std::move(result));
}

CloudErrorKind KindOf(const std::variant<std::monostate, CloudError>& result) {
  const auto* error = std::get_if<CloudError>(&result);
  return error == nullptr ? CloudErrorKind::kCreateError : error->kind;
}

TEST_F(MotoProvider, CreateGetListDeleteEndToEnd) {
  const api::NodeClaim& claim =
      Launched(provider_->Create(Claim("default-a", {"m5.large", "c5.large"})));
  // Pricing is unreachable on moto, so the catalog's prices rank the types: c5.large is cheaper,
  // and CreateFleet (lowest-price) gets it first.
  EXPECT_EQ(claim.metadata.labels.at("node.kubernetes.io/instance-type"), "c5.large");
  EXPECT_EQ(claim.metadata.labels.at("karpenter.sh/capacity-type"), "on-demand");
  EXPECT_EQ(claim.metadata.labels.at("karpenter.sh/nodepool"), "default");
  EXPECT_EQ(claim.status.image_id, image_);
  EXPECT_TRUE(claim.status.provider_id.starts_with("aws:///us-west-2")) << claim.status.provider_id;
  EXPECT_FALSE(claim.status.allocatable.empty());
  EXPECT_EQ(instance_types_->on_demand_source(), PriceSource::kEmbeddedCatalog);
  // What instance profile garbage collection keeps while the claim lives.
  EXPECT_EQ(claim.metadata.annotations.at("karpenter.k8s.aws/instance-profile-name"),
            "KarpenterNodeInstanceProfile");

  auto got = provider_->Get(claim.status.provider_id);
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(got));
  EXPECT_EQ(std::get<api::NodeClaim>(got).metadata.name, "default-a");
  EXPECT_EQ(std::get<api::NodeClaim>(got).status.capacity, claim.status.capacity);

  auto listed = provider_->List();
  ASSERT_TRUE(std::holds_alternative<std::vector<api::NodeClaim>>(listed));
  ASSERT_EQ(std::get<std::vector<api::NodeClaim>>(listed).size(), 1u);
  EXPECT_EQ(std::get<std::vector<api::NodeClaim>>(listed)[0].status.provider_id,
            claim.status.provider_id);
  // The launch time is the listed instance's age (instance garbage collection waits on it).
  EXPECT_TRUE(std::get<std::vector<api::NodeClaim>>(listed)[0].metadata.creation_timestamp);
  EXPECT_FALSE(std::get<std::vector<api::NodeClaim>>(listed)[0].metadata.deletion_timestamp);

  // The instance went to the subnet with the most free addresses in its zone.
  auto instances = ec2_->DescribeInstances({InstanceIdOf(claim.status.provider_id)}, {});
  ASSERT_TRUE(instances.ok() && instances->size() == 1) << instances.status();
  const std::string zone = (*instances)[0].zone;
  EXPECT_EQ((*instances)[0].subnet_id, zone == "us-west-2a" ? subnet_a_ : subnet_b_);
  // (moto leaves the template's security groups off fleet instances; see the drift test.)

  EXPECT_TRUE(std::holds_alternative<std::monostate>(provider_->Delete(claim)));
  EXPECT_EQ(KindOf(provider_->Delete(claim)), CloudErrorKind::kNotFound);
  listed = provider_->List();
  EXPECT_TRUE(std::get<std::vector<api::NodeClaim>>(listed).empty());
  EXPECT_EQ(recorder_.Calls("TerminateInstances").size(), 1u);
}

TEST_F(MotoProvider, LaunchTemplatesAreSharedByContentAndCarryTheImage) {
  Launched(provider_->Create(Claim("default-a", {"m5.large"})));
  Launched(provider_->Create(Claim("default-b", {"m5.large"})));
  const auto created = recorder_.Calls("CreateLaunchTemplate");
  ASSERT_EQ(created.size(), 1u);
  EXPECT_TRUE(created[0].at("LaunchTemplateName").starts_with("karpenter.k8s.aws/"));
  EXPECT_EQ(created[0].at("LaunchTemplateData.ImageId"), image_);
  EXPECT_EQ(created[0].at("LaunchTemplateData.IamInstanceProfile.Name"),
            "KarpenterNodeInstanceProfile");
  EXPECT_EQ(created[0].at("LaunchTemplateData.SecurityGroupId.1"), group_);
  EXPECT_EQ(recorder_.Calls("CreateFleet").size(), 2u);
  // A taint changes the bootstrap user data, hence the content and the name.
  api::NodeClaim tainted = Claim("default-c", {"m5.large"});
  tainted.spec.taints = {{.key = "dedicated", .value = "gpu", .effect = "NoSchedule"}};
  Launched(provider_->Create(tainted));
  EXPECT_EQ(recorder_.Calls("CreateLaunchTemplate").size(), 2u);
}

TEST_F(MotoProvider, AGoingNodeClassTakesItsLaunchTemplatesAlong) {
  Launched(provider_->Create(Claim("default-a", {"m5.large"})));
  const std::vector<Filter> ours = {
      {.name = "tag:karpenter.k8s.aws/cluster", .values = {kCluster}},
      {.name = "tag:karpenter.k8s.aws/ec2nodeclass", .values = {"default"}}};
  auto before = ec2_->DescribeLaunchTemplates({}, ours);
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_EQ(before->size(), 1u);
  ASSERT_TRUE(provider_->DeleteLaunchTemplates(node_class_).ok());
  auto after = ec2_->DescribeLaunchTemplates({}, ours);
  EXPECT_TRUE(absl::IsNotFound(after.status()) || (after.ok() && after->empty())) << after.status();
  // Nothing left to delete is not an error; a later launch makes the template again.
  EXPECT_TRUE(provider_->DeleteLaunchTemplates(node_class_).ok());
  Launched(provider_->Create(Claim("default-b", {"m5.large"})));
  EXPECT_EQ(recorder_.Calls("CreateLaunchTemplate").size(), 2u);
}

TEST_F(MotoProvider, SpotIsPreferredWhenAllowedWithPriceCapacityOptimized) {
  const api::NodeClaim& claim =
      Launched(provider_->Create(Claim("default-a", {"m5.large"}, "spot")));
  EXPECT_EQ(claim.metadata.labels.at("karpenter.sh/capacity-type"), "spot");
  const auto fleets = recorder_.Calls("CreateFleet");
  ASSERT_EQ(fleets.size(), 1u);
  EXPECT_EQ(fleets[0].at("SpotOptions.AllocationStrategy"), "price-capacity-optimized");
  EXPECT_EQ(fleets[0].at("TargetCapacitySpecification.DefaultTargetCapacityType"), "spot");
  EXPECT_EQ(fleets[0].at("Type"), "instant");
}

TEST_F(MotoProvider, MetalTypesAndSpotDearerThanOnDemandStayOutOfTheFleet) {
  // moto prices every spot offering alike; here m5.24xlarge's spot price is above m5.large's
  // on-demand one ($0.096).
  std::string history;
  for (const auto& [type, price] : {std::pair{"m5.large", "0.04"}, {"m5.24xlarge", "1.9"}}) {
    for (const char* zone : {"us-west-2a", "us-west-2b", "us-west-2c"}) {
      history += absl::StrCat("<item><instanceType>", type, "</instanceType><productDescription>",
                              "Linux/UNIX</productDescription><spotPrice>", price,
                              "</spotPrice><timestamp>2026-01-01T00:00:00.000Z</timestamp>",
                              "<availabilityZone>", zone, "</availabilityZone></item>");
    }
  }
  faults_.AddRule(
      {.operation = "DescribeSpotPriceHistory",
       .kind = FaultKind::kRespond,
       .times = 1,
       .response = {.status = 200,
                    .body = "<DescribeSpotPriceHistoryResponse><spotPriceHistorySet>" + history +
                            "</spotPriceHistorySet>" + "</DescribeSpotPriceHistoryResponse>"}});
  api::NodeClaim claim = Claim("default-a", {"m5.large", "m5.metal", "m5.24xlarge"}, "spot");
  claim.spec.requirements[1].values = {"spot", "on-demand"};
  Launched(provider_->Create(claim));
  const auto fleets = recorder_.Calls("CreateFleet");
  ASSERT_EQ(fleets.size(), 1u);
  std::set<std::string> types;
  for (const auto& [key, value] : fleets[0]) {
    if (key.ends_with(".InstanceType")) types.insert(value);
  }
  // m5.metal is exotic, and m5.24xlarge's spot offerings are dearer than on demand.
  EXPECT_EQ(types, std::set<std::string>{"m5.large"});
  EXPECT_EQ(fleets[0].at("TargetCapacitySpecification.DefaultTargetCapacityType"), "spot");

  // With only metal left, metal is launched.
  Launched(provider_->Create(Claim("default-b", {"m5.metal"})));
  ASSERT_EQ(recorder_.Calls("CreateFleet").size(), 2u);
  EXPECT_EQ(
      recorder_.Calls("CreateFleet")[1].at("LaunchTemplateConfigs.1.Overrides.1.InstanceType"),
      "m5.metal");
}

TEST_F(MotoProvider, InsufficientCapacityMarksTheOfferingsForThreeMinutes) {
  faults_.AddRule({.operation = "CreateFleet",
                   .kind = FaultKind::kRespond,
                   .times = 1,
                   .response = {.status = 200,
                                .body = RefusedFleetXml(
                                    {{.instance_type = "m5.large", .subnet_id = subnet_a_},
                                     {.instance_type = "m5.large", .subnet_id = subnet_b_}})}});
  auto result = provider_->Create(Claim("default-a", {"m5.large"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(result));
  const CloudError& error = std::get<CloudError>(result);
  EXPECT_EQ(error.kind, CloudErrorKind::kInsufficientCapacity);
  const std::vector<OfferingRef> expected = {{"m5.large", "us-west-2a", "on-demand"},
                                             {"m5.large", "us-west-2b", "on-demand"}};
  EXPECT_EQ(error.offerings, expected);
  EXPECT_NE(error.message.find("m5.large/us-west-2a/on-demand"), std::string::npos)
      << error.message;
  EXPECT_TRUE(unavailable_.IsUnavailable("m5.large", "us-west-2a", "on-demand"));

  // While marked, nothing is left to launch m5.large on demand with, and EC2 is not asked.
  auto again = provider_->Create(Claim("default-b", {"m5.large"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(again));
  EXPECT_EQ(std::get<CloudError>(again).kind, CloudErrorKind::kInsufficientCapacity);
  EXPECT_EQ(recorder_.Calls("CreateFleet").size(), 1u);

  controller_clock_.Advance(3 * 60 * 1000);
  Launched(provider_->Create(Claim("default-c", {"m5.large"})));
  EXPECT_EQ(recorder_.Calls("CreateFleet").size(), 2u);
}

TEST_F(MotoProvider, EachRefusedOfferingIsCountedByZoneCapacityTypeAndReason) {
  fakes::RecordingMetrics metrics;
  AwsCloudProvider counting(*ec2_, clock_, *instance_types_, cluster_, unavailable_,
                            ClusterInfo{.name = kCluster, .endpoint = "https://demo.eks.example"},
                            &metrics);
  // EC2 names the zone of the second refusal only; the first is known by its subnet.
  faults_.AddRule(
      {.operation = "CreateFleet",
       .kind = FaultKind::kRespond,
       .times = 1,
       .response = {
           .status = 200,
           .body = RefusedFleetXml(
               {{.instance_type = "m5.large", .subnet_id = subnet_a_},
                {.instance_type = "m5.large",
                 .subnet_id = subnet_b_,
                 .zone = "us-west-2b",
                 .code = "VcpuLimitExceeded",
                 .message =
                     "You have requested more vCPU capacity than your current vCPU limit"}})}});
  auto result = counting.Create(Claim("default-a", {"m5.large"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(result));

  std::map<std::string, std::string> zone_ids;
  for (const api::Subnet& subnet : node_class_.status.subnets) {
    zone_ids[subnet.zone] = subnet.zone_id;
  }
  ASSERT_FALSE(zone_ids["us-west-2a"].empty());
  auto key = [&](const std::string& zone, const std::string& reason) {
    return fakes::RecordingMetrics::Key("karpenter_cloudprovider_instance_launch_failures_total",
                                        {{"zone", zone},
                                         {"zone_id", zone_ids[zone]},
                                         {"capacity_type", "on-demand"},
                                         {"reason", reason}});
  };
  // Upstream's reasons: a capacity error is the generic one, a quota has its own.
  const std::map<std::string, double> expected = {{key("us-west-2a", "LaunchFailed"), 1},
                                                  {key("us-west-2b", "VCPULimitExceeded"), 1}};
  EXPECT_EQ(metrics.counters, expected);
}

TEST_F(MotoProvider, ARefusedCreateFleetCallCarriesUpstreamsReason) {
  faults_.AddRule({.operation = "CreateFleet",
                   .kind = FaultKind::kRespond,
                   .times = 1,
                   .response = {.status = 403,
                                .body = "<Response><Errors><Error><Code>UnauthorizedOperation"
                                        "</Code><Message>You are not authorized to perform this "
                                        "operation.</Message></Error></Errors></Response>"}});
  auto result = provider_->Create(Claim("default-a", {"m5.large"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(result));
  const CloudError& error = std::get<CloudError>(result);
  EXPECT_EQ(error.kind, CloudErrorKind::kCreateError);
  EXPECT_EQ(error.reason, "Unauthorized");
  EXPECT_NE(error.message.find("UnauthorizedOperation"), std::string::npos) << error.message;
}

TEST(LaunchFailureReason, UpstreamsReasonsInUpstreamsOrder) {
  EXPECT_EQ(ClassifyLaunchFailure("UnauthorizedOperation: You are not authorized").reason,
            "Unauthorized");
  EXPECT_EQ(
      ClassifyLaunchFailure("UnauthorizedOperation: Not authorized for images: [ami-1]").reason,
      "AMIAuthorizationFailure");
  EXPECT_EQ(ClassifyLaunchFailure("AuthFailure.ServiceLinkedRoleCreationNotPermitted: no").reason,
            "SpotSLRCreationFailed");
  EXPECT_EQ(ClassifyLaunchFailure("InvalidParameter: sg-1 and subnet-2 belong to different "
                                  "networks")
                .reason,
            "SecurityGroupSubnetVPCMismatch");
  EXPECT_EQ(ClassifyLaunchFailure("InvalidAMIID.NotFound: gone").reason, "AMINotFound");
  EXPECT_EQ(ClassifyLaunchFailure("MaxSpotInstanceCountExceeded: quota").reason,
            "SpotQuotaExceeded");
  EXPECT_EQ(ClassifyLaunchFailure("InsufficientFreeAddressesInSubnet: full").reason,
            "InsufficientFreeAddressesInSubnet");
  EXPECT_EQ(ClassifyLaunchFailure("InsufficientInstanceCapacity: none").reason, "LaunchFailed");
  EXPECT_FALSE(ClassifyLaunchFailure("Unsupported: no").message.empty());
}

TEST_F(MotoProvider, MissingLaunchTemplateIsRecreatedOnce) {
  Launched(provider_->Create(Claim("default-a", {"m5.large"})));
  faults_.AddRule({.operation = "CreateFleet",
                   .kind = FaultKind::kRespond,
                   .times = 1,
                   .response = {.status = 400,
                                .body = "<Response><Errors><Error><Code>InvalidLaunchTemplateName."
                                        "NotFoundException</Code><Message>gone</Message></Error>"
                                        "</Errors></Response>"}});
  const std::string name = recorder_.Calls("CreateLaunchTemplate")[0].at("LaunchTemplateName");
  ASSERT_TRUE(ec2_->DeleteLaunchTemplate(name).ok());
  Launched(provider_->Create(Claim("default-b", {"m5.large"})));
  EXPECT_EQ(recorder_.Calls("CreateLaunchTemplate").size(), 2u);
  EXPECT_EQ(recorder_.Calls("CreateFleet").size(), 3u);
  auto stored = ec2_->DescribeLaunchTemplates({name}, {});
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), 1u);
}

TEST_F(MotoProvider, NodeClassThatIsMissingOrNotReadyLaunchesNothing) {
  api::NodeClaim claim = Claim("default-a", {"m5.large"});
  claim.spec.node_class_ref->name = "absent";
  auto missing = provider_->Create(claim);
  ASSERT_TRUE(std::holds_alternative<CloudError>(missing));
  EXPECT_EQ(std::get<CloudError>(missing).kind, CloudErrorKind::kNodeClassNotReady);

  node_class_.status.conditions.back().status = "False";
  StoreNodeClass();
  auto not_ready = provider_->Create(Claim("default-a", {"m5.large"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(not_ready));
  EXPECT_EQ(std::get<CloudError>(not_ready).kind, CloudErrorKind::kNodeClassNotReady);
  EXPECT_TRUE(recorder_.Calls("CreateFleet").empty());
}

TEST_F(MotoProvider, InstancesOfOtherClustersAreNeitherSeenNorTouched) {
  const api::NodeClaim& ours = Launched(provider_->Create(Claim("default-a", {"m5.large"})));
  const std::string id = InstanceIdOf(ours.status.provider_id);
  // Re-tag our instance as another cluster's: from now on it is not ours to see or terminate.
  ASSERT_TRUE(ec2_->CreateTags({id}, {{"kubernetes.io/cluster/demo", "shared"},
                                      {"eks:eks-cluster-name", "other"}})
                  .ok());
  auto got = provider_->Get(ours.status.provider_id);
  ASSERT_TRUE(std::holds_alternative<CloudError>(got));
  EXPECT_EQ(std::get<CloudError>(got).kind, CloudErrorKind::kNotFound);
  EXPECT_EQ(KindOf(provider_->Delete(ours)), CloudErrorKind::kNotFound);
  EXPECT_TRUE(std::get<std::vector<api::NodeClaim>>(provider_->List()).empty());
  EXPECT_TRUE(recorder_.Calls("TerminateInstances").empty());
  EXPECT_EQ(KindOf(provider_->Delete(api::NodeClaim{})), CloudErrorKind::kNotFound);
}

TEST_F(MotoProvider, DriftOnImageSubnetSecurityGroupsAndNodeClassHash) {
  const api::NodeClaim claim = Launched(provider_->Create(Claim("default-a", {"m5.large"})));
  // moto does not put fleet instances in the template's security groups; EC2 would.
  Call(QueryRequest("ModifyInstanceAttribute", Ec2Client::kApiVersion)
           .Set("InstanceId", InstanceIdOf(claim.status.provider_id))
           .Set("GroupId.1", group_));
  auto drift = [&] {
    auto result = provider_->IsDrifted(claim);
    EXPECT_TRUE(std::holds_alternative<std::string>(result));
    return std::holds_alternative<std::string>(result) ? std::get<std::string>(result) : "";
  };
  EXPECT_EQ(drift(), "");
  const api::EC2NodeClass resolved = node_class_;

  PutParameter(kAl2023Parameter, other_image_);  // a new AMI release
  auto status = resolver_->Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  node_class_.status = *status;
  StoreNodeClass();
  EXPECT_EQ(drift(), kAmiDrift);

  node_class_ = resolved;
  node_class_.status.subnets = {{.id = "subnet-elsewhere", .zone = "us-west-2a"}};
  StoreNodeClass();
  EXPECT_EQ(drift(), kSubnetDrift);

  node_class_ = resolved;
  node_class_.status.security_groups.push_back({.id = "sg-added", .name = "added"});
  StoreNodeClass();
  EXPECT_EQ(drift(), kSecurityGroupDrift);

  node_class_ = resolved;
  node_class_.spec.tags["team"] = "payments";
  StoreNodeClass();
  EXPECT_EQ(drift(), kNodeClassDrift);
}

TEST_F(MotoProvider, EveryLaunchCallIsCheckedForOwnershipImdsAndEncryption) {
  Launched(provider_->Create(Claim("default-a", {"m5.large"}, "spot")));
  Launched(provider_->Create(Claim("default-b", {"c5.large"})));
  CheckLaunchProperties();
  // The properties must have had something to look at.
  EXPECT_GE(launch_template_calls_, 1);
  EXPECT_EQ(fleet_calls_, 2);
}

// EC2's subnet counts lag launches: back-to-back launches into one zone take turns between its
// subnets instead of all landing in the one that looked emptiest (upstream's in-flight IPs).
TEST_F(MotoProvider, LaunchesInFlightChargeTheirSubnetUntilEc2CatchesUp) {
  auto answer_subnets = [&](int64_t big, int64_t small) {
    faults_.ClearRules();
    faults_.AddRule({.operation = "DescribeSubnets",
                     .kind = FaultKind::kRespond,
                     .response = {.status = 200,
                                  .body = SubnetsXml(vpc_, {{subnet_a_, "us-west-2a", big},
                                                            {small_subnet_a_, "us-west-2a", small},
                                                            {subnet_b_, "us-west-2b", 200}})}});
  };
  auto subnet_of_launch = [&](const std::string& name) {
    api::NodeClaim claim = Claim(name, {"m5.large"});  // 29 pods: 29 addresses
    claim.spec.requirements.push_back(
        {.key = "topology.kubernetes.io/zone", .operator_ = "In", .values = {"us-west-2a"}});
    const api::NodeClaim launched = Launched(provider_->Create(claim));
    auto instances = ec2_->DescribeInstances({InstanceIdOf(launched.status.provider_id)}, {});
    return instances.ok() && instances->size() == 1 ? (*instances)[0].subnet_id : "";
  };
  answer_subnets(100, 90);
  const size_t described = recorder_.Calls("DescribeSubnets").size();
  EXPECT_EQ(subnet_of_launch("default-a"), subnet_a_);        // 100 -> 71 in flight
  EXPECT_EQ(subnet_of_launch("default-b"), small_subnet_a_);  // 90 -> 61
  EXPECT_EQ(subnet_of_launch("default-c"), subnet_a_);        // 71 -> 42
  // One description serves a minute of launches, as upstream's subnet cache.
  EXPECT_EQ(recorder_.Calls("DescribeSubnets").size(), described + 1);
  // Other launches took most of the small subnet's addresses: EC2 now counts 20 there.
  answer_subnets(100, 20);
  EXPECT_EQ(subnet_of_launch("default-d"), small_subnet_a_);  // cached: 61 against 42
  clock_.Advance(kSubnetCacheTtl);
  // Described again: the small subnet's count moved, so EC2's 20 is the truth; the big one's
  // did not, so its launches stay charged (42).
  EXPECT_EQ(subnet_of_launch("default-e"), subnet_a_);
  EXPECT_EQ(recorder_.Calls("DescribeSubnets").size(), described + 2);
}

TEST_F(MotoProvider, ASubnetEc2FindsFullIsLeftForTheZonesOtherSubnet) {
  faults_.AddRule({.operation = "DescribeSubnets",
                   .kind = FaultKind::kRespond,
                   .response = {.status = 200,
                                .body = SubnetsXml(vpc_, {{subnet_a_, "us-west-2a", 100},
                                                          {small_subnet_a_, "us-west-2a", 90},
                                                          {subnet_b_, "us-west-2b", 200}})}});
  // EC2 says the subnet with most free addresses has none for this launch.
  faults_.AddRule(
      {.operation = "CreateFleet",
       .kind = FaultKind::kRespond,
       .times = 1,
       .response = {.status = 200,
                    .body = RefusedFleetXml({{.instance_type = "m5.large",
                                              .subnet_id = subnet_a_,
                                              .code = "InsufficientFreeAddressesInSubnet",
                                              .message = "full"}})}});
  auto zone_a = [](const std::string& name, const std::string& type) {
    api::NodeClaim claim = Claim(name, {type});
    claim.spec.requirements.push_back(
        {.key = "topology.kubernetes.io/zone", .operator_ = "In", .values = {"us-west-2a"}});
    return claim;
  };
  ASSERT_TRUE(
      std::holds_alternative<CloudError>(provider_->Create(zone_a("default-a", "m5.large"))));
  // Another type (m5.large is out of capacity there for 3 minutes) goes to the other subnet,
  // though EC2 still counts 100 free addresses in the first.
  const api::NodeClaim launched = Launched(provider_->Create(zone_a("default-b", "c5.large")));
  auto instances = ec2_->DescribeInstances({InstanceIdOf(launched.status.provider_id)}, {});
  ASSERT_TRUE(instances.ok() && instances->size() == 1) << instances.status();
  EXPECT_EQ((*instances)[0].subnet_id, small_subnet_a_);
}

}  // namespace
}  // namespace karpenter::aws
