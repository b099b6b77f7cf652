// Upstream: aws/karpenter-provider-aws pkg/controllers/nodeclass/garbagecollection
// ("instanceprofile.garbagecollection"). A changed `role` leaves the EC2NodeClass's previous
// instance profile behind (instances launched with it may still run). Every 30 minutes the
// profiles still in use — every class's status.instanceProfile and every NodeClaim's
// `karpenter.k8s.aws/instance-profile-name` annotation — are handed to the provider, which
// deletes the other profiles it made for this cluster (InstanceProfiles::CollectGarbage).
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kInstanceProfileGarbageCollectionPeriodMillis = 30 * 60 * 1000;

// The instance profiles the cluster's objects name.
std::set<std::string> InstanceProfilesInUse(const ClusterReader& reader);

class InstanceProfileGarbageCollection {
 public:
  // The provider's deletion of its profiles that `in_use` does not name; an error retries with
  // backoff.
  using Collect = std::function<absl::Status(const std::set<std::string>& in_use)>;

  InstanceProfileGarbageCollection(Clock& clock, ClusterReader& reader, Collect collect);

  void Start() { loop_.Start(); }
  absl::StatusOr<ReconcileResult> Reconcile();

 private:
  ClusterReader& reader_;
  Collect collect_;
  SingletonLoop loop_;
};

}  // namespace karpenter::controllers
