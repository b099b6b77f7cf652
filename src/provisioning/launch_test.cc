// FinalizeNodeClaim (cheapest-first truncation, minValues after truncation, narrowed capacity
// types, daemon overhead) and PredictLaunch (exotic filter, spot-vs-on-demand filter,
// truncation to 60, reserved > spot > on-demand).
#include "src/provisioning/launch.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/resources.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

struct ClaimFixture {
  std::vector<InstanceTypeView> catalog = Catalog();
  NodeClaimTemplate tmpl;

  InFlightNodeClaim MakeClaim() {
    tmpl.node_pool = "default";
    tmpl.requirements.Add(scheduling::Requirement::In("karpenter.sh/nodepool", {"default"}));
    for (const InstanceTypeView& type : catalog) {
      tmpl.candidates.push_back(
          {&type, Resources({{"cpu", type.name == "t.small" ? "1" : "100m"}})});
    }
    return InFlightNodeClaim(tmpl, AllCandidates(tmpl.candidates));
  }
};

TEST(FinalizeNodeClaim, KeepsCheapestTypesAndNarrowsCapacityTypes) {
  ClaimFixture fixture;
  fixture.tmpl.requirements.Add(
      scheduling::Requirement::In("karpenter.sh/capacity-type", {"on-demand", "reserved"}));
  InFlightNodeClaim claim = fixture.MakeClaim();
  const api::Pod pod = MakePod("a", "500m", "1Gi");
  PodAttempt attempt(pod);
  ASSERT_TRUE(claim.Add(attempt, {}, RequestsForPod(pod), SchedulerOptions{}).ok());
  absl::StatusOr<NewNodeClaim> out = FinalizeNodeClaim(claim, SchedulerOptions{}, 3);
  ASSERT_TRUE(out.ok()) << out.status();
  // t.small cannot hold its 1-cpu daemon plus the pod; on-demand prices order the rest.
  EXPECT_THAT(out->instance_types, ElementsAre("g.large", "c.large", "m.large"));
  EXPECT_THAT(out->capacity_types, ElementsAre("on-demand"));
  EXPECT_THAT(out->pods, ElementsAre("default/a"));
  EXPECT_EQ(out->requests.at("cpu"), Q("600m"));
  EXPECT_TRUE(out->requirements.Get("node.kubernetes.io/instance-type").Has("m.large"));
  EXPECT_FALSE(out->requirements.Get("node.kubernetes.io/instance-type").Has("c.xlarge"));
}

TEST(FinalizeNodeClaim, StrictMinValuesBrokenByTruncationIsAnError) {
  ClaimFixture fixture;
  fixture.tmpl.requirements.Add(scheduling::Requirement::Exists(kInstanceFamily, 3));
  InFlightNodeClaim claim = fixture.MakeClaim();
  const api::Pod pod = MakePod("a", "500m", "1Gi");
  ASSERT_TRUE(claim.Add(PodAttempt(pod), {}, RequestsForPod(pod), SchedulerOptions{}).ok());
  EXPECT_TRUE(FinalizeNodeClaim(claim, SchedulerOptions{}, 3).ok());
  absl::StatusOr<NewNodeClaim> truncated = FinalizeNodeClaim(claim, SchedulerOptions{}, 2);
  EXPECT_THAT(truncated.status().message(), HasSubstr("minValues requirement is not met"));
  SchedulerOptions best_effort;
  best_effort.min_values_policy = MinValuesPolicy::kBestEffort;
  EXPECT_TRUE(FinalizeNodeClaim(claim, best_effort, 2).ok());
}

// The claim points at `types`, which must outlive it (a temporary list lives until the end of
// the full expression, e.g. `PredictLaunch(ClaimOf({...}))`).
NewNodeClaim ClaimOf(const std::vector<InstanceTypeView>& types) {
  NewNodeClaim claim;
  claim.node_pool = "default";
  for (const InstanceTypeView& type : types) {
    claim.instance_types.push_back(type.name);
    claim.instance_type_options.push_back(&type);
  }
  return claim;
}

InstanceTypeView PricedType(const std::string& name, double on_demand, double spot) {
  InstanceTypeView type = MakeInstanceType({name, "x", "large", 2, 4, 10, "amd64", on_demand});
  for (OfferingView& offering : type.offerings) {
    if (offering.capacity_type == "spot") offering.price = spot;
  }
  return type;
}

