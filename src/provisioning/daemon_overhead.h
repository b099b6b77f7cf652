// Which daemonsets will run on a node (upstream scheduler.go getDaemonOverhead and
// existingnode.go): a daemonset pod counts when it tolerates the node's taints (PreferNoSchedule
// never keeps a daemonset away) and its required node affinity, relaxed term by term, is
// compatible with the node's requirements.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "src/api/pod.h"
#include "src/api/resource_list.h"
#include "src/api/taint.h"
#include "src/scheduling/requirements.h"
#include "src/scheduling/well_known_labels.h"

namespace karpenter::provisioning {

// The daemonset pod's strict node requirements (for the first required term that works), or
// nullopt when it will not run there. `allow_undefined` null means strict compatibility, as
// for the labels of an existing node.
std::optional<scheduling::Requirements> DaemonRequirementsOn(
    const api::Pod& daemon, const scheduling::Requirements& node_requirements,
    const std::vector<api::Taint>& taints, const scheduling::WellKnownLabels* allow_undefined);

// Summed requests of the daemonsets that will run on the node.
api::ResourceList DaemonOverheadOn(std::span<const api::Pod> daemons,
                                   const scheduling::Requirements& node_requirements,
                                   const std::vector<api::Taint>& taints,
                                   const scheduling::WellKnownLabels* allow_undefined);

}  // namespace karpenter::provisioning
