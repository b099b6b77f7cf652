#include "src/provisioning/nodeclaim.h"

#include <algorithm>
#include <climits>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/taint_match.h"
#include "src/provisioning/resources.h"

namespace karpenter::provisioning {

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
                                     CandidateList candidates, Topology* topology)
    : template_(&node_claim_template),
      requirements_(node_claim_template.requirements),
      topology_(topology),
      candidates_(std::move(candidates)) {
  if (topology_ != nullptr) {
    hostname_ = topology_->NewHostname();
    host_id_ = topology_->ClaimHostId(hostname_);
  }
  host_ports_.Add(node_claim_template.daemon_host_ports);
  UpdateHeadroom();
}

void InFlightNodeClaim::UpdateHeadroom() {
  const ResourceFootprint used = FootprintOf(pod_requests_);
  ResourceFootprint most{INT64_MIN, INT64_MIN, INT64_MIN};
  for (const TypeCandidate* candidate : candidates_) {
    most.cpu = std::max(most.cpu, RoomUpperBound(candidate->room.cpu, 0, used.cpu));
    most.memory = std::max(most.memory, RoomUpperBound(candidate->room.memory, 0, used.memory));
    most.pods = std::max(most.pods, RoomUpperBound(candidate->room.pods, 0, used.pods));
  }
  headroom_ = most;
}

namespace {

// Whether the two requirement sets are equal once kubernetes.io/hostname is set aside.
bool SameExceptHostname(const scheduling::Requirements& a, const scheduling::Requirements& b) {
  auto it_a = a.begin();
  auto it_b = b.begin();
  auto skip = [](auto& it, const scheduling::Requirements& set) {
    while (it != set.end() && it->key() == api::kLabelHostname) ++it;
  };
  while (true) {
    skip(it_a, a);
    skip(it_b, b);
    if (it_a == a.end() || it_b == b.end()) return it_a == a.end() && it_b == b.end();
    if (!(*it_a == *it_b)) return false;
    ++it_a;
    ++it_b;
  }
}

}  // namespace

absl::Status InFlightNodeClaim::Add(const PodAttempt& attempt,
                                    const scheduling::Requirements& pod_requirements,
                                    const api::ResourceList& pod_requests,
                                    const SchedulerOptions& options,
                                    const scheduling::Requirements* strict_pod_requirements) {
  KP_RETURN_IF_ERROR(CheckTaints(template_->taints, attempt.tolerations));

  const std::vector<HostPort> ports = HostPortsOf(*attempt.pod);
  if (absl::Status status = host_ports_.Conflicts(ports); !status.ok()) {
    return absl::FailedPreconditionError(
        fmt::format("checking host port usage, {}", std::string(status.message())));
  }

  if (absl::Status status = requirements_.Compatible(pod_requirements, options.well_known_labels);
      !status.ok()) {
    return absl::FailedPreconditionError(
        fmt::format("incompatible requirements, {}", std::string(status.message())));
  }
  scheduling::Requirements requirements = requirements_;
  requirements.Add(pod_requirements);
  if (topology_ != nullptr) {
    // Last of the requirement checks: it may pick one domain out of several, which would make
    // checks after it fail needlessly.
    requirements.Add(scheduling::Requirement::In(api::kLabelHostname, {hostname_}));
    KP_RETURN_IF_ERROR(topology_->AddRequirements(
        attempt, strict_pod_requirements ? *strict_pod_requirements : pod_requirements,
        template_->taints, &options.well_known_labels, requirements));
  }

  const api::ResourceList requests = Merge(pod_requests_, pod_requests);
  FilterResult filtered;
  if (candidates_meet_requirements_ && SameExceptHostname(requirements, requirements_)) {
    // The pod narrowed nothing, so every remaining type still meets the requirements and has an
    // allowed offering: only resources can rule one out now.
    filtered.remaining = KeepFitting(candidates_, requests);
  } else {
    filtered = FilterInstanceTypes(candidates_, requirements, requests, /*explain=*/false);
  }
  bool relaxed = false;
  if (!filtered.remaining.empty()) {
    const std::string unmet = UnmetMinValuesKey(filtered.remaining, requirements);
    if (!unmet.empty()) {
      if (options.min_values_policy == MinValuesPolicy::kStrict) {
        return absl::FailedPreconditionError(fmt::format("min requirement not met for {}", unmet));
      }
      relaxed = RelaxMinValues(filtered.remaining, requirements);
    }
  }
  if (filtered.remaining.empty()) {
    filtered = FilterInstanceTypes(candidates_, requirements, requests, /*explain=*/true);
    // Upstream reports the daemonset overhead plus this pod, not the claim's earlier pods.
    return absl::FailedPreconditionError(
        fmt::format("no instance type satisfied resources {} and requirements {} ({})",
                    ResourcesString(Merge(template_->daemon_overhead, pod_requests)),
                    requirements.ToString(), filtered.FailureReason()));
  }

  if (topology_ != nullptr) {
    topology_->Register(api::kLabelHostname, hostname_);
    topology_->Record(*attempt.pod, template_->taints, requirements, &options.well_known_labels);
    requirements.Remove(api::kLabelHostname);
  }
  pods_.push_back(attempt.pod);
  candidates_ = std::move(filtered.remaining);
  candidates_meet_requirements_ = true;
  pod_requests_ = requests;
  requirements_ = std::move(requirements);
  min_values_relaxed_ |= relaxed;
  host_ports_.Add(ports);
  UpdateHeadroom();
  return absl::OkStatus();
}

}  // namespace karpenter::provisioning
