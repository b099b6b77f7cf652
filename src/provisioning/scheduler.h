// The provisioning scheduler (upstream provisioning/scheduling/scheduler.go Solve): places
// pending pods on existing nodes, on NodeClaims opened earlier in the same solve, or on a new
// NodeClaim from the highest-priority NodePool that fits, and reports why the rest cannot be
// placed. Pure and deterministic: the same input always gives the same result.
#pragma once

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "src/api/pod.h"
#include "src/provisioning/types.h"

namespace karpenter::provisioning {

// At most this many instance types are kept on a NodeClaim (cheapest first).
inline constexpr size_t kMaxInstanceTypes = 600;

// "namespace/name".
std::string PodKey(const api::Pod& pod);
// PodKey of `a` < PodKey of `b`, without building either.
bool PodKeyLess(const api::ObjectMeta& a, const api::ObjectMeta& b);

// Queue order: cpu request desc, memory request desc, creationTimestamp asc, uid asc (then key).
void SortPodsForScheduling(std::vector<const api::Pod*>& pods);
// The same with each pod's RequestsForPod supplied by the caller (who already has them).
void SortPodsForScheduling(
    std::vector<const api::Pod*>& pods,
    absl::FunctionRef<const api::ResourceList&(const api::Pod&)> requests_for_pod);

// The result's NewNodeClaim::instance_type_options point into `input`, so it must outlive them;
// a temporary input is refused at compile time.
SchedulerResult Solve(const SchedulerInput& input);
SchedulerResult Solve(SchedulerInput&& input) = delete;

// The same with the work shared across solves of one input taken from `cache` (see
// solve_cache.h), which must have been built from `input` itself (otherwise it is not used).
class SolveCache;
SchedulerResult Solve(const SchedulerInput& input, const SolveCache& cache);

}  // namespace karpenter::provisioning
