// Every delay and timer of the twin, with its documented default and where the default comes
// from (../shared/reference/peers.md §1–§3, upstream flags and docs). Each is a uniform range
// [min, max] in seconds (a fixed value has min == max), drawn per occurrence from the run's
// seeded Random. Scenario files override them by name (`latency: {name: {min: .., max: ..}}`).
// Nothing here encodes an outcome: pod-pending and node-ready times emerge from how these
// steps chain in the modelled mechanisms.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "src/sim/event_queue.h"
#include "src/sim/random.h"

namespace karpenter::sim {

struct Range {
  double min_seconds = 0;
  double max_seconds = 0;
  friend bool operator==(const Range&, const Range&) = default;
};

// A draw from `range`, in simulated milliseconds.
SimMillis Sample(const Range& range, Random& random);

struct LatencyModel {
  // --- shared node bring-up (peers.md §3.1; identical for both autoscalers) ---
  // B1: EC2 instance accepted → running → boot → kubelet registers the Node.
  Range instance_boot_to_registered{30, 40};
  // B2: Node registered → Ready (VPC CNI up, conditions true).
  Range registered_to_ready{10, 20};
  // B3: kube-scheduler binds a pending pod once a node can take it.
  Range kube_scheduler_bind{0.5, 1.5};
  // Eviction → replacement pod created by its controller (ReplicaSet sync).
  Range controller_recreate{0.5, 1.5};

  // --- Karpenter (peers.md §2, §3.2) ---
  // K2: BATCH_IDLE_DURATION and BATCH_MAX_DURATION.
  Range batch_idle{1, 1};
  Range batch_max{10, 10};
  // K4: NodeClaim created → CreateFleet returned an instance.
  Range create_fleet{2, 4};
  // An offering that returned InsufficientInstanceCapacity is skipped for this long.
  Range unavailable_offering_ttl{180, 180};
  // Liveness: a launched NodeClaim whose Node has not registered by then is deleted.
  Range registration_timeout{900, 900};
  // Disruption controller poll.
  Range disruption_poll{10, 10};
  // An EC2 event reaching Karpenter: EventBridge rule → SQS → the controller's 20 s long poll,
  // which returns as soon as a message is there.
  Range interruption_delivery{1, 3};

  // --- Cluster Autoscaler on AWS (peers.md §1, §3.3) ---
  // C1: --scan-interval (frequent loops off, as in CA 1.30–1.34).
  Range ca_scan_interval{10, 10};
  // C2: loop compute until IncreaseSize (FAQ SLO: avg ~5 s below 100 nodes).
  Range ca_loop_compute{1, 9};
  // C3: SetDesiredCapacity → ASG activity calls RunInstances (an assumption; peers.md §3.3).
  Range asg_launch_delay{5, 15};
  // The AWS provider's ASG cache refresh (aws_manager.go refreshInterval), when failed
  // scaling activities are noticed.
  Range asg_refresh_interval{60, 60};
  // --max-node-provision-time.
  Range max_node_provision_time{900, 900};
  // --initial-node-group-backoff-duration (doubling up to --max-node-group-backoff-duration).
  Range node_group_backoff{300, 300};
  Range node_group_max_backoff{1800, 1800};
  // --scale-down-unneeded-time and --scale-down-delay-after-add.
  Range scale_down_unneeded_time{600, 600};
  Range scale_down_delay_after_add{600, 600};
};

// One overridable parameter: its scenario-file name, where the default comes from, and the
// field it sets.
struct LatencyParameter {
  std::string_view name;
  std::string_view source;
  Range LatencyModel::*field;
};

// Every parameter, in documentation order.
const std::vector<LatencyParameter>& LatencyParameters();

// Sets `name` in `model`; InvalidArgument naming the parameter for an unknown name or a range
// with min > max or a negative bound.
absl::Status OverrideLatency(LatencyModel& model, std::string_view name, Range value);

}  // namespace karpenter::sim
