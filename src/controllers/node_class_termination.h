// Upstream: aws/karpenter-provider-aws pkg/controllers/nodeclass (its finalize path). Every
// EC2NodeClass carries the finalizer karpenter.k8s.aws/termination. When one is deleted it stays
// until no NodeClaim refers to it (a WaitingOnNodeClaimTermination warning names them, every 10
// minutes and whenever one goes); then the provider removes what it made for the class (instance
// profiles made from its role, launch templates) and the finalizer goes.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/event_recorder.h"
#include "karpenter/kube_cluster.h"
#include "src/api/ec2nodeclass.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kNodeClassTerminationRecheckMillis = 10 * 60 * 1000;

class NodeClassTermination {
 public:
  // The provider's clean-up for a class about to go; an error retries with backoff and keeps
  // the finalizer. Empty: nothing to clean up.
  using CleanUp = std::function<absl::Status(const api::EC2NodeClass&)>;

  NodeClassTermination(Clock& clock, ClusterReader& reader, ClusterWriter& writer,
                       EventRecorder& recorder, CleanUp clean_up);

  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  // Writes the class with `finalizers`; a Conflict is a requeue.
  absl::StatusOr<ReconcileResult> WriteFinalizers(api::EC2NodeClass node_class,
                                                  std::vector<std::string> finalizers);

  Clock& clock_;
  ClusterReader& reader_;
  ClusterWriter& writer_;
  EventRecorder& recorder_;
  CleanUp clean_up_;
  KeyedController controller_;
};

}  // namespace karpenter::controllers
