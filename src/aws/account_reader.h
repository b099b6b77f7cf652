// What `karpenter plan --cloud aws` reads from the user's account, and nothing else: the region
// and credentials as the SDKs find them (AWS_ENDPOINT_URL honoured), an EC2NodeClass's subnets,
// security groups and AMIs from its selector terms, and the instance types, offerings and prices
// InstanceTypeProvider serves the controller. Every call it makes is a Describe, Get or List: no
// instance profile, launch template or tag is created, so planning cannot change the account.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/ec2nodeclass.h"
#include "src/aws/instance_type_provider.h"
#include "src/cloudprovider/instance_type.h"
#include "src/cloudprovider/unavailable_offerings.h"

namespace karpenter::aws {

struct AccountReaderOptions {
  // Empty: the SDK chain's (AWS_REGION, AWS_DEFAULT_REGION, the profile, IMDS).
  std::string region;
  // The EKS AMI parameters aliases resolve through; empty: the resolver's default.
  std::string kubernetes_version;
};

class AccountReader {
 public:
  // From the process environment. InvalidArgument when the region cannot be told; endpoints that
  // cannot be resolved fail with the service named.
  static absl::StatusOr<std::unique_ptr<AccountReader>> Create(AccountReaderOptions options);
  ~AccountReader();
  AccountReader(const AccountReader&) = delete;
  AccountReader& operator=(const AccountReader&) = delete;

  const std::string& region() const;
  // The credential chain's answer, so that missing credentials fail once, before any call, with
  // the chain's reason.
  absl::Status CheckCredentials();
  // NodeClassResolver::ResolveSelectors: the status parts, or an error naming the spec field.
  absl::StatusOr<api::EC2NodeClassStatus> ResolveNodeClass(const api::EC2NodeClass& node_class);
  // InstanceTypeProvider::List for a class resolved under `resolve`, offered in `zones`; read
  // (types, offerings, prices) on the first call.
  absl::StatusOr<std::vector<cloudprovider::InstanceType>> InstanceTypes(
      const cloudprovider::ResolveOptions& resolve, const std::set<std::string>& zones,
      const cloudprovider::UnavailableOfferings& unavailable);
  // Where the prices of the last InstanceTypes came from.
  PriceSource on_demand_source() const;
  PriceSource spot_source() const;

 private:
  struct Parts;
  AccountReader();
  std::unique_ptr<Parts> parts_;
};

}  // namespace karpenter::aws
