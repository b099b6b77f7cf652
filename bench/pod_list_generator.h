// Writes a deterministic `kubectl get pods -o json` style PodList: the shape and field mix of
// real API-server output (managedFields, projected token volume, container statuses...), so
// decode benchmarks measure what users actually feed `karpenter plan`.
#pragma once

#include <cstddef>
#include <string>

namespace karpenter::bench {

std::string GeneratePodListJson(size_t pods);

}  // namespace karpenter::bench
