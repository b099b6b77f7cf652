#include "src/sim/latency.h"

#include <algorithm>
#include <iterator>

#include "fmt/format.h"

namespace karpenter::sim {

SimMillis Sample(const Range& range, Random& random) {
  return SecondsToMillis(random.Uniform(range.min_seconds, range.max_seconds));
}

const std::vector<LatencyParameter>& LatencyParameters() {
  static const std::vector<LatencyParameter>* const kParameters = new std::vector<LatencyParameter>{
      {"instanceBootToRegistered",
       "peers.md §3.1 B1: 30–40 s (35 s measured, [L1] cold-start timelines; [KAWS] 40s+)",
       &LatencyModel::instance_boot_to_registered},
      {"registeredToReady", "peers.md §3.1 B2: 10–20 s ([L1] +20 s; CNI and node conditions)",
       &LatencyModel::registered_to_ready},
      {"kubeSchedulerBind", "peers.md §3.1 B3: ~1 s (assumption)",
       &LatencyModel::kube_scheduler_bind},
      {"controllerRecreate", "ReplicaSet controller sync after an eviction: ~1 s (assumption)",
       &LatencyModel::controller_recreate},
      {"batchIdle", "BATCH_IDLE_DURATION 1s (Karpenter settings, peers.md §2)",
       &LatencyModel::batch_idle},
      {"batchMax", "BATCH_MAX_DURATION 10s (Karpenter settings, peers.md §2)",
       &LatencyModel::batch_max},
      {"createFleet", "peers.md §3.2 K4: NodeClaim → CreateFleet done ~3 s ([L1])",
       &LatencyModel::create_fleet},
      {"unavailableOfferingTtl", "ICE cache 3 min (aws pkg/cache/cache.go, peers.md §2)",
       &LatencyModel::unavailable_offering_ttl},
      {"registrationTimeout", "NodeClaim registration timeout 15 min (liveness.go, peers.md §2)",
       &LatencyModel::registration_timeout},
      {"disruptionPoll", "disruption controller poll 10 s (peers.md §2)",
       &LatencyModel::disruption_poll},
      {"interruptionDelivery",
       "EventBridge to SQS to a 20 s long poll (features §6); assumption: seconds",
       &LatencyModel::interruption_delivery},
      {"caScanInterval", "--scan-interval 10s; frequent loops off before CA 1.35 (peers.md §1.1)",
       &LatencyModel::ca_scan_interval},
      {"caLoopCompute", "peers.md §3.3 C2: avg 5 s below 100 nodes (CA FAQ SLO)",
       &LatencyModel::ca_loop_compute},
      {"asgLaunchDelay",
       "peers.md §3.3 C3: SetDesiredCapacity → RunInstances 5–15 s (assumption, calibrate)",
       &LatencyModel::asg_launch_delay},
      {"asgRefreshInterval", "aws_manager.go refreshInterval 1 min (peers.md §1.1 step 8)",
       &LatencyModel::asg_refresh_interval},
      {"maxNodeProvisionTime", "--max-node-provision-time 15m (peers.md §1.1 step 7)",
       &LatencyModel::max_node_provision_time},
      {"nodeGroupBackoff", "--initial-node-group-backoff-duration 5m (peers.md §1.1 step 7)",
       &LatencyModel::node_group_backoff},
      {"nodeGroupMaxBackoff", "--max-node-group-backoff-duration 30m (peers.md §1.1 step 7)",
       &LatencyModel::node_group_max_backoff},
      {"scaleDownUnneededTime", "--scale-down-unneeded-time 10m (peers.md §1.3)",
       &LatencyModel::scale_down_unneeded_time},
      {"scaleDownDelayAfterAdd", "--scale-down-delay-after-add 10m (peers.md §1.3)",
       &LatencyModel::scale_down_delay_after_add},
  };
  return *kParameters;
}

namespace {

// Loops that schedule their next round this long after the last: a period of 0 ran the loop
// forever at one instant, and anything under a second only burns time (upstream's are 10 s+).
constexpr std::string_view kPeriods[] = {"disruptionPoll", "caScanInterval", "asgRefreshInterval"};
constexpr double kMinPeriodSeconds = 1;

}  // namespace

absl::Status OverrideLatency(LatencyModel& model, std::string_view name, Range value) {
  if (value.min_seconds < 0 || value.max_seconds < value.min_seconds) {
    return absl::InvalidArgumentError(fmt::format("{}: need 0 <= min <= max, got min {} max {}",
                                                  name, value.min_seconds, value.max_seconds));
  }
  if (std::find(std::begin(kPeriods), std::end(kPeriods), name) != std::end(kPeriods) &&
      value.min_seconds < kMinPeriodSeconds) {
    return absl::InvalidArgumentError(
        fmt::format("{}: a loop's period must be at least {} s, got min {}", name,
                    kMinPeriodSeconds, value.min_seconds));
  }
  for (const LatencyParameter& parameter : LatencyParameters()) {
    if (parameter.name == name) {
      model.*parameter.field = value;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(fmt::format("{}: unknown latency parameter", name));
}

}  // namespace karpenter::sim
