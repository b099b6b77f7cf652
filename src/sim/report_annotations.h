// What the report's time charts draw over the data: the scenario's steps as labelled markers
// (the steps of one instant under one label) and its fault windows as shaded bands, both within
// the run.
#pragma once

#include <vector>

#include "src/sim/runner.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

// One marker per instant with steps, in time order, up to `end_seconds`. A step's label is its
// note, or what it does when it has none ("scale default/web to 30"); the labels of an instant
// are joined with "; ", one that starts another left out ("Phase 4" beside "Phase 4: cordon and
// drain ..."), and " [karpenter only]" ends it when every step of the instant is one run's.
std::vector<StepMarker> StepMarkers(const Scenario& scenario, double end_seconds);

// One window per fault time range, clipped to [0, end_seconds], faults of the same range under
// one label ("ICE: c6i.2xlarge spot; ICE: c6i.4xlarge spot"), in order of start.
std::vector<FaultWindow> FaultWindows(const Scenario& scenario, double end_seconds);

}  // namespace karpenter::sim
