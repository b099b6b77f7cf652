// Upstream: pkg/cloudprovider/drift.go (aws/karpenter-provider-aws), isNodeClassDrifted.
// The AWS provider's half of drift detection: whether a NodeClaim still matches what its
// EC2NodeClass resolves to now (features §7).
//
// Upstream reads the instance's subnet, security groups and capacity reservation from EC2
// (DescribeInstances). A snapshot has no EC2, so it carries them as NodeClaim annotations of this
// project (kInstanceSubnetAnnotationKey, kInstanceSecurityGroupsAnnotationKey); the reservation
// comes from the karpenter.k8s.aws/capacity-reservation-id label Karpenter stamps on reserved
// NodeClaims. A check whose instance fact the snapshot lacks finds no drift. PlacementGroupDrift
// is not modelled: the class's placement group is resolved from EC2, not from its status.
#pragma once

#include <string>
#include <string_view>

#include "src/api/ec2nodeclass.h"
#include "src/api/nodeclaim.h"
#include "src/provisioning/types.h"

namespace karpenter::disruption {

// The instance's subnet ID ("subnet-0abc"), as DescribeInstances reports it.
inline constexpr std::string_view kInstanceSubnetAnnotationKey =
    "ec2.karpenter-cpp.io/instance-subnet-id";
// The instance's security group IDs, comma-separated ("sg-1,sg-2"), as DescribeInstances
// reports them.
inline constexpr std::string_view kInstanceSecurityGroupsAnnotationKey =
    "ec2.karpenter-cpp.io/instance-security-group-ids";

// Upstream drift reason strings (cloudprovider.DriftReason).
inline constexpr std::string_view kNodeClassDrift = "NodeClassDrift";
inline constexpr std::string_view kAMIDrift = "AMIDrift";
inline constexpr std::string_view kSecurityGroupDrift = "SecurityGroupDrift";
inline constexpr std::string_view kSubnetDrift = "SubnetDrift";
inline constexpr std::string_view kCapacityReservationDrift = "CapacityReservationDrift";

// The first AWS drift reason, "" when none, in upstream order: the static fields (the
// karpenter.k8s.aws/ec2nodeclass-hash annotations, same-version rule), then the AMI (status.imageID
// must be the first of the class's status.amis whose requirements the instance type satisfies),
// then security groups, subnet and capacity reservation. As upstream, where a check cannot be
// made (the type is not among the pool's, no AMIs, no imageID, no security groups or no subnets
// in the class's status) the NodeClaim is not reported drifted by any check after the static one.
// `instance_type` is the pool's instance type the NodeClaim runs as, nullptr when unknown.
std::string DetectNodeClassDrift(const api::EC2NodeClass& node_class,
                                 const api::NodeClaim& node_claim,
                                 const provisioning::InstanceTypeView* instance_type);

}  // namespace karpenter::disruption
