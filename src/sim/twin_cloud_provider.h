// The twin's CloudProvider: upstream's AWS provider (pkg/cloudprovider, pkg/providers/instance)
// over the twin's EC2. Create launches as that provider does: the instance types of the
// NodeClaim's EC2NodeClass that its requirements allow and its requests fit, narrowed by the
// provider's launch filters to one CreateFleet of one capacity type over at most 60 types, which
// EC2 tries cheapest first. Every offering EC2 refuses for capacity is marked unavailable; when
// it refuses them all, Create answers InsufficientCapacity naming them, and the NodeClaim goes
// (it never falls back to another capacity type within one launch). The instance boots in the
// cluster and its kubelet registers with the NodeClaim's taints.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "karpenter/cloud_provider.h"
#include "src/cloudprovider/unavailable_offerings.h"
#include "src/provisioning/node_class_catalog.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {

class TwinCloudProvider : public CloudProvider {
 public:
  // Prices and types come from `catalogs`, the ones the twin's Karpenter plans with.
  TwinCloudProvider(Cluster& cluster, provisioning::CatalogCache& catalogs,
                    cloudprovider::UnavailableOfferings& unavailable)
      : cluster_(cluster), catalogs_(catalogs), unavailable_(unavailable) {}

  CloudOr<api::NodeClaim> Create(const api::NodeClaim& node_claim) override;
  std::variant<std::monostate, CloudError> Delete(const api::NodeClaim& node_claim) override;
  CloudOr<api::NodeClaim> Get(std::string_view provider_id) override;
  CloudOr<std::vector<api::NodeClaim>> List() override;
  CloudOr<std::vector<cloudprovider::InstanceType>> GetInstanceTypes(
      const api::NodePool& node_pool) override;
  // The twin's EC2 has no images, subnets or security groups that change under a node, so the
  // provider's own drift never happens; NodePool drift is the disruption engine's.
  CloudOr<std::string> IsDrifted(const api::NodeClaim&) override { return std::string(); }
  std::vector<RepairPolicy> RepairPolicies() const override;
  std::string_view Name() const override { return "aws"; }

 private:
  // The instance behind a NodeClaim as the provider describes it: its offering's labels
  // (instance type, zone, capacity type) and the NodePool's, its size and provider ID. Upstream's
  // provider also copies every label of the instance type. The twin leaves them out: whatever
  // reads a claim's type labels (drift, in-flight capacity) takes them from the catalog, so no
  // decision changes, and two dozen more labels on every claim cost 3-4 % of the 1,000-node
  // day's wall time.
  api::NodeClaim Describe(const Instance& instance) const;

  Cluster& cluster_;
  provisioning::CatalogCache& catalogs_;
  cloudprovider::UnavailableOfferings& unavailable_;
};

}  // namespace karpenter::sim
