// Seeded random arrival processes of the workload trace (the scenario's `arrivals`): Jobs that
// come as a Poisson process — exponential gaps of mean 1/rate — inside a window. Each process
// draws from a stream of its own, mixed from the run's seed and its position in the file, so
// adding one leaves the others' times (and every other random draw of the run) unchanged, and
// both autoscalers' runs see the same arrivals.
#pragma once

#include <cstdint>
#include <vector>

#include "src/sim/cluster.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

// The arrival instants of process `index` of the scenario for `seed`, ascending, inside
// [from, to).
std::vector<SimMillis> ArrivalTimes(const JobArrivals& arrivals, uint64_t seed, size_t index);

// Schedules every process that applies to `autoscaler`'s run: at each arrival the Job copy is
// applied (`JobApplied` in the log, then the Job controller runs its pods).
void ScheduleJobArrivals(const std::vector<JobArrivals>& processes, uint64_t seed,
                         Autoscaler autoscaler, Cluster& cluster);

}  // namespace karpenter::sim
