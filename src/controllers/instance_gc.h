// Upstream: aws/karpenter-provider-aws pkg/controllers/nodeclaim/garbagecollection. The other
// half of garbage collection: an instance the cloud lists as this cluster's, older than 30 s,
// that no NodeClaim names (its NodeClaim was deleted while the launch was in flight, a status
// write was lost, or a crash came between launch and write) is terminated, and its Node, if one
// registered, is deleted so pods stop being scheduled there. It runs every 10 s for its first 20
// passes (leaks from a crash are found soon after a restart), then every 2 minutes.
#pragma once

#include <cstdint>

#include "src/controllers/nodeclaim_expiration.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

// An instance younger than this may belong to a NodeClaim whose status write is still on its
// way: it is never collected.
inline constexpr int64_t kInstanceGarbageCollectionMinAgeMillis = 30 * 1000;
inline constexpr int64_t kInstanceGarbageCollectionEarlyPeriodMillis = 10 * 1000;
inline constexpr uint64_t kInstanceGarbageCollectionEarlyPasses = 20;

class InstanceGarbageCollection {
 public:
  explicit InstanceGarbageCollection(CleanupSeams seams);

  void Start() { loop_.Start(); }
  absl::StatusOr<ReconcileResult> Reconcile();

 private:
  CleanupSeams seams_;
  SingletonLoop loop_;
  uint64_t successful_passes_ = 0;
};

}  // namespace karpenter::controllers
