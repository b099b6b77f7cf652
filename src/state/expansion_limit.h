// The limit on how many pods workload expansion may add to a snapshot, checked before
// ExpandWorkloads (workload_expansion.h) allocates anything.
#pragma once

#include <cstdint>

#include "karpenter/common/status.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

// 2^31-1 replicas (or a million) aborted with std::bad_alloc or ran for minutes; 100,000 pods
// plan in seconds and about 600 MB.
inline constexpr int64_t kMaxExpandedPods = 200'000;

// InvalidArgument "Deployment/ns/web: spec.replicas: would add 2147483647 pods, more than the
// 200000 a snapshot expands to" when one workload, or all of them together ("..., 300000 in
// all, ..."), would add more than kMaxExpandedPods pods.
absl::Status CheckExpansionSize(const ClusterSnapshot& snapshot);

}  // namespace karpenter::state
