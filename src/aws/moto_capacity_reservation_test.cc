// EC2NodeClass capacity reservations (spec.capacityReservationSelectorTerms → status) against
// moto_server. moto 5.2.1 does not implement DescribeCapacityReservations (HTTP 500,
// NotImplementedError), so EC2's answer comes from FaultInjectingTransport's canned response; the
// requests are still checked as sent.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/test_moto_provider.h"

namespace karpenter::aws {
namespace {

using MotoCapacityReservation = MotoProviderTest;

std::string ReservationItem(const std::string& id, const std::string& type,
                            const std::string& criteria, const std::string& reservation_type,
                            const std::string& end_date, int available) {
  return absl::StrCat(
      "<item><capacityReservationId>", id, "</capacityReservationId><ownerId>123456789012",
      "</ownerId><instanceType>", type, "</instanceType><availabilityZone>us-west-2a",
      "</availabilityZone><availableInstanceCount>", available,
      "</availableInstanceCount><totalInstanceCount>4</totalInstanceCount><state>active</state>",
      "<instanceMatchCriteria>", criteria, "</instanceMatchCriteria><reservationType>",
      reservation_type, "</reservationType>",
      end_date.empty() ? "" : absl::StrCat("<endDate>", end_date, "</endDate>"), "</item>");
}

// EC2's answer: a targeted reservation, a capacity block that ends in 30 minutes (the fake
// clock's now is 2027-01-15T08:00:00Z) and one with a match criteria upstream does not know.
void AnswerReservations(FaultInjectingTransport& faults) {
  faults.AddRule(
      {.operation = "DescribeCapacityReservations",
       .kind = FaultKind::kRespond,
       .response = {
           .status = 200,
           .body = absl::StrCat(
               "<DescribeCapacityReservationsResponse "
               "xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>r</requestId>"
               "<capacityReservationSet>",
               ReservationItem("cr-2", "p5.48xlarge", "targeted", "capacity-block",
                               "2027-01-15T08:30:00.000Z", 1),
               ReservationItem("cr-1", "m5.large", "targeted", "default", "", 3),
               ReservationItem("cr-3", "m5.large", "someday", "default", "", 3),
               "</capacityReservationSet></DescribeCapacityReservationsResponse>")}});
}

std::string ConditionStatus(const api::EC2NodeClassStatus& status, std::string_view type) {
  for (const api::Condition& condition : status.conditions) {
    if (condition.type == type) return condition.status;
  }
  return "";
}

TEST_F(MotoCapacityReservation, SelectedReservationsFillTheStatus) {
  AnswerReservations(faults_);
  node_class_.spec.capacity_reservation_selector_terms = {
      {.id = "cr-1"}, {.tags = {{"team", "ml"}}, .owner_id = "123456789012"}};
  auto status = resolver_->Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  ASSERT_EQ(status->capacity_reservations.size(), 2u);  // cr-3's criteria is refused
  const api::CapacityReservation& targeted = status->capacity_reservations[0];
  EXPECT_EQ(targeted.id, "cr-1");
  EXPECT_EQ(targeted.instance_type, "m5.large");
  EXPECT_EQ(targeted.availability_zone, "us-west-2a");
  EXPECT_EQ(targeted.owner_id, "123456789012");
  EXPECT_EQ(targeted.instance_match_criteria, "targeted");
  EXPECT_EQ(targeted.reservation_type, "default");
  EXPECT_EQ(targeted.state, "active");
  EXPECT_EQ(targeted.available_instance_count, 3);
  EXPECT_FALSE(targeted.end_time.has_value());
  const api::CapacityReservation& block = status->capacity_reservations[1];
  EXPECT_EQ(block.id, "cr-2");
  EXPECT_EQ(block.reservation_type, "capacity-block");
  EXPECT_EQ(block.state, "expiring");  // within 40 minutes of its end
  ASSERT_TRUE(block.end_time.has_value());
  EXPECT_EQ(ConditionStatus(*status, "CapacityReservationsReady"), "True");
  EXPECT_EQ(ConditionStatus(*status, "Ready"), "True");

  // One request per id term and per tag term, only active reservations.
  const auto calls = recorder_.Calls("DescribeCapacityReservations");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].at("CapacityReservationId.1"), "cr-1");
  EXPECT_FALSE(calls[0].contains("MaxResults"));  // EC2 refuses it with ids
  EXPECT_EQ(calls[0].at("Filter.1.Name"), "state");
  EXPECT_EQ(calls[0].at("Filter.1.Value.1"), "active");
  std::map<std::string, std::string> filters;
  for (int n = 1; calls[1].contains(absl::StrCat("Filter.", n, ".Name")); ++n) {
    filters[calls[1].at(absl::StrCat("Filter.", n, ".Name"))] =
        calls[1].at(absl::StrCat("Filter.", n, ".Value.1"));
  }
  EXPECT_EQ(filters, (std::map<std::string, std::string>{
                         {"owner-id", "123456789012"}, {"state", "active"}, {"tag:team", "ml"}}));
  EXPECT_EQ(calls[1].at("MaxResults"), "1000");
}

