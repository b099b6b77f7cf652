// Upstream: pkg/scheduling/volumeusage.go
// CSI attach limits (P14): which persistent volumes a pod mounts, grouped by the CSI driver that
// attaches them, and how many volumes each driver may attach to a node (its CSINode). A node
// cannot take a pod whose new volumes would push a driver past its limit.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "src/api/pod.h"
#include "src/api/storage.h"
#include "src/state/snapshot.h"

namespace karpenter::state {

// Driver name -> volume ids ("namespace/claim").
using VolumesByDriver = std::map<std::string, std::set<std::string>>;

// The claims the pod mounts (persistentVolumeClaim and generic ephemeral volumes) by driver:
// the bound volume's CSI driver, else its StorageClass provisioner (in-tree EBS counts as the
// EBS CSI driver). Claims with no CSI driver to resolve are left out.
VolumesByDriver PodVolumes(const ClusterSnapshot& snapshot, const api::Pod& pod);

// Driver name -> the most volumes it may attach, for drivers whose allocatable count is set.
std::map<std::string, int64_t> VolumeLimits(const api::CSINode& csi_node);

// Adds `more` into `into`.
void AddVolumes(VolumesByDriver& into, const VolumesByDriver& more);

// The first driver whose limit `in_use` plus `more` (volumes counted once) would exceed, or ""
// when none would.
std::string ExceededVolumeLimit(const std::map<std::string, int64_t>& limits,
                                const VolumesByDriver& in_use, const VolumesByDriver& more);

}  // namespace karpenter::state
