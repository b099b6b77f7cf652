// What the AWS provider and the twin's model of it share: how a provider ID names an EC2
// instance, and the node repair policies the provider declares.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/cloud_provider.h"

namespace karpenter::cloudprovider {

// "aws:///<zone>/<instance id>", as the kubelet's AWS cloud provider sets spec.providerID.
std::string AwsProviderId(std::string_view zone, std::string_view instance_id);
// The EC2 instance id of "aws:///us-west-2a/i-0123"; "" when the provider ID is not of that form.
std::string InstanceIdOf(std::string_view provider_id);

// Upstream's AWS provider: a node whose Ready condition is False or Unknown for 30 minutes is
// repaired.
std::vector<RepairPolicy> AwsRepairPolicies();

}  // namespace karpenter::cloudprovider
