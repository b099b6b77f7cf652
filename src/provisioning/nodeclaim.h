// NodeClaims in the making (upstream scheduling/nodeclaim.go and nodeclaimtemplate.go): the
// per-NodePool template a claim starts from, and a claim that accumulates pods while narrowing
// its requirements and its list of still-possible instance types.
//
// Placement checks run in a fixed order: taints, host ports, node requirements, topology spread
// and pod (anti-)affinity (which narrow the requirements, e.g. to one zone), then the
// instance-type filter.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/resource_list.h"
#include "src/api/taint.h"
#include "src/provisioning/compatibility_cache.h"
#include "src/provisioning/host_ports.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/preferences.h"
#include "src/provisioning/reservation_manager.h"
#include "src/provisioning/topology.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

struct NodeClaimTemplate {
  std::string node_pool;
  // Template requirements (with minValues) ∩ template labels ∩ karpenter.sh/nodepool.
  scheduling::Requirements requirements;
  std::map<std::string, std::string> labels;  // Template labels plus karpenter.sh/nodepool.
  std::vector<api::Taint> taints;  // startupTaints are not listed: pods need not tolerate them.
  // Types whose requirements intersect the template's, with their daemonset overhead.
  std::vector<TypeCandidate> candidates;
  // Requests of the daemonsets compatible with the template (error messages).
  api::ResourceList daemon_overhead;
  std::vector<HostPort> daemon_host_ports;
};

// Upstream ReservedOfferingError: the pod could use reserved capacity but none is left for it in
// this solve (ReservedOfferingMode::kStrict). The scheduler neither relaxes the pod's preferences
// nor tries lower-weight NodePools on such an error. Its code is ResourceExhausted, which no
// other placement failure uses.
absl::Status ReservedOfferingError(std::string_view message);
bool IsReservedOfferingError(const absl::Status& status);

// "did not tolerate key=value:Effect" for the first untolerated taint (PreferNoSchedule
// included: relaxation adds a toleration for those).
absl::Status CheckTaints(const std::vector<api::Taint>& taints,
                         const std::vector<api::Toleration>& tolerations);

class InFlightNodeClaim {
 public:
  // With a `topology`, the claim takes a placeholder hostname from it and placements honour
  // and record topology spread and pod (anti-)affinity. A `compatibility` cache over the
  // template's candidates (shared by the template's claims) saves re-checking types.
  // With `reservations`, the claim holds (by its hostname) the reservations of the reserved
  // offerings its remaining types could launch into, and a pod that would leave it none while
  // some are compatible fails under ReservedOfferingMode::kStrict.
  InFlightNodeClaim(const NodeClaimTemplate& node_claim_template, CandidateList candidates,
                    Topology* topology = nullptr, CompatibilityCache* compatibility = nullptr,
                    ReservationManager* reservations = nullptr);

  // Places the pod when every check passes and at least one instance type remains (with
  // minValues met, or lowered under BestEffort when the pod is the claim's first); otherwise
  // leaves the claim unchanged.
  // `strict_pod_requirements` (no preferred node affinity; null: `pod_requirements`) bound the
  // domains topology constraints may pick. With `explain` the error says why the pod does not
  // fit; without, only its code is meaningful (the message may be empty): for callers that
  // drop the reason, since formatting it costs more than the checks themselves.
  absl::Status Add(const PodAttempt& attempt, const scheduling::Requirements& pod_requirements,
                   const api::ResourceList& pod_requests, const SchedulerOptions& options,
                   const scheduling::Requirements* strict_pod_requirements = nullptr,
                   bool explain = true);

  // False when the pod certainly fits none of the remaining types: for cpu, memory or pod slots
  // it asks more than the roomiest type has left. True says nothing; Add decides.
  bool MayFit(const ResourceFootprint& pod) const {
    return pod.cpu <= headroom_.cpu && pod.memory <= headroom_.memory && pod.pods <= headroom_.pods;
  }

  const NodeClaimTemplate& node_claim_template() const { return *template_; }
  // The placeholder hostname topology knows the claim by ("" without a topology).
  const std::string& hostname() const { return hostname_; }
  uint32_t host_id() const { return host_id_; }  // Topology::HostId of the hostname.
  const scheduling::Requirements& requirements() const { return requirements_; }
  // Pointers into the template's candidates: the template must outlive the claim.
  const CandidateList& candidates() const { return candidates_; }
  const api::ResourceList& pod_requests() const { return pod_requests_; }
  const std::vector<const api::Pod*>& pods() const { return pods_; }
  bool min_values_relaxed() const { return min_values_relaxed_; }
  // The reservations the claim holds, sorted.
  const std::vector<std::string>& reservation_ids() const { return reservation_ids_; }

  // Upstream FinalizeScheduling: a claim holding reservations launches only into them, so its
  // capacity type becomes `reserved` and karpenter.k8s.aws/capacity-reservation-id the held IDs
  // (a reserved NodeClaim then drifts when its reservation goes). A claim that holds none while
  // the solve has reservations is kept off them (they are other claims'). No-op without a
  // ReservationManager.
  void NarrowToReservations();

 private:
  // The reservations the claim keeps with `remaining` types under `requirements`; a
  // ReservedOfferingError when strict mode forbids losing them all.
  absl::StatusOr<std::vector<std::string>> ReservationsToHold(
      const CandidateList& remaining, const scheduling::Requirements& requirements,
      const SchedulerOptions& options) const;
  void HoldReservations(std::vector<std::string> ids);

  const NodeClaimTemplate* template_;
  // Never holds kubernetes.io/hostname: the placeholder below is added only while topology is
  // consulted, so it cannot leak into the finalized NodeClaim.
  scheduling::Requirements requirements_;
  Topology* topology_;
  CompatibilityCache* compatibility_;
  bool compatibility_covers_ = false;  // `compatibility_` may filter `candidates_`.
  ReservationManager* reservations_;
  std::vector<std::string> reservation_ids_;
  std::string hostname_;
  scheduling::Requirement hostname_requirement_;  // `hostname In [hostname_]`, built once.
  uint32_t host_id_ = 0;
  // Whether every candidate met `requirements_` (and had an allowed offering) when last
  // filtered; the template's candidates were never checked against offerings.
  bool candidates_meet_requirements_ = false;
  CandidateList candidates_;
  api::ResourceList pod_requests_;
  std::vector<const api::Pod*> pods_;
  HostPortUsage host_ports_;
  bool min_values_relaxed_ = false;
  // Per resource, the most any remaining type has left after the claim's pods and its
  // daemonsets (kept in step with `candidates_` and `pod_requests_`).
  ResourceFootprint headroom_;
  ResourceFootprint roomiest_;  // Per resource, the most room any remaining type has.

  // `candidates_changed`: `candidates_` lost a type since the last update (or is new).
  void UpdateHeadroom(bool candidates_changed);
};

}  // namespace karpenter::provisioning