TEST_F(MotoCapacityReservation, ACapacityBlockFarFromItsEndIsActive) {
  AnswerReservations(faults_);
  clock_.Advance(-absl::Minutes(30));  // 60 minutes before cr-2 ends
  node_class_.spec.capacity_reservation_selector_terms = {{.id = "cr-2"}};
  auto status = resolver_->Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  ASSERT_FALSE(status->capacity_reservations.empty());
  EXPECT_EQ(status->capacity_reservations[1].state, "active");
}

TEST_F(MotoCapacityReservation, WithoutTermsNothingIsAskedAndTheConditionIsTrue) {
  auto status = resolver_->Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_TRUE(status->capacity_reservations.empty());
  EXPECT_EQ(ConditionStatus(*status, "CapacityReservationsReady"), "True");
  EXPECT_TRUE(recorder_.Calls("DescribeCapacityReservations").empty());
}

TEST_F(MotoCapacityReservation, WithoutTheFeatureGateNothingIsAskedOrReported) {
  AnswerReservations(faults_);
  node_class_.spec.capacity_reservation_selector_terms = {{.id = "cr-1"}};
  NodeClassResolver gated(*ec2_, *ssm_, clock_,
                          NodeClassResolverOptions{.capacity_reservations = false}, nullptr,
                          nullptr, &reservations_);
  auto status = gated.Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_TRUE(status->capacity_reservations.empty());
  EXPECT_EQ(ConditionStatus(*status, "CapacityReservationsReady"), "");
  EXPECT_EQ(ConditionStatus(*status, "Ready"), "True");
  EXPECT_TRUE(recorder_.Calls("DescribeCapacityReservations").empty());
  EXPECT_EQ(reservations_.Available({.id = "cr-1", .available_instance_count = 0}), 0);
}

TEST_F(MotoCapacityReservation, ARefusedDescribeIsAConditionAndThrottlingAnError) {
  node_class_.spec.capacity_reservation_selector_terms = {{.id = "cr-1"}};
  faults_.AddRule(
      {.operation = "DescribeCapacityReservations",
       .kind = FaultKind::kRespond,
       .response = {.status = 403,
                    .body = "<Response><Errors><Error><Code>UnauthorizedOperation"
                            "</Code><Message>no</Message></Error></Errors></Response>"}});
  auto status = resolver_->Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(ConditionStatus(*status, "CapacityReservationsReady"), "False");
  EXPECT_EQ(ConditionStatus(*status, "Ready"), "False");
  faults_.ClearRules();
  faults_.AddRule({.operation = "DescribeCapacityReservations", .kind = FaultKind::kThrottle});
  EXPECT_EQ(resolver_->Resolve(node_class_).status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace karpenter::aws
