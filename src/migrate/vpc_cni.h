// The VPC CNI's address settings, read from the env of the aws-node DaemonSet in the snapshot,
// and the addresses a node takes from its subnet under them: what the subnet-capacity check
// counts and advises on.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "karpenter/common/status.h"
#include "src/cloudprovider/instance_type_info.h"
#include "src/migrate/kube_documents.h"

namespace karpenter::migrate {

// A delegated prefix is a /28: 16 addresses in one ENI slot.
inline constexpr int64_t kAddressesPerPrefix = 16;

struct VpcCniSettings {
  bool found = false;           // the aws-node DaemonSet was in the snapshot
  int64_t warm_eni_target = 1;  // the CNI's defaults
  std::optional<int64_t> warm_ip_target;
  std::optional<int64_t> minimum_ip_target;
  std::optional<int64_t> warm_prefix_target;
  bool prefix_delegation = false;
};

bool IsAwsNodeDaemonSet(const KubeDocument& document);

// The env of the aws-node container of the first aws-node DaemonSet; InvalidArgument naming
// "SOURCE: DaemonSet/kube-system/aws-node: spec.template.spec.containers[i].env[j].value".
absl::Status ReadVpcCni(const std::vector<KubeDocument>& documents, VpcCniSettings& settings);

// The subnet addresses a node of `type` running `pods` pods (not on the host network) holds:
// its primary address, the pods' and what the CNI keeps warm, in whole ENIs, IPs or prefixes,
// capped at what the type's ENIs can hold.
int64_t NodeAddresses(int64_t pods, const cloudprovider::InstanceTypeInfo& type,
                      const VpcCniSettings& settings);

}  // namespace karpenter::migrate