TEST(PredictLaunch, ExoticTypesOnlyWhenNothingElse) {
  const std::vector<InstanceTypeView> catalog = Catalog();
  const InstanceTypeView& metal = catalog.back();
  InstanceTypeView expensive = PricedType("x.large", 100, 90);
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(ClaimOf({metal, expensive}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->instance_type, "x.large");
  launch = PredictLaunch(ClaimOf({metal}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->instance_type, "p.metal");
}

TEST(PredictLaunch, SpotPricierThanCheapestOnDemandIsDropped) {
  absl::StatusOr<LaunchPrediction> launch =
      PredictLaunch(ClaimOf({PricedType("a", 1.0, 2.0), PricedType("b", 1.5, 1.2)}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->instance_type, "a");
  EXPECT_EQ(launch->capacity_type, "on-demand");
  EXPECT_EQ(launch->price, 1.0);

  launch = PredictLaunch(ClaimOf({PricedType("a", 1.0, 2.0), PricedType("b", 1.5, 0.9)}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->instance_type, "b");
  EXPECT_EQ(launch->capacity_type, "spot");
}

TEST(PredictLaunch, ReservedBeatsSpotBeatsOnDemand) {
  InstanceTypeView reserved = PricedType("r", 1.0, 0.3);
  reserved.offerings.push_back({kZoneB, "reserved", 0.5, true});
  absl::StatusOr<LaunchPrediction> launch =
      PredictLaunch(ClaimOf({PricedType("cheap", 0.1, 0.01), reserved}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->instance_type, "r");
  EXPECT_EQ(launch->capacity_type, "reserved");
  EXPECT_EQ(launch->zone, kZoneB);
}

TEST(PredictLaunch, HonoursCapacityTypeAndZoneRequirements) {
  const std::vector<InstanceTypeView> types = {PricedType("a", 1.0, 0.3)};
  NewNodeClaim claim = ClaimOf(types);
  claim.requirements.Add(scheduling::Requirement::In("karpenter.sh/capacity-type", {"on-demand"}));
  claim.requirements.Add(scheduling::Requirement::In("topology.kubernetes.io/zone", {kZoneC}));
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(claim);
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->capacity_type, "on-demand");
  EXPECT_EQ(launch->zone, kZoneC);
}

TEST(PredictLaunch, UnavailableOfferingsAreSkipped) {
  InstanceTypeView type = PricedType("a", 1.0, 0.3);
  for (OfferingView& offering : type.offerings) {
    offering.available = offering.capacity_type == "on-demand" && offering.zone == kZoneB;
  }
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(ClaimOf({type}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->zone, kZoneB);
  for (OfferingView& offering : type.offerings) offering.available = false;
  EXPECT_EQ(PredictLaunch(ClaimOf({type})).status().code(), absl::StatusCode::kNotFound);
}

// Claims that share their options and the requirements a launch reads are predicted once; any
// of those requirements, the minValues flag or other options make a claim of its own.
TEST(LaunchPredictor, PredictsOncePerOptionsAndLaunchRequirements) {
  const std::vector<InstanceTypeView> types = {PricedType("a", 1.0, 0.3),
                                               PricedType("b", 0.5, 0.4)};
  NewNodeClaim first = ClaimOf(types);
  first.requirements.Add(scheduling::Requirement::In("kubernetes.io/hostname", {"one"}));
  NewNodeClaim second = first;  // shares the options' buffer, as a solve's claims do
  second.requirements.Add(scheduling::Requirement::In("kubernetes.io/hostname", {"two"}));
  ASSERT_TRUE(first.instance_type_options.SharesWith(second.instance_type_options));
  LaunchPredictor predictor;
  ASSERT_TRUE(predictor.Predict(first).ok());
  EXPECT_EQ(predictor.Predict(second)->instance_type, "a");
  EXPECT_EQ(predictor.distinct_predictions(), 1u);

  std::vector<NewNodeClaim> apart(6, first);
  apart[0].requirements.Add(scheduling::Requirement::In("topology.kubernetes.io/zone", {kZoneC}));
  apart[1].requirements.Add(
      scheduling::Requirement::In("karpenter.sh/capacity-type", {"on-demand"}));
  apart[2].requirements.Add(
      scheduling::Requirement::In("karpenter.k8s.aws/capacity-reservation-id", {"cr-1"}));
  apart[3].requirements.Add(
      scheduling::Requirement::In("karpenter.k8s.aws/capacity-reservation-type", {"default"}));
  apart[4].requirements.Add(scheduling::Requirement::In(
      "karpenter.k8s.aws/capacity-reservation-interruptible", {"false"}));
  apart[5] = ClaimOf(types);  // the same types in a buffer of its own
  for (size_t i = 0; i < apart.size(); ++i) {
    const absl::StatusOr<LaunchPrediction>& remembered = predictor.Predict(apart[i]);
    EXPECT_EQ(predictor.distinct_predictions(), i + 2) << i;
    const absl::StatusOr<LaunchPrediction> fresh = PredictLaunch(apart[i]);
    ASSERT_EQ(remembered.status(), fresh.status()) << i;
    if (fresh.ok()) {
      EXPECT_EQ(remembered->instance_type, fresh->instance_type) << i;
      EXPECT_EQ(remembered->capacity_type, fresh->capacity_type) << i;
      EXPECT_EQ(remembered->zone, fresh->zone) << i;
    }
  }
  // Sets that differ past the fifth value (where Requirement::ToString stops printing) differ.
  NewNodeClaim six_zones = first;
  NewNodeClaim other_six = first;
  six_zones.requirements.Add(scheduling::Requirement::In("topology.kubernetes.io/zone",
                                                         {"z1", "z2", "z3", "z4", "z5", "z6"}));
  other_six.requirements.Add(scheduling::Requirement::In("topology.kubernetes.io/zone",
                                                         {"z1", "z2", "z3", "z4", "z5", "z7"}));
  EXPECT_NE(LaunchPredictionKey(six_zones), LaunchPredictionKey(other_six));
  // The on-demand claim launches `b` on demand, not the spot `a` the first claim got.
  EXPECT_EQ(predictor.Predict(apart[1])->instance_type, "b");
  EXPECT_EQ(predictor.Predict(apart[1])->capacity_type, "on-demand");
}

// CheckLaunchable answers as PredictLaunch's status does: OK while one available offering is
// allowed, PredictLaunch's NotFound when the requirements or availability rule them all out.
TEST(CheckLaunchable, AgreesWithPredictLaunchOnWhetherAnythingLaunches) {
  std::vector<InstanceTypeView> types = {PricedType("a", 1.0, 0.3)};
  for (OfferingView& offering : types[0].offerings) {
    offering.available = offering.capacity_type == "spot" && offering.zone == kZoneB;
  }
  NewNodeClaim claim = ClaimOf(types);  // points into `types`
  EXPECT_TRUE(CheckLaunchable(claim).ok());
  claim.requirements.Add(scheduling::Requirement::In("topology.kubernetes.io/zone", {kZoneC}));
  const absl::Status status = CheckLaunchable(claim);
  EXPECT_EQ(status, PredictLaunch(claim).status());
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
}

TEST(PredictLaunch, OnlyTheCheapestSixtyTypesAreConsidered) {
  std::vector<InstanceTypeView> types;
  for (int i = 0; i < 61; ++i) {
    types.push_back(PricedType("t" + std::to_string(100 + i), 1.0 + i, 0.5 + i));
  }
  // A reservation on the 61st-cheapest type is out of reach.
  types.back().offerings.push_back({kZoneA, "reserved", 100, true});
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(ClaimOf(types));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->capacity_type, "spot");
  EXPECT_EQ(launch->instance_type, "t100");
  types.resize(59);
  types.back().offerings.push_back({kZoneA, "reserved", 100, true});
  launch = PredictLaunch(ClaimOf(types));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->capacity_type, "reserved");
}

// One fleet, one capacity type: every spot offering of the kept types, cheapest first, equal
// prices in type order (cheapest type, then name) then by zone; its front is PredictLaunch's.
TEST(PlanFleet, AsksForTheChosenCapacityTypeCheapestFirstAndStartsWithThePrediction) {
  std::vector<InstanceTypeView> types = {PricedType("b", 1.0, 0.4), PricedType("a", 1.0, 0.4),
                                         PricedType("c", 0.9, 0.3)};
  for (OfferingView& offering : types[2].offerings) {
    if (offering.capacity_type == "spot" && offering.zone == kZoneB) offering.price = 0.5;
  }
  const NewNodeClaim claim = ClaimOf(types);
  absl::StatusOr<std::vector<LaunchPrediction>> fleet = PlanFleet(claim);
  ASSERT_TRUE(fleet.ok());
  std::vector<std::string> tried;
  for (const LaunchPrediction& offering : *fleet) {
    EXPECT_EQ(offering.capacity_type, "spot");
    tried.push_back(offering.instance_type + "/" + offering.zone);
  }
  const std::string a = kZoneA, b = kZoneB, c = kZoneC;
  EXPECT_EQ(tried, (std::vector<std::string>{"c/" + a, "c/" + c, "a/" + a, "a/" + b, "a/" + c,
                                             "b/" + a, "b/" + b, "b/" + c, "c/" + b}));
  absl::StatusOr<LaunchPrediction> predicted = PredictLaunch(claim);
  ASSERT_TRUE(predicted.ok());
  EXPECT_EQ(predicted->instance_type + "/" + predicted->zone, tried.front());
}

TEST(PlanFleet, LeavesOutWhatTheHostRefusesBeforeChoosingTheCapacityType) {
  const std::vector<InstanceTypeView> types = {PricedType("a", 1.0, 0.3)};
  const NewNodeClaim claim = ClaimOf(types);
  absl::StatusOr<std::vector<LaunchPrediction>> fleet =
      PlanFleet(claim, [](const InstanceTypeView&, const OfferingView& offering) {
        return offering.capacity_type != "spot";
      });
  ASSERT_TRUE(fleet.ok());
  for (const LaunchPrediction& offering : *fleet) EXPECT_EQ(offering.capacity_type, "on-demand");
  fleet = PlanFleet(claim, [](const InstanceTypeView&, const OfferingView&) { return false; });
  EXPECT_EQ(fleet.status().code(), absl::StatusCode::kNotFound);
}

OfferingView ReservedOffering(const std::string& id, const char* zone, int64_t capacity,
                              double price, const char* type = "default") {
  return OfferingView{.zone = zone,
                      .capacity_type = "reserved",
                      .price = price,
                      .available = true,
                      .reservation_id = id,
                      .reservation_type = type,
                      .reservation_capacity = capacity};
}

TEST(PredictLaunch, ReservedLaunchTakesTheLargestReservationOfItsZoneAndItsLabels) {
  InstanceTypeView type = PricedType("r", 1.0, 0.3);
  type.offerings.push_back(ReservedOffering("cr-small", kZoneA, 1, 1e-7));
  type.offerings.push_back(ReservedOffering("cr-big", kZoneA, 3, 1e-7));
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(ClaimOf({type}));
  ASSERT_TRUE(launch.ok()) << launch.status();
  EXPECT_EQ(launch->capacity_type, "reserved");
  EXPECT_EQ(launch->reservation_id, "cr-big");
  EXPECT_THAT(
      LaunchLabels(*launch),
      ElementsAre(::testing::Pair("karpenter.k8s.aws/capacity-reservation-id", "cr-big"),
                  ::testing::Pair("karpenter.k8s.aws/capacity-reservation-interruptible", "false"),
                  ::testing::Pair("karpenter.k8s.aws/capacity-reservation-type", "default")));
  launch = PredictLaunch(ClaimOf({PricedType("plain", 1.0, 0.3)}));
  ASSERT_TRUE(launch.ok());
  EXPECT_TRUE(LaunchLabels(*launch).empty());
}

TEST(PredictLaunch, ReservedLaunchKeepsTheKindOfReservationWithTheCheapestOffering) {
  InstanceTypeView on_demand_reservation = PricedType("a", 1.0, 0.3);
  on_demand_reservation.offerings.push_back(ReservedOffering("cr-a", kZoneA, 1, 2e-7));
  InstanceTypeView block = PricedType("b", 2.0, 0.6);
  block.offerings.push_back(ReservedOffering("cr-b", kZoneA, 1, 1e-7, "capacity-block"));
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(ClaimOf({on_demand_reservation, block}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->reservation_id, "cr-b");
  EXPECT_EQ(launch->reservation_type, "capacity-block");
  // On a price tie, default reservations come before capacity blocks.
  block.offerings.back().price = 2e-7;
  launch = PredictLaunch(ClaimOf({block, on_demand_reservation}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->reservation_id, "cr-a");
}

TEST(PredictLaunch, CapacityBlockLaunchTakesTheCheapestBlock) {
  InstanceTypeView first = PricedType("a", 1.0, 0.3);
  first.offerings.push_back(ReservedOffering("cr-a", kZoneA, 5, 3e-7, "capacity-block"));
  InstanceTypeView second = PricedType("b", 1.0, 0.3);
  second.offerings.push_back(ReservedOffering("cr-b", kZoneB, 1, 1e-7, "capacity-block"));
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(ClaimOf({first, second}));
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->instance_type, "b");
  EXPECT_EQ(launch->reservation_id, "cr-b");
  EXPECT_EQ(launch->zone, kZoneB);
}

TEST(PredictLaunch, ClaimExcludingReservedIgnoresReservations) {
  InstanceTypeView type = PricedType("r", 1.0, 0.3);
  type.offerings.push_back(ReservedOffering("cr-1", kZoneA, 1, 1e-7));
  const std::vector<InstanceTypeView> types = {type};
  NewNodeClaim claim = ClaimOf(types);
  claim.requirements.Add(scheduling::Requirement::In("karpenter.sh/capacity-type", {"spot"}));
  absl::StatusOr<LaunchPrediction> launch = PredictLaunch(claim);
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->capacity_type, "spot");
  EXPECT_TRUE(launch->reservation_id.empty());
}

}  // namespace
}  // namespace karpenter::provisioning
