// Upstream: kubernetes-sigs/karpenter pkg/cloudprovider/metrics (the decorator every provider is
// wrapped in). Times each call of the wrapped CloudProvider as
// karpenter_cloudprovider_duration_seconds{controller, method, provider} and counts the failed
// ones as karpenter_cloudprovider_errors_total{..., error} with upstream's error type names. One
// decorator per controller, since the controller is a label.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/metrics.h"

namespace karpenter::controllers {

// Upstream's error label: InsufficientCapacityError, NodeClassNotReadyError,
// NodeClaimNotFoundError, or "" for any other failure.
std::string_view CloudErrorTypeName(CloudErrorKind kind);

class MeteredCloudProvider : public CloudProvider {
 public:
  MeteredCloudProvider(CloudProvider& inner, Metrics& metrics, const Clock& clock,
                       std::string controller)
      : inner_(inner), metrics_(metrics), clock_(clock), controller_(std::move(controller)) {}

  CloudOr<api::NodeClaim> Create(const api::NodeClaim& node_claim) override;
  std::variant<std::monostate, CloudError> Delete(const api::NodeClaim& node_claim) override;
  CloudOr<api::NodeClaim> Get(std::string_view provider_id) override;
  CloudOr<std::vector<api::NodeClaim>> List() override;
  CloudOr<std::vector<cloudprovider::InstanceType>> GetInstanceTypes(
      const api::NodePool& node_pool) override;
  CloudOr<std::string> IsDrifted(const api::NodeClaim& node_claim) override;
  std::vector<RepairPolicy> RepairPolicies() const override { return inner_.RepairPolicies(); }
  std::string_view Name() const override { return inner_.Name(); }

 private:
  // Runs `call`, then records its duration and, when it answered a CloudError, the error.
  template <class Call>
  auto Measured(std::string_view method, Call&& call);

  CloudProvider& inner_;
  Metrics& metrics_;
  const Clock& clock_;
  const std::string controller_;
};

}  // namespace karpenter::controllers
