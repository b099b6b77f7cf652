// Upstream: aws/karpenter-provider-aws pkg/controllers/nodeclass (its status reconcilers). Keeps
// each EC2NodeClass's status — subnets, security groups, AMIs, instance profile and the
// conditions with Ready over them — as the provider resolves it, re-resolved every refresh
// interval (AMI_REFRESH_INTERVAL / SUBNET_REFRESH_INTERVAL) and whenever the class changes. A
// condition that did not change keeps its lastTransitionTime. The provider's resolution is the
// one seam: the controller knows nothing of EC2.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/api/ec2nodeclass.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

class NodeClassStatusController {
 public:
  // The status the class should have now; an error (EC2 unreachable, throttled) retries with
  // backoff and leaves the stored status alone.
  using Resolve = std::function<absl::StatusOr<api::EC2NodeClassStatus>(const api::EC2NodeClass&)>;

  NodeClassStatusController(Clock& clock, ClusterReader& reader, ClusterWriter& writer,
                            Resolve resolve, int64_t refresh_millis);

  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  Clock& clock_;
  ClusterReader& reader_;
  ClusterWriter& writer_;
  Resolve resolve_;
  int64_t refresh_millis_;
  KeyedController controller_;
};

}  // namespace karpenter::controllers
