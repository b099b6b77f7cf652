// Everything the in-cluster controller needs from AWS, built once from the process environment
// the way the SDKs configure themselves: the credential chain (environment, profiles, IRSA,
// Pod Identity, IMDSv2), the region, endpoints (AWS_ENDPOINT_URL[_SERVICE] overrides), the
// EC2, SSM, Pricing and SQS clients, the instance-type provider over the embedded catalog, the
// EC2NodeClass resolver, the CloudProvider and, when a queue is named, the interruption queue.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "karpenter/cloud_provider.h"
#include "karpenter/common/status.h"
#include "karpenter/interruption_queue.h"
#include "karpenter/kube_cluster.h"
#include "src/aws/call_metrics.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/unavailable_offerings.h"

namespace karpenter::aws {

class NodeClassResolver;

// The interruption queue's long poll, on its own thread (BackgroundReceiveQueue); shutdown
// waits for one in flight.
inline constexpr int kInterruptionLongPollSeconds = 5;

struct AwsStackOptions {
  std::string cluster_name;
  // The API server URL and CA (base64 PEM) new nodes join with; an empty URL is asked of EKS
  // (DescribeCluster), as upstream does when CLUSTER_ENDPOINT is not set.
  std::string cluster_endpoint;
  std::string cluster_ca_bundle;
  // No Pricing API (no VPC endpoint for it): on-demand prices come from the catalog.
  bool isolated_vpc = false;
  // The SQS queue's name; empty disables interruption handling.
  std::string interruption_queue;
  // The cluster's Kubernetes version ("1.33"), whose EKS AMI parameters aliases resolve through;
  // empty: the resolver's default.
  std::string kubernetes_version;
  // Told of every AWS call (the controller turns them into aws_sdk_go_* metrics); empty: nobody.
  CallObserver observer;
  // Where the provider counts what it does beyond calls (launch failures); null: nowhere. Must
  // outlive the stack.
  Metrics* metrics = nullptr;
  // The ReservedCapacity feature gate. Off, no capacity reservation is described or offered, and
  // launches leave EC2's reservation preference alone (upstream's open launch mode).
  bool reserved_capacity = true;
  // DISABLE_DRY_RUN: EC2NodeClass validation makes no dry-run authorization calls.
  bool dry_run = true;
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
  // Null when interruption handling is off. Receive never blocks: messages are received on a
  // thread of the stack's own.
  InterruptionQueue* interruption_queue();
  NodeClassResolver& node_classes();
  // What the provider made for an EC2NodeClass that is going: its instance profiles (not in an
  // isolated VPC, where IAM is not called) and its launch templates.
  absl::Status CleanUpNodeClass(const api::EC2NodeClass& node_class);
  // Instance profile garbage collection: deletes this cluster's profiles that `in_use` does not
  // name (InstanceProfiles::CollectGarbage); nothing in an isolated VPC, where IAM is not called.
  absl::Status CollectInstanceProfiles(const std::set<std::string>& in_use);
  // The tagging controller's write (AwsCloudProvider::TagInstance).
  absl::StatusOr<bool> TagInstance(const std::string& provider_id,
                                   const std::map<std::string, std::string>& tags);
  const std::string& region() const;
  // Reads EC2's instance types, offerings and prices (InstanceTypeProvider::Refresh).
  absl::Status RefreshInstanceTypes();
  // What was discovered or assumed while the stack was built, for the log (the endpoint from
  // DescribeCluster; the service CIDR assumed when DescribeCluster is not allowed).
  const std::vector<std::string>& notes() const;
  // The embedded catalog of the region (us-east-1's when the catalog lacks the region).
  const cloudprovider::Catalog& catalog() const;

 private:
  struct Parts;
  AwsStack();
  std::unique_ptr<Parts> parts_;
};

}  // namespace karpenter::aws
