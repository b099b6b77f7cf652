// Everything the in-cluster controller needs from AWS, built once from the process environment
// the way the SDKs configure themselves: the credential chain (environment, profiles, IRSA,
// Pod Identity, IMDSv2), the region, endpoints (AWS_ENDPOINT_URL[_SERVICE] overrides), the
// EC2, SSM, Pricing and SQS clients, the instance-type provider over the embedded catalog, the
// EC2NodeClass resolver, the CloudProvider and, when a queue is named, the interruption queue.
#pragma once

#include <memory>
#include <string>

#include "karpenter/cloud_provider.h"
#include "karpenter/common/status.h"
#include "karpenter/interruption_queue.h"
#include "karpenter/kube_cluster.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/unavailable_offerings.h"

namespace karpenter::aws {

class NodeClassResolver;

struct AwsStackOptions {
  std::string cluster_name;
  // The API server URL and CA (base64 PEM) new nodes join with.
  std::string cluster_endpoint;
  std::string cluster_ca_bundle;
  // No Pricing API (no VPC endpoint for it): on-demand prices come from the catalog.
  bool isolated_vpc = false;
  // The SQS queue's name; empty disables interruption handling.
  std::string interruption_queue;
};

class AwsStack {
 public:
  // Fails with one line naming what could not be resolved (the region, an endpoint, the queue).
  // `cluster` (EC2NodeClasses) and `unavailable` must outlive the stack.
  static absl::StatusOr<std::unique_ptr<AwsStack>> Create(
      AwsStackOptions options, const ClusterReader& cluster,
      cloudprovider::UnavailableOfferings& unavailable);
  ~AwsStack();
  AwsStack(const AwsStack&) = delete;
  AwsStack& operator=(const AwsStack&) = delete;

  CloudProvider& cloud();
  // Null when interruption handling is off.
  InterruptionQueue* interruption_queue();
  NodeClassResolver& node_classes();
  const std::string& region() const;
  // The embedded catalog of the region (us-east-1's when the catalog lacks the region).
  const cloudprovider::Catalog& catalog() const;

 private:
  struct Parts;
  AwsStack();
  std::unique_ptr<Parts> parts_;
};

}  // namespace karpenter::aws
