// The cloud seam, shaped like upstream's cloudprovider.CloudProvider
// (kubernetes-sigs/karpenter pkg/cloudprovider/types.go): launch, delete, look up and list the
// instances behind NodeClaims, the instance types a NodePool may launch, drift and repair
// policies. The AWS provider implements it against EC2; the twin against its emulated EC2.
// Failures a controller must tell apart are typed (CloudError), not folded into a Status.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "src/api/nodeclaim.h"
#include "src/api/nodepool.h"
#include "src/cloudprovider/instance_type.h"

namespace karpenter {

// One (instance type, zone, capacity type) that could be launched.
struct OfferingRef {
  std::string instance_type;
  std::string zone;
  std::string capacity_type;
  friend auto operator<=>(const OfferingRef&, const OfferingRef&) = default;
};

enum class CloudErrorKind {
  // Every offering tried answered with an insufficient-capacity code (upstream's
  // InsufficientCapacityError): the NodeClaim is deleted and its pods planned again.
  kInsufficientCapacity,
  // The node class is not Ready (upstream's NodeClassNotReadyError): the NodeClaim is deleted.
  kNodeClassNotReady,
  // Any other launch failure (upstream's CreateError): retried with Launched=Unknown.
  kCreateError,
  // The instance does not exist (any more): Delete answers it once the instance is gone.
  kNotFound,
  // The call itself failed (throttled, unreachable, unauthorized): retried with backoff.
  kUnavailable,
};

struct CloudError {
  CloudErrorKind kind = CloudErrorKind::kCreateError;
  // A condition reason (CreateError's ConditionReason, e.g. "LaunchFailed"), or empty.
  std::string reason;
  std::string message;
  // kInsufficientCapacity: the offerings tried, each of which is now unavailable for a while.
  std::vector<OfferingRef> offerings;
};

// A value or the typed error that prevented it.
template <class T>
using CloudOr = std::variant<T, CloudError>;

// A provider's answer to "should this node be repaired?": a Node condition that, held for
// `toleration_millis`, makes the node unhealthy (upstream's RepairPolicy).
struct RepairPolicy {
  std::string condition_type;
  std::string condition_status;
  int64_t toleration_millis = 0;
};

class CloudProvider {
 public:
  virtual ~CloudProvider() = default;

  // Launches one instance for `node_claim` (its requirements and resource requests say what may
  // be launched) and returns the NodeClaim as launched: status.providerID, imageID, capacity and
  // allocatable, and the labels of the chosen instance type, zone and capacity type.
  virtual CloudOr<api::NodeClaim> Create(const api::NodeClaim& node_claim) = 0;
  // Terminates the instance behind `node_claim` (status.providerID). Returns nothing once the
  // termination has been requested; kNotFound once the instance is gone, which is how the
  // caller learns that deletion finished.
  virtual std::variant<std::monostate, CloudError> Delete(const api::NodeClaim& node_claim) = 0;
  // The NodeClaim for the instance with this provider ID; kNotFound when there is none.
  virtual CloudOr<api::NodeClaim> Get(std::string_view provider_id) = 0;
  // Every instance this provider launched for the cluster, as NodeClaims.
  virtual CloudOr<std::vector<api::NodeClaim>> List() = 0;
  // The instance types `node_pool` may launch, with offerings and availability as of now.
  virtual CloudOr<std::vector<cloudprovider::InstanceType>> GetInstanceTypes(
      const api::NodePool& node_pool) = 0;
  // The provider's own drift reason for `node_claim` (AMI, subnet, security groups, node class
  // hash), or an empty string when it has not drifted.
  virtual CloudOr<std::string> IsDrifted(const api::NodeClaim& node_claim) = 0;
  virtual std::vector<RepairPolicy> RepairPolicies() const = 0;
  virtual std::string_view Name() const = 0;
};

}  // namespace karpenter
