#include "src/provisioning/nodeclaim.h"

#include <algorithm>
#include <climits>
#include <set>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"
#include "src/provisioning/resources.h"

namespace karpenter::provisioning {

absl::Status ReservedOfferingError(std::string_view message) {
  return absl::ResourceExhaustedError(std::string(message));
}

bool IsReservedOfferingError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kResourceExhausted;
}

absl::Status CheckTaints(const std::vector<api::Taint>& taints,
                         const std::vector<api::Toleration>& tolerations) {
  const api::Taint* untolerated = nullptr;
  if (api::ToleratesAll(tolerations, taints, /*ignore_prefer_no_schedule=*/false, &untolerated)) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(fmt::format("did not tolerate {}={}:{}", untolerated->key,
                                                   untolerated->value, untolerated->effect));
}

InFlightNodeClaim::InFlightNodeClaim(const NodeClaimTemplate& node_claim_template,
                                     CandidateList candidates, Topology* topology,
                                     CompatibilityCache* compatibility,
                                     ReservationManager* reservations)
    : template_(&node_claim_template),
      requirements_(node_claim_template.requirements),
      topology_(topology),
      compatibility_(compatibility),
      reservations_(reservations),
      candidates_(std::move(candidates)) {
  if (topology_ != nullptr) {
    hostname_ = topology_->NewHostname();
    host_id_ = topology_->ClaimHostId(hostname_);
    hostname_requirement_ = scheduling::Requirement::In(api::kLabelHostname, {hostname_});
  }
  host_ports_.Add(node_claim_template.daemon_host_ports);
  // Candidates only ever narrow to a subset, which the cache then covers too.
  compatibility_covers_ = compatibility_ != nullptr && compatibility_->Covers(candidates_);
  UpdateHeadroom(/*candidates_changed=*/true);
}

void InFlightNodeClaim::UpdateHeadroom(bool candidates_changed) {
  // The roomiest type per resource bounds them all: `RoomUpperBound` grows with the room (or
  // saturates, which only loosens the bound MayFit relies on).
  if (candidates_.empty()) {
    headroom_ = {INT64_MIN, INT64_MIN, INT64_MIN};
    return;
  }
  // Candidates only narrow, so an unchanged count means the same types and the same roomiest.
  if (candidates_changed) {
    roomiest_ = {INT64_MIN, INT64_MIN, INT64_MIN};
    for (const TypeCandidate* candidate : candidates_) {
      roomiest_.cpu = std::max(roomiest_.cpu, candidate->room.cpu);
      roomiest_.memory = std::max(roomiest_.memory, candidate->room.memory);
      roomiest_.pods = std::max(roomiest_.pods, candidate->room.pods);
    }
  }
  const ResourceFootprint used = FootprintOf(pod_requests_);
  headroom_ = {RoomUpperBound(roomiest_.cpu, 0, used.cpu),
               RoomUpperBound(roomiest_.memory, 0, used.memory),
               RoomUpperBound(roomiest_.pods, 0, used.pods)};
}

namespace {

// The requirements of `narrowed` that differ from (or are missing in) `wider`, of which it is a
// narrowing; kubernetes.io/hostname is set aside since instance types never carry it.
std::vector<const scheduling::Requirement*> ChangedExceptHostname(
    const scheduling::Requirements& narrowed, const scheduling::Requirements& wider) {
  std::vector<const scheduling::Requirement*> changed;
  auto old = wider.begin();
  for (const scheduling::Requirement& requirement : narrowed) {
    if (requirement.key() == api::kLabelHostname) continue;
    while (old != wider.end() && old->key() < requirement.key()) ++old;
    if (old == wider.end() || old->key() != requirement.key() || !(*old == requirement)) {
      changed.push_back(&requirement);
    }
  }
  return changed;
}

}  // namespace

