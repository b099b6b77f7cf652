// The AWS drift checks (upstream pkg/cloudprovider/drift.go): each reason, the order they are
// checked in, and the missing inputs that make upstream give up.
#include "src/disruption/aws_drift.h"

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::disruption {
namespace {

api::AMI Ami(std::string id, std::string arch) {
  return {.id = std::move(id),
          .requirements = {{std::string(api::kLabelArchStable), "In", {std::move(arch)}}}};
}

// A class whose status resolved one amd64 and one arm64 AMI, two subnets, two security groups
// and one capacity reservation; a NodeClaim launched from it on an amd64 type, not drifted.
struct Fixture {
  api::EC2NodeClass node_class;
  api::NodeClaim claim;
  provisioning::InstanceTypeView amd64;

  Fixture() {
    node_class.status.amis = {Ami("ami-arm", "arm64"), Ami("ami-new", "amd64"),
                              Ami("ami-old", "amd64")};
    node_class.status.subnets = {{.id = "subnet-a"}, {.id = "subnet-b"}};
    node_class.status.security_groups = {{.id = "sg-1"}, {.id = "sg-2"}};
    node_class.status.capacity_reservations = {{.id = "cr-1"}};
    claim.status.image_id = "ami-new";
    claim.metadata.annotations[std::string(kInstanceSubnetAnnotationKey)] = "subnet-b";
    claim.metadata.annotations[std::string(kInstanceSecurityGroupsAnnotationKey)] = "sg-2, sg-1";
    amd64.name = "m5.large";
    amd64.requirements.Add(scheduling::Requirement::In(api::kLabelArchStable, {"amd64"}));
  }

  std::string Detect() const { return DetectNodeClassDrift(node_class, claim, &amd64); }
};

TEST(DetectNodeClassDrift, NotDriftedWhenEverythingMatches) { EXPECT_EQ(Fixture().Detect(), ""); }

TEST(DetectNodeClassDrift, HashDifferenceWithSameVersionIsNodeClassDrift) {
  Fixture f;
  f.node_class.metadata.annotations = {{"karpenter.k8s.aws/ec2nodeclass-hash", "1"},
                                       {"karpenter.k8s.aws/ec2nodeclass-hash-version", "v4"}};
  f.claim.metadata.annotations["karpenter.k8s.aws/ec2nodeclass-hash"] = "2";
  f.claim.metadata.annotations["karpenter.k8s.aws/ec2nodeclass-hash-version"] = "v4";
  EXPECT_EQ(f.Detect(), "NodeClassDrift");
  f.claim.metadata.annotations["karpenter.k8s.aws/ec2nodeclass-hash-version"] = "v3";
  EXPECT_EQ(f.Detect(), "");
}

TEST(DetectNodeClassDrift, ImageNoLongerResolvedIsAMIDrift) {
  Fixture f;
  f.claim.status.image_id = "ami-gone";
  EXPECT_EQ(f.Detect(), "AMIDrift");
}

TEST(DetectNodeClassDrift, OnlyTheFirstCompatibleAMICounts) {
  // ami-old still satisfies the type, but the provider launches the first match, ami-new.
  Fixture f;
  f.claim.status.image_id = "ami-old";
  EXPECT_EQ(f.Detect(), "AMIDrift");
  // An AMI for another architecture is not the type's AMI either.
  f.claim.status.image_id = "ami-arm";
  EXPECT_EQ(f.Detect(), "AMIDrift");
}

TEST(DetectNodeClassDrift, SecurityGroupSetMustMatchExactly) {
  Fixture f;
  f.claim.metadata.annotations[std::string(kInstanceSecurityGroupsAnnotationKey)] = "sg-1";
  EXPECT_EQ(f.Detect(), "SecurityGroupDrift");
  f.claim.metadata.annotations[std::string(kInstanceSecurityGroupsAnnotationKey)] =
      "sg-1,sg-2,sg-3";
  EXPECT_EQ(f.Detect(), "SecurityGroupDrift");
}

TEST(DetectNodeClassDrift, SubnetOutsideTheResolvedOnesIsSubnetDrift) {
  Fixture f;
  f.claim.metadata.annotations[std::string(kInstanceSubnetAnnotationKey)] = "subnet-z";
  EXPECT_EQ(f.Detect(), "SubnetDrift");
}

TEST(DetectNodeClassDrift, SecurityGroupsAreReportedBeforeSubnets) {
  Fixture f;
  f.claim.metadata.annotations[std::string(kInstanceSubnetAnnotationKey)] = "subnet-z";
  f.claim.metadata.annotations[std::string(kInstanceSecurityGroupsAnnotationKey)] = "sg-9";
  EXPECT_EQ(f.Detect(), "SecurityGroupDrift");
}

TEST(DetectNodeClassDrift, UnselectedReservationIsCapacityReservationDrift) {
  Fixture f;
  f.claim.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = "reserved";
  f.claim.metadata.labels[std::string(api::kLabelCapacityReservationID)] = "cr-1";
  EXPECT_EQ(f.Detect(), "");
  f.claim.metadata.labels[std::string(api::kLabelCapacityReservationID)] = "cr-2";
  EXPECT_EQ(f.Detect(), "CapacityReservationDrift");
  // Demoted to on-demand: no longer in any reservation.
  f.claim.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = "on-demand";
  EXPECT_EQ(f.Detect(), "");
}

TEST(DetectNodeClassDrift, MissingInstanceFactsFindNoDrift) {
  Fixture f;
  f.claim.metadata.annotations.clear();
  EXPECT_EQ(f.Detect(), "");
}

TEST(DetectNodeClassDrift, UpstreamGivesUpWithoutTheInputsItNeeds) {
  Fixture base;
  base.claim.metadata.annotations[std::string(kInstanceSubnetAnnotationKey)] = "subnet-z";
  ASSERT_EQ(base.Detect(), "SubnetDrift");
  Fixture no_amis = base;
  no_amis.node_class.status.amis.clear();
  EXPECT_EQ(no_amis.Detect(), "");
  Fixture no_image = base;
  no_image.claim.status.image_id.clear();
  EXPECT_EQ(no_image.Detect(), "");
  EXPECT_EQ(DetectNodeClassDrift(base.node_class, base.claim, nullptr), "");
  Fixture no_groups = base;
  no_groups.node_class.status.security_groups.clear();
  EXPECT_EQ(no_groups.Detect(), "");
  Fixture no_subnets = base;
  no_subnets.node_class.status.subnets.clear();
  no_subnets.claim.metadata.annotations[std::string(kInstanceSecurityGroupsAnnotationKey)] = "sg-9";
  EXPECT_EQ(no_subnets.Detect(), "");
}

}  // namespace
}  // namespace karpenter::disruption
