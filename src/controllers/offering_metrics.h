// Upstream: aws/karpenter-provider-aws pkg/controllers/metrics (the `cloudprovider.metrics`
// singleton) and pkg/providers/instancetype's per-type gauges. Once a minute, the instance types
// every NodePool may launch are asked of the cloud and published:
//   - karpenter_cloudprovider_instance_type_offering_available{instance_type,capacity_type,zone}:
//     1 when any NodePool sees the offering available;
//   - karpenter_cloudprovider_instance_type_offering_price_estimate{...}: its hourly price;
//   - with the ReservedCapacity gate, a `reserved` offering the type lacks in a zone where it has
//     others is published as unavailable at price 0, as upstream does;
//   - karpenter_cloudprovider_instance_type_cpu_cores / _memory_bytes{instance_type}: the type's
//     vCPUs and memory as EC2 describes them (its karpenter.k8s.aws/instance-cpu and
//     instance-memory labels, MiB), which upstream sets when it builds the type.
// A NodePool whose types cannot be read costs only its own series: the others are still
// published and the pass then reports the error (retried with backoff).
#pragma once

#include <cstdint>

#include "karpenter/cloud_provider.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/metrics.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kOfferingMetricsPeriodMillis = 60 * 1000;

class OfferingMetrics {
 public:
  OfferingMetrics(Clock& clock, ClusterReader& reader, CloudProvider& cloud, Metrics& metrics,
                  bool reserved_capacity);

  void Start() { loop_.Start(); }
  absl::StatusOr<ReconcileResult> Reconcile();

 private:
  ClusterReader& reader_;
  CloudProvider& cloud_;
  Metrics& metrics_;
  const bool reserved_capacity_;
  SingletonLoop loop_;
};

}  // namespace karpenter::controllers
