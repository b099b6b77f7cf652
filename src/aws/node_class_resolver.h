// Upstream: aws/karpenter-provider-aws pkg/providers/{subnet,securitygroup,amifamily} and
// pkg/controllers/nodeclass (the status reconcilers). Resolves an EC2NodeClass's selector terms
// against EC2 and SSM into its status: subnets (most free IPs first), security groups, AMIs
// (the newest non-deprecated image per set of requirements: architecture and, for `alias`, the
// accelerator variant its EKS-optimized AMI SSM parameter names) and the instance profile
// (instance_profiles.h), with one condition per part and Ready over all of them.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/ec2nodeclass.h"
#include "src/aws/ami_alias.h"
#include "src/aws/clock.h"
#include "src/aws/ec2_client.h"
#include "src/aws/instance_profiles.h"
#include "src/aws/node_class_validation.h"
#include "src/aws/reservation_availability.h"
#include "src/aws/ssm_client.h"

namespace karpenter::aws {

struct NodeClassResolverOptions {
  // The cluster's Kubernetes minor version ("1.32"): the EKS AMI parameters are per version.
  std::string kubernetes_version = "1.32";
  // The ReservedCapacity feature gate. Off, the class's capacity reservations are neither
  // described nor reported (no status.capacityReservations, no CapacityReservationsReady), as
  // upstream then skips its capacity-reservation reconciler.
  bool capacity_reservations = true;
};

// The node class hash Karpenter stamps on the class and on every NodeClaim launched from it
// (karpenter.k8s.aws/ec2nodeclass-hash): the spec without the selector terms, whose effect
// drifts through the status instead.
std::string NodeClassHash(const api::EC2NodeClassSpec& spec);
inline constexpr std::string_view kNodeClassHashVersion = "v4";

class NodeClassResolver {
 public:
  // Without `profiles` (no IAM), a class with spec.role is not Ready. With `validator`, the
  // status also carries ValidationSucceeded (the dry-run authorization checks) and Ready rests
  // on it, as upstream's; without it neither is checked. With `reservations`, every description
  // of the capacity reservations resets their counts there (what the cloud provider offers).
  NodeClassResolver(Ec2Client& ec2, SsmClient& ssm, Clock& clock, NodeClassResolverOptions options,
                    InstanceProfiles* profiles = nullptr, NodeClassValidator* validator = nullptr,
                    ReservationAvailability* reservations = nullptr)
      : ec2_(ec2),
        ssm_(ssm),
        clock_(clock),
        options_(std::move(options)),
        profiles_(profiles),
        validator_(validator),
        reservations_(reservations) {}

  // The status the class should have now. A part that resolves to nothing, or that EC2 refuses
  // to describe, sets its condition False with the reason; calls that fail for transient reasons
  // (throttling, 5xx) are returned as errors so the caller retries, as a reconciler would.
  absl::StatusOr<api::EC2NodeClassStatus> Resolve(const api::EC2NodeClass& node_class);

  // Only reads (`karpenter plan --cloud aws`): the subnets, security groups, AMIs and capacity
  // reservations the selector terms name, with no instance profile made and no conditions set.
  // No subnet, group or AMI is NotFound (no reservation is fine), and any failure is returned,
  // with the spec field in the message ("spec.subnetSelectorTerms: no subnet matches the
  // selector terms").
  absl::StatusOr<api::EC2NodeClassStatus> ResolveSelectors(const api::EC2NodeClass& node_class);

  absl::StatusOr<std::vector<api::Subnet>> Subnets(const api::EC2NodeClassSpec& spec);
  absl::StatusOr<std::vector<api::SecurityGroup>> SecurityGroups(const api::EC2NodeClassSpec& spec);
  absl::StatusOr<std::vector<api::AMI>> Amis(const api::EC2NodeClassSpec& spec);
  // Upstream's capacity-reservation provider and status reconciler: the active reservations the
  // terms select (an id, or tags with an optional ownerID and instanceMatchCriteria), by id, with
  // a capacity block within 40 minutes of its end `expiring`. No call without terms.
  absl::StatusOr<std::vector<api::CapacityReservation>> CapacityReservations(
      const api::EC2NodeClassSpec& spec);

 private:
  // An image with the requirement sets of the instance types it serves (architecture aside).
  struct Candidate {
    Image image;
    std::vector<RequirementSet> requirements;
  };
  absl::StatusOr<std::vector<Candidate>> AliasImages(std::string_view alias);
  absl::StatusOr<std::vector<Image>> TermImages(const api::AMISelectorTerm& term);
  // The images of the `id` and `ssmParameter` terms, asked for in one call.
  absl::StatusOr<std::vector<Image>> ImagesById(const api::EC2NodeClassSpec& spec);
  bool Deprecated(const Image& image) const;

  Ec2Client& ec2_;
  SsmClient& ssm_;
  Clock& clock_;
  const NodeClassResolverOptions options_;
  InstanceProfiles* profiles_;
  NodeClassValidator* validator_;
  ReservationAvailability* reservations_;
};

// True when `node_class` has a Ready condition with status True.
bool IsReady(const api::EC2NodeClass& node_class);

}  // namespace karpenter::aws
