// Upstream: kubernetes-sigs/karpenter pkg/controllers/nodeclaim/lifecycle. Takes a NodeClaim
// from creation to a Ready node and, once it is deleted, back to nothing:
//   - the karpenter.sh/termination finalizer first, so no instance can outlive its NodeClaim;
//   - launch: CloudProvider::Create. Insufficient capacity and a node class that is not ready
//     delete the NodeClaim (its pods are planned again); any other error leaves Launched
//     Unknown with the reason and is retried with backoff;
//   - registration: the Node with the NodeClaim's providerID gets the finalizer, an owner
//     reference, the NodeClaim's labels, annotations, taints and startup taints, loses the
//     karpenter.sh/unregistered taint and gains karpenter.sh/registered;
//   - initialization: the Node is Ready, its startup and known ephemeral taints are gone and
//     every requested resource is allocatable; it gains karpenter.sh/initialized;
//   - liveness: a NodeClaim not launched 5 minutes, or not registered 15 minutes, after its
//     condition was first set is deleted, and its NodePool's NodeRegistrationHealthy follows
//     the recent outcomes (NodePoolHealth);
//   - finalization: the Node is deleted first (its own termination drains it), then the
//     instance (CloudProvider::Delete, every 5 s until NotFound), then the finalizer goes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/event_recorder.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/logger.h"
#include "karpenter/metrics.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/conditions.h"
#include "src/controllers/nodepool_health.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

// Upstream's timeouts (liveness.go) and the poll while an instance terminates.
inline constexpr int64_t kLaunchTimeoutMillis = 5 * 60 * 1000;
inline constexpr int64_t kRegistrationTimeoutMillis = 15 * 60 * 1000;
inline constexpr int64_t kInstanceTerminationPollMillis = 5 * 1000;
// How long a launch result is remembered while the status write that records it may still be
// lost (upstream keeps it an hour).
inline constexpr int64_t kLaunchCacheMillis = 60 * 60 * 1000;

struct LifecycleSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
  CloudProvider& cloud;
  EventRecorder& recorder;
  Metrics& metrics;
  NodePoolHealth& health;
  // Upstream's "launched", "registered", "initialized" and "deleted nodeclaim" lines; optional.
  Logger* logger = nullptr;
};

class NodeClaimLifecycle {
 public:
  explicit NodeClaimLifecycle(LifecycleSeams seams);

  // Reconciles every NodeClaim from now on as it or its Node changes, and each existing one.
  void Start();
  // One pass over the NodeClaim `name`.
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

  const KeyedController& controller() const { return controller_; }

 private:
  // The steps, each on the NodeClaim in memory (its status is written once, after all ran).
  // A step may write other objects (the Node, the NodePool) itself.
  absl::StatusOr<ReconcileResult> Launch(api::NodeClaim& claim, ConditionSet& conditions);
  absl::StatusOr<ReconcileResult> Register(api::NodeClaim& claim, ConditionSet& conditions);
  absl::StatusOr<ReconcileResult> Initialize(api::NodeClaim& claim, ConditionSet& conditions);
  absl::StatusOr<ReconcileResult> CheckLiveness(api::NodeClaim& claim, ConditionSet& conditions);
  absl::StatusOr<ReconcileResult> Finalize(api::NodeClaim& claim);

  // Deletes the NodeClaim for `reason` and counts it as disrupted.
  absl::Status DeleteForReason(const api::NodeClaim& claim, std::string_view reason);
  // Records a registration outcome of the claim's NodePool and flips its
  // NodeRegistrationHealthy condition when the verdict changes.
  absl::Status RecordRegistration(const api::NodeClaim& claim, bool registered,
                                  const ConditionSet& conditions);
  // Writes the claim's metadata (labels, annotations) and status when a step changed them.
  absl::Status WriteChanges(const api::NodeClaim& stored, const api::NodeClaim& claim);
  void Publish(const api::NodeClaim& claim, std::string_view reason, std::string message);
  // One log line about `claim` (its name first, as upstream's "NodeClaim" key).
  void Log(std::string_view message, const api::NodeClaim& claim,
           std::vector<LogField> fields = {}) const;

  LifecycleSeams seams_;
  KeyedController controller_;
  std::map<std::string, std::string> claim_of_node_;  // Node name -> its NodeClaim, as last seen
  // Launch results not yet recorded in the NodeClaim's status, by UID, with their expiry.
  struct Launched {
    api::NodeClaim claim;
    int64_t expires_millis = 0;
  };
  std::map<std::string, Launched> launched_;
};

// The cloud's answer to CloudProvider::Create copied onto the NodeClaim, as the launch step does:
// its labels under the claim's own (a user's label wins), its annotations over the claim's, and
// what the instance is (providerID, image, capacity, allocatable). The twin launches with it too.
void CopyLaunched(const api::NodeClaim& launched, api::NodeClaim& claim);

// What registration does to the Node of `claim` (upstream's lifecycle/registration.go): the
// termination finalizer, the NodeClaim as owner, its labels and annotations and (unless the
// node opts out) its taints and startup taints, the unregistered taint removed and the
// registered label set. The twin registers its nodes with it too.
void RegisterNode(const api::NodeClaim& claim, api::Node& node);

// Why `node` does not initialize `claim` yet (upstream's lifecycle/initialization.go): not
// Ready, a startup or known ephemeral taint left, or a requested resource not registered.
struct InitializationBlock {
  std::string reason;
  std::string message;
};
std::optional<InitializationBlock> InitializationBlocker(const api::NodeClaim& claim,
                                                         const api::Node& node);

// upstream's metrics label for how a NodeClaim's pods are ended: "graceful" without a
// terminationGracePeriod, "forceful" with a zero one, "eventual" otherwise.
std::string_view TerminationMode(const api::NodeClaim& claim);

// "cpu=1930m,memory=3Gi": a resource list as a log field's value.
std::string ResourceListText(const api::ResourceList& resources);

}  // namespace karpenter::controllers
