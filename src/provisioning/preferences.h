// A pod as one scheduling attempt sees it (upstream preferences.go): a working copy of the
// parts preference relaxation edits (affinity and tolerations), the relaxation steps in
// upstream's order, and the PREFERENCE_POLICY=Ignore stripping. The original pod is never
// modified, so a failed pod is re-queued unrelaxed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/box.h"
#include "src/api/pod.h"
#include "src/scheduling/requirements.h"
#include "src/state/volume_usage.h"

namespace karpenter::provisioning {

struct PodAttempt {
  const api::Pod* pod = nullptr;
  api::Box<api::Affinity> affinity;
  std::vector<api::Toleration> tolerations;
  std::vector<api::TopologySpreadConstraint> topology_spread_constraints;
  // The persistent volumes the pod mounts, by CSI driver (attach limits, P14); null: none known.
  const state::VolumesByDriver* volumes = nullptr;

  explicit PodAttempt(const api::Pod& original);
  // nodeSelector ∩ first required node-affinity term ∩ heaviest preferred node-affinity term.
  absl::StatusOr<scheduling::Requirements> Requirements() const;
  // The same without preferred terms (what daemonset compatibility uses).
  absl::StatusOr<scheduling::Requirements> StrictRequirements() const;
};

// Drops every preference up front (PREFERENCE_POLICY=Ignore): preferred node affinity,
// preferred pod (anti-)affinity and ScheduleAnyway spread constraints.
void IgnorePreferences(PodAttempt& attempt);

// One relaxation step, the first that applies of: drop the first required node-affinity term
// when more than one remain (they are ORed), drop the heaviest preferred pod-affinity term, the
// heaviest preferred pod-anti-affinity term, the heaviest preferred node-affinity term, one
// ScheduleAnyway spread constraint, then (only with `tolerate_prefer_no_schedule`) tolerate
// every PreferNoSchedule taint. False when nothing is left to relax.
bool Relax(PodAttempt& attempt, bool tolerate_prefer_no_schedule);

// Adds `{operator: Exists, effect: PreferNoSchedule}` unless present; false when present.
bool ToleratePreferNoSchedule(std::vector<api::Toleration>& tolerations);

// A restricted label (kubernetes.io/hostname, karpenter.sh/... outside the well-known keys) in
// the pod's nodeSelector or required node affinity: the reason, or nullopt.
std::optional<std::string> RestrictedLabelViolation(const api::Pod& pod);

}  // namespace karpenter::provisioning
