// Upstream: aws/karpenter-provider-aws pkg/providers/launchtemplate and amifamily/bootstrap.
// What a NodeClaim launches with: the launch template built from its EC2NodeClass (image, security
// groups, instance profile, block devices, IMDS options, tags) and the node's bootstrap user data,
// named by a hash of its content so that equal contents share one template and any change makes
// a new one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/nodeclaim.h"
#include "src/aws/ec2_client.h"
#include "src/cloudprovider/instance_type.h"

namespace karpenter::aws {

// The cluster facts the bootstrap needs (upstream's CLUSTER_NAME, CLUSTER_ENDPOINT,
// CLUSTER_CA_BUNDLE and the service CIDR it discovers).
struct ClusterInfo {
  std::string name;
  std::string endpoint;
  std::string ca_bundle;  // base64 PEM
  std::string service_cidr = "10.100.0.0/16";
};

inline constexpr std::string_view kLaunchTemplateNamePrefix = "karpenter.k8s.aws/";

// Upstream's launch modes: open (EC2's default, a launch may land in any open capacity
// reservation) and targeted (with the ReservedCapacity feature gate: a reserved launch targets its
// reservation, every other launch stays out of reservations).
enum class LaunchMode { kOpen, kTargeted };

// The nodeadm NodeConfig (AL2023) for a node of `node_claim`, as a MIME multi-part document; the
// class's own userData, when set, goes first as its own part, as upstream merges it.
std::string Al2023UserData(const ClusterInfo& cluster, const api::EC2NodeClass& node_class,
                           const api::NodeClaim& node_claim);

// The ownership tags of the launch template itself (instance-independent): the cluster's and the
// node class's, over the class's `spec.tags`.
Tags LaunchTemplateTags(const ClusterInfo& cluster, const api::EC2NodeClass& node_class);

// The template for `node_claim` launched from `node_class` with `image_id`, with the user data of
// the class's AMI family (AL2023 here, AL2, Bottlerocket and Windows in bootstrap.h, Custom as
// is). kInvalidArgument naming spec.userData when the class's user data cannot be merged.
// `max_pods` is the pods capacity of the instance types the template serves: the kubelet gets it
// unless the class's `kubelet.maxPods` is set, as upstream's resolver does (the kubelet must not
// compute another figure than the one Karpenter scheduled against), so types of different pod
// capacity need different templates. With `reserved` (a reserved offering) the template
// launches into that offering's capacity reservation only, one template per reservation; without,
// in the targeted mode, it stays out of open reservations.
absl::StatusOr<LaunchTemplateSpec> BuildLaunchTemplate(
    const ClusterInfo& cluster, const api::EC2NodeClass& node_class,
    const api::NodeClaim& node_claim, const std::string& image_id,
    std::optional<int32_t> max_pods = std::nullopt,
    const cloudprovider::Offering* reserved = nullptr, LaunchMode mode = LaunchMode::kOpen);

}  // namespace karpenter::aws
