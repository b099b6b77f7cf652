// Reserved capacity through AwsCloudProvider against moto_server: `reserved` offerings from the
// EC2NodeClass's status.capacityReservations, a launch into the reservation when a reserved
// offering is allowed (upstream prefers reserved over spot and on demand), the reservation's
// count going down with each launch, and ReservationCapacityExceeded emptying it. moto 5.2.1
// lacks DescribeCapacityReservations, so FaultInjectingTransport answers it with EC2's XML.
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/test_ec2_answers.h"
#include "src/aws/test_moto_provider.h"
#include "src/cloudprovider/reserved_offerings.h"

namespace karpenter::aws {
namespace {

class MotoReservedCapacity : public MotoProviderTest {
 protected:
  void SetUp() override {
    MotoProviderTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    AnswerReservation(2);
    node_class_.spec.capacity_reservation_selector_terms = {{.id = "cr-1"}};
    Refresh();
  }

  // EC2's description of cr-1: m5.large in us-west-2a, targeted, `available` left.
  void AnswerReservation(int available, bool interruptible = false) {
    faults_.ClearRules();
    faults_.AddRule(
        {.operation = "DescribeCapacityReservations",
         .kind = FaultKind::kRespond,
         .response = {
             .status = 200,
             .body = absl::StrCat(
                 "<DescribeCapacityReservationsResponse "
                 "xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><capacityReservationSet>"
                 "<item><capacityReservationId>cr-1</capacityReservationId>"
                 "<ownerId>123456789012</ownerId><instanceType>m5.large</instanceType>"
                 "<availabilityZone>us-west-2a</availabilityZone><availableInstanceCount>",
                 available,
                 "</availableInstanceCount><totalInstanceCount>4</totalInstanceCount>"
                 "<state>active</state><instanceMatchCriteria>targeted</instanceMatchCriteria>"
                 "<reservationType>default</reservationType><interruptible>",
                 interruptible ? "true" : "false",
                 "</interruptible></item>"
                 "</capacityReservationSet></DescribeCapacityReservationsResponse>")}});
  }

  // The status reconciler's pass: the class resolved again and stored.
  void Refresh() {
    auto status = resolver_->Resolve(node_class_);
    ASSERT_TRUE(status.ok()) << status.status();
    node_class_.status = *status;
    ASSERT_EQ(node_class_.status.capacity_reservations.size(), 1u);
    StoreNodeClass();
  }

  // A claim allowing `capacity_types` of m5.large and c5.large.
  static api::NodeClaim ClaimOf(const std::string& name, std::vector<std::string> capacity_types) {
    api::NodeClaim claim = Claim(name, {"m5.large", "c5.large"});
    claim.spec.requirements[1].values = std::move(capacity_types);
    return claim;
  }

  // m5.large's offerings as the provider lists them now.
  std::vector<cloudprovider::Offering> M5LargeOfferings() {
    api::NodePool pool;
    pool.spec.template_.spec.node_class_ref = api::NodeClassReference{
        .kind = "EC2NodeClass", .name = "default", .group = "karpenter.k8s.aws"};
    auto types = provider_->GetInstanceTypes(pool);
    if (const auto* error = std::get_if<CloudError>(&types)) {
      ADD_FAILURE() << error->message;
      return {};
    }
    for (const auto& type : std::get<std::vector<cloudprovider::InstanceType>>(types)) {
      if (type.name == "m5.large") return type.offerings;
    }
    ADD_FAILURE() << "no m5.large";
    return {};
  }