absl::Status InFlightNodeClaim::Add(const PodAttempt& attempt,
                                    const scheduling::Requirements& pod_requirements,
                                    const api::ResourceList& pod_requests,
                                    const SchedulerOptions& options,
                                    const scheduling::Requirements* strict_pod_requirements,
                                    bool explain) {
  const absl::Status unexplained = absl::FailedPreconditionError("");
  if (!explain) {
    if (!api::ToleratesAll(attempt.tolerations, template_->taints,
                           /*ignore_prefer_no_schedule=*/false)) {
      return unexplained;
    }
  } else {
    KP_RETURN_IF_ERROR(CheckTaints(template_->taints, attempt.tolerations));
  }

  const std::vector<HostPort> ports = HostPortsOf(*attempt.pod);
  if (absl::Status status = host_ports_.Conflicts(ports); !status.ok()) {
    if (!explain) return unexplained;
    return absl::FailedPreconditionError(
        fmt::format("checking host port usage, {}", std::string(status.message())));
  }

  if (!explain) {
    if (!requirements_.IsCompatible(pod_requirements, options.well_known_labels)) {
      return unexplained;
    }
  } else if (absl::Status status =
                 requirements_.Compatible(pod_requirements, options.well_known_labels);
             !status.ok()) {
    return absl::FailedPreconditionError(
        fmt::format("incompatible requirements, {}", std::string(status.message())));
  }
  scheduling::Requirements requirements = requirements_;
  requirements.Add(pod_requirements);
  if (topology_ != nullptr) {
    // Last of the requirement checks: it may pick one domain out of several, which would make
    // checks after it fail needlessly.
    requirements.Add(hostname_requirement_);
    KP_RETURN_IF_ERROR(topology_->AddRequirements(
        attempt, strict_pod_requirements ? *strict_pod_requirements : pod_requirements,
        template_->taints, &options.well_known_labels, requirements, explain));
  }

  api::ResourceList requests = Merge(pod_requests_, pod_requests);
  FilterResult filtered;
  // Every remaining type met the claim's earlier requirements and had an allowed offering: only
  // the keys the pod narrowed, and resources, can rule one out now.
  const std::vector<const scheduling::Requirement*> changed =
      candidates_meet_requirements_ ? ChangedExceptHostname(requirements, requirements_)
                                    : std::vector<const scheduling::Requirement*>();
  if (candidates_meet_requirements_ && changed.empty()) {
    filtered.remaining = KeepFitting(candidates_, requests);
  } else if (compatibility_covers_) {
    filtered.remaining = compatibility_->Filter(candidates_, requirements, requests);
  } else if (candidates_meet_requirements_) {
    filtered.remaining = NarrowCandidates(candidates_, requirements, changed, requests);
  } else {
    filtered = FilterInstanceTypes(candidates_, requirements, requests, /*explain=*/false);
  }
  bool relaxed = false;
  if (!filtered.remaining.empty()) {
    const std::string unmet = UnmetMinValuesKey(filtered.remaining, requirements);
    if (!unmet.empty()) {
      // Upstream relaxes minValues (BestEffort) only when a pod opens a new NodeClaim: a claim
      // that already holds pods is offered the pod with relaxation off (addToInflightNode), so
      // it stays as wide as minValues asks and the pod opens another claim instead.
      if (options.min_values_policy == MinValuesPolicy::kStrict || !pods_.empty()) {
        if (!explain) return unexplained;
        return absl::FailedPreconditionError(fmt::format("min requirement not met for {}", unmet));
      }
      relaxed = RelaxMinValues(filtered.remaining, requirements);
    }
  }
  if (filtered.remaining.empty()) {
    if (!explain) return unexplained;
    filtered = FilterInstanceTypes(candidates_, requirements, requests, /*explain=*/true);
    // Upstream reports the daemonset overhead plus this pod, not the claim's earlier pods.
    return absl::FailedPreconditionError(
        fmt::format("no instance type satisfied resources {} and requirements {} ({})",
                    ResourcesString(Merge(template_->daemon_overhead, pod_requests)),
                    requirements.ToString(), filtered.FailureReason()));
  }

  std::vector<std::string> reservation_ids;
  if (reservations_ != nullptr) {
    KP_ASSIGN_OR_RETURN(reservation_ids,
                        ReservationsToHold(filtered.remaining, requirements, options));
  }

  if (topology_ != nullptr) {
    // Registering is idempotent: the claim's first pod registers its hostname for good.
    if (pods_.empty()) topology_->Register(api::kLabelHostname, hostname_);
    topology_->Record(*attempt.pod, template_->taints, requirements, &options.well_known_labels);
    requirements.Remove(api::kLabelHostname);
  }
  pods_.push_back(attempt.pod);
  const bool candidates_changed = filtered.remaining.size() != candidates_.size();
  candidates_ = std::move(filtered.remaining);
  candidates_meet_requirements_ = true;
  pod_requests_ = std::move(requests);
  requirements_ = std::move(requirements);
  min_values_relaxed_ |= relaxed;
  host_ports_.Add(ports);
  if (reservations_ != nullptr) HoldReservations(std::move(reservation_ids));
  UpdateHeadroom(candidates_changed);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> InFlightNodeClaim::ReservationsToHold(
    const CandidateList& remaining, const scheduling::Requirements& requirements,
    const SchedulerOptions& options) const {
  const OfferingFilter allowed(requirements);
  bool any_compatible = false;
  std::set<std::string> ids;
  for (const TypeCandidate* candidate : remaining) {
    for (const OfferingView& offering : candidate->type->offerings) {
      if (!offering.reserved() || !offering.available || !allowed.Allows(offering)) continue;
      any_compatible = true;
      // Pessimistic: every reservation the claim might launch into is held, since which one
      // the launch takes is not known yet.
      if (reservations_->CanReserve(hostname_, offering.reservation_id)) {
        ids.insert(offering.reservation_id);
      }
    }
  }
  if (options.reserved_offering_mode == ReservedOfferingMode::kStrict && ids.empty()) {
    if (any_compatible) {
      return ReservedOfferingError(
          "one or more instance types with compatible reserved offerings are available, but "
          "could not be reserved");
    }
    if (!reservation_ids_.empty()) {
      return ReservedOfferingError(
          "satisfying updated nodeclaim constraints would remove all compatible reserved "
          "offering options");
    }
  }
  return std::vector<std::string>(ids.begin(), ids.end());
}

void InFlightNodeClaim::HoldReservations(std::vector<std::string> ids) {
  reservations_->Reserve(hostname_, ids);
  for (const std::string& held : reservation_ids_) {
    if (!std::binary_search(ids.begin(), ids.end(), held)) reservations_->Release(hostname_, held);
  }
  reservation_ids_ = std::move(ids);
}

void InFlightNodeClaim::NarrowToReservations() {
  if (reservations_ == nullptr) return;
  if (reservation_ids_.empty()) {
    // Every reservation this claim could use is held by other claims of the solve (fallback
    // mode; strict mode fails such pods instead). Upstream leaves the claim's requirements open
    // and its launch finds those reservations used up by the claims holding them; saying so
    // here makes the launch prediction agree.
    requirements_.Add(scheduling::Requirement::DoesNotExist(api::kLabelCapacityReservationID));
    return;
  }
  requirements_.Remove(api::kCapacityTypeLabelKey);
  requirements_.Add(
      scheduling::Requirement::In(api::kCapacityTypeLabelKey, {api::kCapacityTypeReserved}));
  requirements_.Add(
      scheduling::Requirement::In(api::kLabelCapacityReservationID, reservation_ids_));
}

}  // namespace karpenter::provisioning
