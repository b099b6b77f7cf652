#include "src/sim/report_annotations.h"

#include <gtest/gtest.h>

namespace karpenter::sim {
namespace {

Step MakeStep(double at, StepKind kind, std::string target, std::string note = "",
              std::optional<Autoscaler> only = std::nullopt) {
  Step step;
  step.at_seconds = at;
  step.kind = kind;
  step.target = std::move(target);
  step.note = std::move(note);
  step.only = only;
  return step;
}

TEST(StepMarkers, OneLabelledMarkerPerInstantWithinTheRun) {
  Scenario scenario;
  scenario.steps = {
      MakeStep(300, StepKind::kDrainNodeGroup, "legacy-compute",
               "Phase 4: cordon and drain the legacy groups", Autoscaler::kKarpenter),
      MakeStep(300, StepKind::kDrainNodeGroup, "legacy-memory", "Phase 4", Autoscaler::kKarpenter),
      MakeStep(600, StepKind::kDrainNodeGroup, "legacy-general"),
      MakeStep(600, StepKind::kDelete, "ci/ci-runner", "", Autoscaler::kKarpenter),
      MakeStep(900, StepKind::kScale, "default/web"),
      MakeStep(5000, StepKind::kDelete, "default/web", "after the end"),
  };
  scenario.steps[4].replicas = 30;
  const std::vector<StepMarker> markers = StepMarkers(scenario, 2700);
  ASSERT_EQ(markers.size(), 3u);
  EXPECT_EQ(markers[0].seconds, 300);
  EXPECT_EQ(markers[0].label, "Phase 4: cordon and drain the legacy groups [karpenter only]");
  // Labels made from what the steps do; one of them is for both runs.
  EXPECT_EQ(markers[1].label, "cordon and drain legacy-general; delete ci/ci-runner");
  EXPECT_EQ(markers[2].label, "scale default/web to 30");
}

TEST(StepMarkers, AShortNoteGivesWayToTheLongerOneItStarts) {
  Scenario scenario;
  scenario.steps = {MakeStep(10, StepKind::kDelete, "a", "Phase 4"),
                    MakeStep(10, StepKind::kDelete, "b", "Phase 4: drain")};
  const std::vector<StepMarker> markers = StepMarkers(scenario, 100);
  ASSERT_EQ(markers.size(), 1u);
  EXPECT_EQ(markers[0].label, "Phase 4: drain");
}

TEST(FaultWindows, MergesFaultsOfOneRangeAndClipsToTheRun) {
  Scenario scenario;
  scenario.faults = {
      {.instance_type = "c6i.2xlarge",
       .capacity_type = "spot",
       .from_seconds = 500,
       .to_seconds = 2400},
      {.instance_type = "c6i.4xlarge",
       .capacity_type = "spot",
       .from_seconds = 500,
       .to_seconds = 2400},
      {.capacity_type = "spot",
       .from_seconds = 100,
       .to_seconds = 200,
       .kind = FaultKind::kSpotInterruptions,
       .rate_per_hour = 2},
      {.instance_type = "m6i.xlarge",
       .zones = {"us-east-1a"},
       .from_seconds = 3000,
       .to_seconds = 4000,
       .kind = FaultKind::kNeverRegisters},
  };
  const std::vector<FaultWindow> windows = FaultWindows(scenario, 2700);
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0].label, "spot interruptions 2/h: spot");
  EXPECT_EQ(windows[1].from_seconds, 500);
  EXPECT_EQ(windows[1].to_seconds, 2400);
  EXPECT_EQ(windows[1].label, "ICE: c6i.2xlarge spot; ICE: c6i.4xlarge spot");
  const std::vector<FaultWindow> longer = FaultWindows(scenario, 3600);
  ASSERT_EQ(longer.size(), 3u);
  EXPECT_EQ(longer[2].to_seconds, 3600);
  EXPECT_EQ(longer[2].label, "never registers: m6i.xlarge us-east-1a");
}

}  // namespace
}  // namespace karpenter::sim
