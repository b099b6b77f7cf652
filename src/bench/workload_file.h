// A differential workload: the objects of one manifest file (docs/differential.md) turned into a
// scheduler input over a catalog file's instance types. Pending Pods are the work; NodePools
// replace the benchmark's single pool; each DaemonSet adds its template pod's overhead; Nodes
// are existing capacity, charged with the Pods bound to them (spec.nodeName).
#pragma once

#include <memory>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/manifest.h"
#include "src/bench/decisions.h"
#include "src/provisioning/instance_type_file.h"
#include "src/provisioning/types.h"

namespace karpenter::bench {

// The input and the bound pods it points at (SchedulerInput::bound_pods does not own them).
struct WorkloadInput {
  std::unique_ptr<std::vector<api::Pod>> bound_pods;
  provisioning::SchedulerInput input;
};

// Every NodePool gets the whole catalog, and the input's options are `options` with the catalog's
// well-known labels added. InvalidArgument, naming the object, for a kind the workload cannot
// hold, a bound pod whose node is missing, or a file without pending pods.
absl::StatusOr<WorkloadInput> BuildWorkloadInput(const std::vector<api::Manifest>& manifests,
                                                 const provisioning::InstanceTypeFile& catalog,
                                                 const provisioning::SchedulerOptions& options);

// BuildWorkloadInput, then one solve: its decisions.
absl::StatusOr<Decisions> SolveWorkload(const std::vector<api::Manifest>& manifests,
                                        const provisioning::InstanceTypeFile& catalog,
                                        const provisioning::SchedulerOptions& options);

}  // namespace karpenter::bench
