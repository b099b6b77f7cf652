// EKS over its REST-JSON protocol: DescribeCluster, which the controller asks at start for the
// API server endpoint (when CLUSTER_ENDPOINT is not set) and for the cluster's service CIDR (the
// cluster DNS address in node user data), as upstream's operator and launch-template provider
// do. CreateCluster is here for the tests, which make their cluster in moto.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"

namespace karpenter::aws {

struct EksCluster {
  std::string name;
  std::string status;                 // "ACTIVE", "CREATING", ...
  std::string endpoint;               // https://<id>.<suffix>.<region>.eks.amazonaws.com
  std::string certificate_authority;  // base64 PEM
  std::string service_ipv4_cidr;      // kubernetesNetworkConfig; empty when not given
  std::string service_ipv6_cidr;
  std::string version;
};

class EksClient {
 public:
  explicit EksClient(AwsClient& client) : client_(client) {}

  // kNotFound (code ResourceNotFoundException) when the cluster does not exist.
  absl::StatusOr<EksCluster> DescribeCluster(const std::string& name);
  absl::StatusOr<EksCluster> CreateCluster(const std::string& name, const std::string& role_arn,
                                           const std::string& service_ipv4_cidr);

 private:
  AwsClient& client_;
};

}  // namespace karpenter::aws
