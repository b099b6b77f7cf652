#include "src/bench/scheduling_report.h"

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace karpenter::bench {
namespace {

SchedulingReport Inputs() {
  SchedulingReport report;
  report.workload = "diverse";
  report.pods = 50;
  report.instance_types = 400;
  report.node_floor = 10;
  report.lower_bound_per_hour = 12.5;
  report.peak_rss_mb = 42;
  return report;
}

TEST(ReportJson, SolveFieldsAreNullWithoutASolve) {
  const nlohmann::json out = nlohmann::json::parse(ReportJson(Inputs()));
  EXPECT_EQ(out["pods"], 50);
  EXPECT_EQ(out["instanceTypes"], 400);
  EXPECT_EQ(out["nodeFloor"], 10);
  EXPECT_EQ(out["lowerBoundPerHour"], 12.5);
  EXPECT_EQ(out["peakRssMB"], 42);
  for (const char* key : {"nodes", "unschedulable", "seconds", "podsPerSecond", "pricePerHour",
                          "costRatio", "decisionDigest"}) {
    ASSERT_TRUE(out.contains(key)) << key;
    EXPECT_TRUE(out[key].is_null()) << key;
  }
}

TEST(ReportJson, DerivesRateAndCostRatioFromTheSolve) {
  SchedulingReport report = Inputs();
  report.solve = SolveOutcome{.nodes = 10,
                              .pods_scheduled = 50,
                              .unschedulable = 0,
                              .price_per_hour = 25,
                              .seconds = 0.5,
                              .decision_digest = "0123456789abcdef"};
  const nlohmann::json out = nlohmann::json::parse(ReportJson(report));
  EXPECT_EQ(out["nodes"], 10);
  EXPECT_EQ(out["decisionDigest"], "0123456789abcdef");
  EXPECT_EQ(out["unschedulable"], 0);
  EXPECT_DOUBLE_EQ(out["seconds"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(out["podsPerSecond"].get<double>(), 100);
  EXPECT_DOUBLE_EQ(out["pricePerHour"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(out["costRatio"].get<double>(), 2);
}

TEST(ReportJson, ZeroSecondsAndZeroBoundLeaveRatiosNull) {
  SchedulingReport report = Inputs();
  report.lower_bound_per_hour = 0;
  report.solve = SolveOutcome{.nodes = 1, .pods_scheduled = 50, .price_per_hour = 3};
  const nlohmann::json out = nlohmann::json::parse(ReportJson(report));
  EXPECT_TRUE(out["podsPerSecond"].is_null());
  EXPECT_TRUE(out["costRatio"].is_null());
}

TEST(ReportJson, PartialPlacementHasNoCostRatio) {
  SchedulingReport report = Inputs();
  report.solve = SolveOutcome{
      .nodes = 1, .pods_scheduled = 40, .unschedulable = 10, .price_per_hour = 5, .seconds = 1};
  const nlohmann::json out = nlohmann::json::parse(ReportJson(report));
  EXPECT_EQ(out["unschedulable"], 10);
  EXPECT_TRUE(out["costRatio"].is_null());
  EXPECT_DOUBLE_EQ(out["podsPerSecond"].get<double>(), 50);
}

TEST(ReportJson, FloorBoundHasItsOwnRatio) {
  SchedulingReport report = Inputs();
  report.lower_bound_with_floor_per_hour = 20;
  report.packing = "cost";
  report.solve = SolveOutcome{
      .nodes = 10, .pods_scheduled = 50, .unschedulable = 0, .price_per_hour = 25, .seconds = 0.5};
  const nlohmann::json out = nlohmann::json::parse(ReportJson(report));
  EXPECT_EQ(out["packing"], "cost");
  EXPECT_DOUBLE_EQ(out["lowerBoundWithFloorPerHour"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(out["costRatioWithFloor"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(out["costRatio"].get<double>(), 2);
  EXPECT_FALSE(out.contains("gap"));
  const std::string text = ReportText(report);
  EXPECT_NE(text.find("packing cost"), std::string::npos) << text;
  EXPECT_NE(text.find("1.250× with the floor"), std::string::npos) << text;
}

TEST(ReportJson, NamesTheClaimTieOrder) {
  SchedulingReport report = Inputs();
  EXPECT_EQ(nlohmann::json::parse(ReportJson(report))["claimTies"], "upstream");
  EXPECT_EQ(ReportText(report).find("claim ties"), std::string::npos);
  report.claim_ties = "creation";
  EXPECT_EQ(nlohmann::json::parse(ReportJson(report))["claimTies"], "creation");
  EXPECT_NE(ReportText(report).find("claim ties creation"), std::string::npos);
}

TEST(ReportText, SaysWhenTheSolveWasNotRun) {
  const std::string text = ReportText(Inputs());
  EXPECT_NE(text.find("50 pods over 400 instance types"), std::string::npos) << text;
  EXPECT_NE(text.find("node floor 10"), std::string::npos) << text;
  EXPECT_NE(text.find("solve not run"), std::string::npos) << text;
}

TEST(ReportText, ShowsSolveFigures) {
  SchedulingReport report = Inputs();
  report.solve = SolveOutcome{
      .nodes = 10, .pods_scheduled = 50, .unschedulable = 0, .price_per_hour = 25, .seconds = 0.5};
  const std::string text = ReportText(report);
  EXPECT_NE(text.find("100 pods/s"), std::string::npos) << text;
  EXPECT_NE(text.find("10 nodes"), std::string::npos) << text;
  EXPECT_NE(text.find("2.000× bound"), std::string::npos) << text;
}

}  // namespace
}  // namespace karpenter::bench
