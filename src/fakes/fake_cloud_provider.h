// A CloudProvider for tests, with state: instances it launched, offerings that answer
// insufficient capacity, injected errors per method, and a log of every call. Create launches
// the cheapest available offering that the NodeClaim's requirements allow, as CreateFleet's
// lowest-price strategy would. A launched instance keeps the NodeClaim's metadata, so its
// creationTimestamp (an instance's age) is the claim's; List marks terminating instances with a
// deletionTimestamp, as the AWS provider marks shutting-down ones.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "karpenter/cloud_provider.h"

namespace karpenter::fakes {

class FakeCloudProvider : public CloudProvider {
 public:
  enum class Method { kCreate, kDelete, kGet, kList, kGetInstanceTypes, kIsDrifted };

  void SetInstanceTypes(std::vector<cloudprovider::InstanceType> types) {
    instance_types_ = std::move(types);
  }
  // Create answers insufficient capacity for this offering (it is tried, then skipped).
  void SetInsufficientCapacity(const OfferingRef& offering) { exhausted_.insert(offering); }
  // The next call of `method` fails with `error` (errors queue up, first in first out).
  void FailNext(Method method, CloudError error) { failures_[method].push_back(std::move(error)); }
  void SetDrifted(const std::string& provider_id, std::string reason) {
    drifted_[provider_id] = std::move(reason);
  }
  // The instance vanishes from the cloud without a Delete (reclaimed, or terminated by hand).
  void RemoveInstance(const std::string& provider_id) { instances_.erase(provider_id); }

  CloudOr<api::NodeClaim> Create(const api::NodeClaim& node_claim) override;
  std::variant<std::monostate, CloudError> Delete(const api::NodeClaim& node_claim) override;
  CloudOr<api::NodeClaim> Get(std::string_view provider_id) override;
  CloudOr<std::vector<api::NodeClaim>> List() override;
  CloudOr<std::vector<cloudprovider::InstanceType>> GetInstanceTypes(
      const api::NodePool& node_pool) override;
  CloudOr<std::string> IsDrifted(const api::NodeClaim& node_claim) override;
  std::vector<RepairPolicy> RepairPolicies() const override;
  std::string_view Name() const override { return "fake"; }

  // "Create nodeclaim-a", "Delete fake:///us-east-1a/i-1", ... in call order.
  const std::vector<std::string>& calls() const { return calls_; }
  // Live instances by provider ID (terminating ones included until they are gone).
  const std::map<std::string, api::NodeClaim>& instances() const { return instances_; }
  // Provider IDs whose termination was requested and that are still there; FinishTerminations
  // makes them gone (the next Delete answers NotFound).
  const std::set<std::string>& terminating() const { return terminating_; }
  void FinishTerminations();

 private:
  // Pops the next injected failure of `method`, if any.
  bool TakeFailure(Method method, CloudError* error);

  std::vector<cloudprovider::InstanceType> instance_types_;
  std::set<OfferingRef> exhausted_;
  std::map<Method, std::deque<CloudError>> failures_;
  std::map<std::string, std::string> drifted_;
  std::map<std::string, api::NodeClaim> instances_;
  std::set<std::string> terminating_;
  std::vector<std::string> calls_;
  uint64_t launched_ = 0;
};

}  // namespace karpenter::fakes
