// Upstream: aws/karpenter-provider-aws pkg/cloudprovider/cloudprovider.go and
// pkg/providers/instance/instance.go. The CloudProvider seam over EC2: Create resolves the
// NodeClaim's EC2NodeClass (read from the cluster), picks the instance types its requirements
// and requests allow, ensures the launch template and launches one instance with CreateFleet
// (type instant); Delete, Get and List see only instances carrying this cluster's ownership tags.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/metrics.h"
#include "src/aws/ec2_client.h"
#include "src/aws/instance_type_provider.h"
#include "src/aws/launch_template.h"
#include "src/aws/reservation_availability.h"
#include "src/aws/subnet_addresses.h"
#include "src/aws/subnet_cache.h"
#include "src/cloudprovider/aws_conventions.h"
#include "src/cloudprovider/unavailable_offerings.h"

namespace karpenter::aws {

// Upstream's cap on the instance types one CreateFleet may choose from.
inline constexpr size_t kMaxInstanceTypes = 60;
// Drift reasons, as upstream spells them.
inline constexpr std::string_view kAmiDrift = "AMIDrift";
inline constexpr std::string_view kSubnetDrift = "SubnetDrift";
inline constexpr std::string_view kSecurityGroupDrift = "SecurityGroupDrift";
inline constexpr std::string_view kNodeClassDrift = "NodeClassDrift";

// The EC2 instance id of a provider ID (shared with the twin).
using cloudprovider::InstanceIdOf;

// The instance tags every launch carries and List filters on.
Tags OwnershipTags(const ClusterInfo& cluster, const api::NodeClaim& node_claim);

class AwsCloudProvider : public CloudProvider {
 public:
  // `cluster` is where EC2NodeClasses are read; `unavailable` is shared with whoever else marks
  // offerings (the interruption controller). None of them is owned. With `reservations` (shared
  // with the NodeClassResolver that describes them), the classes' capacity reservations are
  // offered as `reserved` offerings and launched into; without, they are not offered.
  AwsCloudProvider(Ec2Client& ec2, Clock& clock, InstanceTypeProvider& instance_types,
                   const ClusterReader& cluster, cloudprovider::UnavailableOfferings& unavailable,
                   ClusterInfo info, Metrics* metrics = nullptr,
                   ReservationAvailability* reservations = nullptr)
      : ec2_(ec2),
        instance_types_(instance_types),
        cluster_(cluster),
        unavailable_(unavailable),
        info_(std::move(info)),
        metrics_(metrics),
        reservations_(reservations),
        subnets_(ec2, clock) {}

  CloudOr<api::NodeClaim> Create(const api::NodeClaim& node_claim) override;
  std::variant<std::monostate, CloudError> Delete(const api::NodeClaim& node_claim) override;
  CloudOr<api::NodeClaim> Get(std::string_view provider_id) override;
  CloudOr<std::vector<api::NodeClaim>> List() override;
  CloudOr<std::vector<cloudprovider::InstanceType>> GetInstanceTypes(
      const api::NodePool& node_pool) override;
  CloudOr<std::string> IsDrifted(const api::NodeClaim& node_claim) override;
  std::vector<RepairPolicy> RepairPolicies() const override;
  std::string_view Name() const override { return "aws"; }

  // Deletes the launch templates made for `node_class` (tagged with this cluster and the class),
  // as upstream does when the class goes.
  absl::Status DeleteLaunchTemplates(const api::EC2NodeClass& node_class);
  // The tagging controller's write: adds to the instance behind `provider_id` those of `tags`
  // it does not carry yet, and answers whether it called CreateTags. kNotFound when the
  // instance is gone or is not this cluster's (it is never written to); kInvalidArgument when
  // `provider_id` names no instance.
  absl::StatusOr<bool> TagInstance(std::string_view provider_id, const Tags& tags);

 private:
  struct Launch;  // one Create's chosen templates, capacity type and overrides

  CloudOr<api::EC2NodeClass> NodeClass(const std::string& name) const;
  CloudOr<std::vector<cloudprovider::InstanceType>> InstanceTypes(
      const api::EC2NodeClass& node_class);
  // Upstream's reserved capacity resolver: one `reserved` offering per capacity reservation of
  // the class's status, available while the reservation has instances left.
  void AddReservedOfferings(const api::EC2NodeClass& node_class,
                            std::vector<cloudprovider::InstanceType>& types);
  CloudOr<Launch> Plan(const api::NodeClaim& node_claim, const api::EC2NodeClass& node_class,
                       const std::vector<cloudprovider::InstanceType>& types);
  // Creates the template unless this process already knows it exists (or EC2 has it).
  absl::Status EnsureLaunchTemplate(const LaunchTemplateSpec& spec);
  CloudOr<FleetResult> LaunchFleet(const Launch& launch, const api::NodeClaim& node_claim,
                                   const api::EC2NodeClass& node_class);
  // Counts each offering CreateFleet refused, by zone, zone ID, capacity type and reason.
  void CountLaunchFailures(const Launch& launch, const std::vector<FleetError>& errors,
                           const api::EC2NodeClass& node_class);
  // Marks what EC2 refused for want of capacity (the offering for 3 minutes, or the
  // reservation until it is described again; a subnet out of addresses as full) and returns the
  // refused offerings.
  std::vector<OfferingRef> MarkRefusedCapacity(const Launch& launch, const FleetResult& result);
  // The live instance behind `instance_id` if it is this cluster's; kNotFound otherwise.
  CloudOr<Instance> OwnedInstance(const std::string& instance_id);
  api::NodeClaim ToNodeClaim(const Instance& instance,
                             const std::vector<cloudprovider::InstanceType>& types) const;

  Ec2Client& ec2_;
  InstanceTypeProvider& instance_types_;
  const ClusterReader& cluster_;
  cloudprovider::UnavailableOfferings& unavailable_;
  const ClusterInfo info_;
  // Where launch failures are counted (upstream's instance_launch_failures_total); may be null.
  Metrics* const metrics_;
  ReservationAvailability* const reservations_;  // may be null
  SubnetAddresses subnet_addresses_;
  SubnetCache subnets_;
  absl::Mutex mu_;
  std::set<std::string> known_templates_ ABSL_GUARDED_BY(mu_);
};

}  // namespace karpenter::aws