  // A copy: the lists are answered afresh each time.
  static std::optional<cloudprovider::Offering> Find(
      const std::vector<cloudprovider::Offering>& offerings, std::string_view capacity_type,
      std::string_view zone) {
    for (const cloudprovider::Offering& offering : offerings) {
      if (offering.capacity_type == capacity_type && offering.zone == zone) return offering;
    }
    return std::nullopt;
  }
};

TEST_F(MotoReservedCapacity, TheStatusReservationIsAReservedOfferingPricedAsUpstream) {
  const auto offerings = M5LargeOfferings();
  std::optional<cloudprovider::Offering> reserved = Find(offerings, "reserved", "us-west-2a");
  ASSERT_TRUE(reserved.has_value());
  EXPECT_TRUE(reserved->available);
  EXPECT_EQ(reserved->reservation_id, "cr-1");
  EXPECT_EQ(reserved->reservation_type, "default");
  EXPECT_EQ(reserved->reservation_capacity, 2);
  std::optional<cloudprovider::Offering> on_demand = Find(offerings, "on-demand", "us-west-2a");
  ASSERT_TRUE(on_demand.has_value());
  EXPECT_GT(on_demand->price, 0);
  EXPECT_DOUBLE_EQ(reserved->price, on_demand->price / cloudprovider::kReservedPriceDivisor);
  // Only the reservation's zone.
  EXPECT_FALSE(Find(offerings, "reserved", "us-west-2b").has_value());
}

TEST_F(MotoReservedCapacity, AReservedLaunchTargetsTheReservationAndCountsItDown) {
  // c5.large is cheaper on demand; the reservation wins all the same.
  auto first = provider_->Create(ClaimOf("default-a", {"reserved", "on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(first)) << std::get<CloudError>(first).message;
  const api::NodeClaim& claim = std::get<api::NodeClaim>(first);
  EXPECT_EQ(claim.metadata.labels.at("karpenter.sh/capacity-type"), "reserved");
  EXPECT_EQ(claim.metadata.labels.at("karpenter.k8s.aws/capacity-reservation-id"), "cr-1");
  EXPECT_EQ(claim.metadata.labels.at("karpenter.k8s.aws/capacity-reservation-type"), "default");
  EXPECT_EQ(claim.metadata.labels.at("node.kubernetes.io/instance-type"), "m5.large");
  EXPECT_EQ(claim.metadata.labels.at("topology.kubernetes.io/zone"), "us-west-2a");

  const auto templates = recorder_.Calls("CreateLaunchTemplate");
  ASSERT_EQ(templates.size(), 1u);
  EXPECT_EQ(templates[0].at("LaunchTemplateData.CapacityReservationSpecification."
                            "CapacityReservationPreference"),
            "capacity-reservations-only");
  EXPECT_EQ(templates[0].at("LaunchTemplateData.CapacityReservationSpecification."
                            "CapacityReservationTarget.CapacityReservationId"),
            "cr-1");
  const auto fleets = recorder_.Calls("CreateFleet");
  ASSERT_EQ(fleets.size(), 1u);
  const auto& fleet = fleets[0];
  EXPECT_EQ(fleet.at("TargetCapacitySpecification.DefaultTargetCapacityType"), "on-demand");
  EXPECT_EQ(fleet.at("OnDemandOptions.AllocationStrategy"), "lowest-price");
  // One override: the reservation's type in the reservation's zone, under its template.
  EXPECT_EQ(fleet.at("LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName"),
            templates[0].at("LaunchTemplateName"));
  EXPECT_EQ(fleet.at("LaunchTemplateConfigs.1.Overrides.1.InstanceType"), "m5.large");
  EXPECT_EQ(fleet.at("LaunchTemplateConfigs.1.Overrides.1.SubnetId"), subnet_a_);
  EXPECT_FALSE(fleet.contains("LaunchTemplateConfigs.1.Overrides.2.InstanceType"));
  EXPECT_FALSE(fleet.contains("LaunchTemplateConfigs.2.LaunchTemplateSpecification.Version"));

  std::optional<cloudprovider::Offering> left = Find(M5LargeOfferings(), "reserved", "us-west-2a");
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->reservation_capacity, 1);
  EXPECT_TRUE(left->available);

  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(
      provider_->Create(ClaimOf("default-b", {"reserved", "on-demand"}))));
  left = Find(M5LargeOfferings(), "reserved", "us-west-2a");
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->reservation_capacity, 0);
  EXPECT_FALSE(left->available);
  // The reservation is full: a claim that needs it gets nothing, and EC2 is not asked.
  auto full = provider_->Create(ClaimOf("default-c", {"reserved"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(full));
  EXPECT_EQ(std::get<CloudError>(full).kind, CloudErrorKind::kInsufficientCapacity);
  EXPECT_EQ(recorder_.Calls("CreateFleet").size(), 2u);
  // One that may go on demand does, from a template without the reservation.
  auto on_demand = provider_->Create(ClaimOf("default-d", {"reserved", "on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(on_demand));
  EXPECT_EQ(std::get<api::NodeClaim>(on_demand).metadata.labels.at("karpenter.sh/capacity-type"),
            "on-demand");
  const auto all_templates = recorder_.Calls("CreateLaunchTemplate");
  ASSERT_EQ(all_templates.size(), 2u);
  // ... which stays out of open reservations (upstream's targeted launch mode).
  EXPECT_EQ(
      all_templates[1].at(
          "LaunchTemplateData.CapacityReservationSpecification.CapacityReservationPreference"),
      "none");
  EXPECT_FALSE(
      all_templates[1].contains("LaunchTemplateData.CapacityReservationSpecification."
                                "CapacityReservationTarget.CapacityReservationId"));

  // The next description of the reservation says what EC2 knows.
  AnswerReservation(3);
  Refresh();
  left = Find(M5LargeOfferings(), "reserved", "us-west-2a");
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->reservation_capacity, 3);
}

TEST_F(MotoReservedCapacity, ReservationCapacityExceededEmptiesTheReservationOnly) {
  faults_.AddRule({.operation = "CreateFleet",
                   .kind = FaultKind::kRespond,
                   .times = 1,
                   .response = {.status = 200,
                                .body = RefusedFleetXml({{.instance_type = "m5.large",
                                                          .subnet_id = subnet_a_,
                                                          .zone = "us-west-2a",
                                                          .code = "ReservationCapacityExceeded",
                                                          .message = "full"}})}});
  auto refused = provider_->Create(ClaimOf("default-a", {"reserved"}));
  ASSERT_TRUE(std::holds_alternative<CloudError>(refused));
  EXPECT_EQ(std::get<CloudError>(refused).kind, CloudErrorKind::kInsufficientCapacity);

  const auto offerings = M5LargeOfferings();
  std::optional<cloudprovider::Offering> reserved = Find(offerings, "reserved", "us-west-2a");
  ASSERT_TRUE(reserved.has_value());
  EXPECT_EQ(reserved->reservation_capacity, 0);
  EXPECT_FALSE(reserved->available);
  // The on-demand offering of the same type and zone is not what EC2 refused.
  EXPECT_FALSE(unavailable_.IsUnavailable("m5.large", "us-west-2a", "on-demand"));
  std::optional<cloudprovider::Offering> on_demand = Find(offerings, "on-demand", "us-west-2a");
  ASSERT_TRUE(on_demand.has_value());
  EXPECT_TRUE(on_demand->available);

  // A fresh description brings it back.
  Refresh();
  reserved = Find(M5LargeOfferings(), "reserved", "us-west-2a");
  ASSERT_TRUE(reserved.has_value());
  EXPECT_EQ(reserved->reservation_capacity, 2);
  EXPECT_TRUE(reserved->available);
}

// EC2's description of instance `id` of NodeClaim `claim` in `state`, launched into cr-1 with
// `preference` (moto 5.2.1 reports no reservation on instances).
std::string DescribedInReservation(const std::string& id, const std::string& claim,
                                   const std::string& state, const std::string& preference) {
  std::string tags;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"kubernetes.io/cluster/demo", "owned"},
           {"karpenter.sh/nodepool", "default"},
           {"karpenter.sh/nodeclaim", claim},
           {"karpenter.k8s.aws/ec2nodeclass", "default"}}) {
    absl::StrAppend(&tags, "<item><key>", key, "</key><value>", value, "</value></item>");
  }
  return absl::StrCat(
      "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
      "<reservationSet><item><instancesSet><item><instanceId>",
      id, "</instanceId><instanceType>m5.large</instanceType><instanceState><name>", state,
      "</name></instanceState><placement><availabilityZone>us-west-2a</availabilityZone>"
      "</placement><launchTime>2026-01-01T00:00:00.000Z</launchTime>"
      "<capacityReservationId>cr-1</capacityReservationId><capacityReservationSpecification>"
      "<capacityReservationPreference>",
      preference, "</capacityReservationPreference></capacityReservationSpecification><tagSet>",
      tags, "</tagSet></item></instancesSet></item></reservationSet></DescribeInstancesResponse>");
}

// Get and List say reserved, with the reservation, for an instance launched targeting it; its
// end gives the reservation its slot back before the next description.
TEST_F(MotoReservedCapacity, AReservedInstanceReadsBackAsReservedAndItsEndFreesItsSlot) {
  auto launched = provider_->Create(ClaimOf("default-a", {"reserved"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(launched));
  const api::NodeClaim claim = std::get<api::NodeClaim>(launched);
  EXPECT_EQ(claim.metadata.labels.at("karpenter.k8s.aws/capacity-reservation-interruptible"),
            "false");
  ASSERT_EQ(Find(M5LargeOfferings(), "reserved", "us-west-2a")->reservation_capacity, 1);
  const std::string id = InstanceIdOf(claim.status.provider_id);
  auto answer = [&](const std::string& state, const std::string& preference) {
    AnswerReservation(2);
    faults_.AddRule(
        {.operation = "DescribeInstances",
         .kind = FaultKind::kRespond,
         .response = {.status = 200,
                      .body = DescribedInReservation(id, "default-a", state, preference)}});
  };

  answer("running", "capacity-reservations-only");
  auto got = provider_->Get(claim.status.provider_id);
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(got));
  for (const api::NodeClaim& read : {std::get<api::NodeClaim>(got),
                                     std::get<std::vector<api::NodeClaim>>(provider_->List())[0]}) {
    const auto& labels = read.metadata.labels;
    EXPECT_EQ(labels.at("karpenter.sh/capacity-type"), "reserved");
    EXPECT_EQ(labels.at("karpenter.k8s.aws/capacity-reservation-id"), "cr-1");
    EXPECT_EQ(labels.at("karpenter.k8s.aws/capacity-reservation-type"), "default");
    EXPECT_EQ(labels.at("karpenter.k8s.aws/capacity-reservation-interruptible"), "false");
  }
  // An instance that only fell into an open reservation is an on-demand one.
  answer("running", "open");
  got = provider_->Get(claim.status.provider_id);
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(got));
  EXPECT_EQ(std::get<api::NodeClaim>(got).metadata.labels.at("karpenter.sh/capacity-type"),
            "on-demand");
  EXPECT_FALSE(std::get<api::NodeClaim>(got).metadata.labels.contains(
      "karpenter.k8s.aws/capacity-reservation-id"));

  // Shutting down: not asked to terminate again. Terminated: gone, and its slot is free.
  answer("shutting-down", "capacity-reservations-only");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(provider_->Delete(claim)));
  EXPECT_TRUE(recorder_.Calls("TerminateInstances").empty());
  EXPECT_EQ(Find(M5LargeOfferings(), "reserved", "us-west-2a")->reservation_capacity, 1);
  answer("terminated", "capacity-reservations-only");
  auto gone = provider_->Delete(claim);
  ASSERT_TRUE(std::holds_alternative<CloudError>(gone));
  EXPECT_EQ(std::get<CloudError>(gone).kind, CloudErrorKind::kNotFound);
  EXPECT_EQ(Find(M5LargeOfferings(), "reserved", "us-west-2a")->reservation_capacity, 2);
}

// An interruptible reservation launches through EC2's reserved-capacity fleets, with the
// interruptible market in its template.
TEST_F(MotoReservedCapacity, AnInterruptibleReservationLaunchesAsReservedCapacity) {
  AnswerReservation(2, /*interruptible=*/true);
  Refresh();
  ASSERT_TRUE(node_class_.status.capacity_reservations[0].interruptible);
  // moto 5.2.1 launches nothing for a reserved-capacity fleet: EC2's answer, canned.
  faults_.AddRule(
      {.operation = "CreateFleet",
       .kind = FaultKind::kRespond,
       .response = {.status = 200,
                    .body = absl::StrCat(
                        "<CreateFleetResponse><fleetId>fleet-icr</fleetId><fleetInstanceSet>"
                        "<item><instanceIds><item>i-0000000000000abcd</item></instanceIds>"
                        "<instanceType>m5.large</instanceType><launchTemplateAndOverrides>"
                        "<overrides><instanceType>m5.large</instanceType><subnetId>",
                        subnet_a_,
                        "</subnetId><availabilityZone>us-west-2a</availabilityZone>"
                        "</overrides></launchTemplateAndOverrides></item></fleetInstanceSet>"
                        "</CreateFleetResponse>")}});
  auto launched = provider_->Create(ClaimOf("default-a", {"reserved", "on-demand"}));
  ASSERT_TRUE(std::holds_alternative<api::NodeClaim>(launched))
      << std::get<CloudError>(launched).message;
  const auto& labels = std::get<api::NodeClaim>(launched).metadata.labels;
  EXPECT_EQ(labels.at("karpenter.sh/capacity-type"), "reserved");
  EXPECT_EQ(labels.at("karpenter.k8s.aws/capacity-reservation-interruptible"), "true");
  const auto fleets = recorder_.Calls("CreateFleet");
  ASSERT_EQ(fleets.size(), 1u);
  EXPECT_EQ(fleets[0].at("TargetCapacitySpecification.DefaultTargetCapacityType"),
            "reserved-capacity");
  EXPECT_EQ(fleets[0].at("ReservedCapacityOptions.ReservationType.1"),
            "interruptible-capacity-reservation");
  EXPECT_FALSE(fleets[0].contains("OnDemandOptions.AllocationStrategy"));
  const auto templates = recorder_.Calls("CreateLaunchTemplate");
  ASSERT_EQ(templates.size(), 1u);
  EXPECT_EQ(templates[0].at("LaunchTemplateData.InstanceMarketOptions.MarketType"),
            "interruptible-capacity-reservation");
  EXPECT_EQ(templates[0].at("LaunchTemplateData.CapacityReservationSpecification."
                            "CapacityReservationTarget.CapacityReservationId"),
            "cr-1");
}

}  // namespace
}  // namespace karpenter::aws
