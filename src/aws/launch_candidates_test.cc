#include "src/aws/launch_candidates.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/quantity.h"

namespace karpenter::aws {
namespace {

using cloudprovider::InstanceType;
using cloudprovider::Offering;

InstanceType Type(std::string name, std::vector<Offering> offerings, bool gpu = false) {
  InstanceType type;
  type.name = std::move(name);
  type.labels["karpenter.k8s.aws/instance-size"] = "large";
  type.capacity["cpu"] = api::Quantity::FromInt(2, api::Quantity::Format::kDecimalSI);
  if (gpu)
    type.capacity["nvidia.com/gpu"] = api::Quantity::FromInt(1, api::Quantity::Format::kDecimalSI);
  type.offerings = std::move(offerings);
  return type;
}

Offering At(std::string capacity_type, double price, std::string zone = "us-west-2a") {
  return {.zone = std::move(zone),
          .capacity_type = std::move(capacity_type),
          .price = price,
          .available = true};
}

Offering Reserved(std::string id, double price, std::string kind = "default", int64_t left = 1) {
  Offering offering = At("reserved", price);
  offering.reservation_id = std::move(id);
  offering.reservation_type = std::move(kind);
  offering.reservation_capacity = left;
  return offering;
}

api::NodeClaim Claim(std::vector<std::string> capacity_types, bool min_values = false) {
  api::NodeClaim claim;
  claim.spec.requirements.push_back(
      {.key = "karpenter.sh/capacity-type", .operator_ = "In", .values = capacity_types});
  if (min_values) {
    claim.spec.requirements.push_back(
        {.key = "node.kubernetes.io/instance-type", .operator_ = "Exists", .min_values = 2});
  }
  return claim;
}

std::vector<Candidate> All(const std::vector<InstanceType>& types) {
  std::vector<Candidate> out;
  for (const InstanceType& type : types) {
    for (const Offering& offering : type.offerings) out.push_back({&type, &offering, "ami-1"});
  }
  return out;
}

// "type/capacity/price" per candidate, in order.
std::vector<std::string> Names(const std::vector<Candidate>& candidates) {
  std::vector<std::string> out;
  for (const Candidate& c : candidates) {
    out.push_back(c.type->name + "/" + c.offering->capacity_type + "/" +
                  std::to_string(c.offering->price).substr(0, 4));
  }
  return out;
}

TEST(LaunchCandidates, AcceleratorTypesAreLaunchedOnlyWhenNothingElseIsLeft) {
  const std::vector<InstanceType> types = {Type("g4dn.xlarge", {At("on-demand", 0.05)}, true),
                                           Type("m5.large", {At("on-demand", 0.09)})};
  std::vector<Candidate> candidates = All(types);
  EXPECT_EQ(ChooseLaunchCandidates(Claim({"on-demand"}), candidates), "on-demand");
  EXPECT_EQ(Names(candidates), std::vector<std::string>{"m5.large/on-demand/0.09"});

  const std::vector<InstanceType> gpu_only = {types[0]};
  candidates = All(gpu_only);
  ChooseLaunchCandidates(Claim({"on-demand"}), candidates);
  EXPECT_EQ(Names(candidates), std::vector<std::string>{"g4dn.xlarge/on-demand/0.05"});

  // minValues turns the filter off: the fleet needs every type the requirement counts.
  candidates = All(types);
  ChooseLaunchCandidates(Claim({"on-demand"}, /*min_values=*/true), candidates);
  EXPECT_EQ(Names(candidates),
            (std::vector<std::string>{"g4dn.xlarge/on-demand/0.05", "m5.large/on-demand/0.09"}));
}

TEST(LaunchCandidates, MetalTypesAreExoticToo) {
  std::vector<InstanceType> types = {Type("m5.metal", {At("on-demand", 0.01)}),
                                     Type("m5.large", {At("on-demand", 0.09)})};
  types[0].labels["karpenter.k8s.aws/instance-size"] = "metal";
  std::vector<Candidate> candidates = All(types);
  ChooseLaunchCandidates(Claim({"on-demand"}), candidates);
  EXPECT_EQ(Names(candidates), std::vector<std::string>{"m5.large/on-demand/0.09"});
}

TEST(LaunchCandidates, SpotDearerThanTheCheapestOnDemandIsDroppedWhenBothAreAllowed) {
  const std::vector<InstanceType> types = {
      Type("c5.large", {At("spot", 0.04), At("on-demand", 0.10)}),
      Type("m5.xlarge", {At("spot", 0.20), At("on-demand", 0.30)}),
      Type("m5.large", {At("spot", 0.09), At("on-demand", 0.12)})};
  std::vector<Candidate> candidates = All(types);
  EXPECT_EQ(ChooseLaunchCandidates(Claim({"spot", "on-demand"}), candidates), "spot");
  EXPECT_EQ(Names(candidates),
            (std::vector<std::string>{"c5.large/spot/0.04", "m5.large/spot/0.09"}));

  // Spot alone: no on-demand price to compare with, so every spot offering stays.
  candidates = All(types);
  ChooseLaunchCandidates(Claim({"spot"}), candidates);
  EXPECT_EQ(Names(candidates), (std::vector<std::string>{"c5.large/spot/0.04", "m5.large/spot/0.09",
                                                         "m5.xlarge/spot/0.20"}));

  candidates = All(types);
  ChooseLaunchCandidates(Claim({"spot", "on-demand"}, /*min_values=*/true), candidates);
  EXPECT_EQ(candidates.size(), 3u);
}

TEST(LaunchCandidates, AReservationIsChosenBeforeTheExoticFilterLooks) {
  // Upstream filters reservations first: a reserved GPU type is all that is left, so it is not
  // dropped for a plain type that only has on-demand offerings.
  const std::vector<InstanceType> types = {
      Type("g5.xlarge", {Reserved("cr-1", 0.0), At("on-demand", 1.0)}, true),
      Type("m5.large", {At("on-demand", 0.09)})};
  std::vector<Candidate> candidates = All(types);
  EXPECT_EQ(ChooseLaunchCandidates(Claim({"reserved", "on-demand"}), candidates), "reserved");
  EXPECT_EQ(Names(candidates), std::vector<std::string>{"g5.xlarge/reserved/0.00"});
}

TEST(LaunchCandidates, OneCapacityBlockAndPerZoneTheLargestReservation) {
  const std::vector<InstanceType> blocks = {
      Type("p5.48xlarge", {Reserved("cb-2", 0.02, "capacity-block")}, true),
      Type("p4d.24xlarge", {Reserved("cb-1", 0.01, "capacity-block")}, true)};
  std::vector<Candidate> candidates = All(blocks);
  ChooseLaunchCandidates(Claim({"reserved"}), candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].offering->reservation_id, "cb-1");

  const std::vector<InstanceType> odcrs = {
      Type("m5.large",
           {Reserved("cr-small", 0.0, "default", 1), Reserved("cr-big", 0.0, "default", 5)})};
  candidates = All(odcrs);
  ChooseLaunchCandidates(Claim({"reserved"}), candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].offering->reservation_id, "cr-big");
}

}  // namespace
}  // namespace karpenter::aws
