#include "src/sim/drain.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "src/controllers/drain_order.h"
#include "src/controllers/eviction_queue.h"
#include "src/state/pod_predicates.h"

namespace karpenter::sim {
namespace {

struct DrainState {
  Cluster& cluster;
  std::string node_name;
  DrainOptions options;
  std::function<void(bool)> done;
  SimMillis started = 0;
  std::map<std::string, SimMillis> backoff;       // pod -> its current retry delay
  std::map<std::string, SimMillis> next_attempt;  // pod -> earliest retry
  std::set<std::string> reported;                 // pods whose refusal was logged
};

// The pods the drain waits to see gone: under Karpenter's tiers every pod of the node but static
// ones, DaemonSet pods included (upstream's drain evicts them too); otherwise, as `kubectl
// drain` and Cluster Autoscaler, the workload pods.
std::vector<const PodRecord*> PodsToDrain(const DrainState& drain) {
  std::vector<const PodRecord*> pods;
  if (drain.options.priority_tiers) {
    for (const auto& [key, record] : drain.cluster.pod_store().OnNode(drain.node_name)) {
      if (!state::IsOwnedByNode(record->pod)) pods.push_back(record);
    }
  } else {
    pods = drain.cluster.WorkloadPodsOn(drain.node_name);
  }
  if (drain.options.skip_disrupted_tolerating) {
    std::erase_if(pods, [](const PodRecord* record) {
      return state::ToleratesDisruptedNoScheduleTaint(record->pod);
    });
  }
  return pods;
}

// The pods this drain still has to evict, in the tier it is working on (controllers::DrainTier,
// the first one with a pod left). A tier is done once its pods are gone, not just evicted:
// `terminating_until` is when the last of the tier's terminating pods leaves (-1: none).
std::vector<std::string> PodsToEvict(const DrainState& drain, SimMillis& terminating_until) {
  terminating_until = -1;
  std::vector<const PodRecord*> pods = PodsToDrain(drain);
  if (drain.options.priority_tiers) {
    controllers::DrainTier first = controllers::DrainTier::kCriticalDaemon;
    for (const PodRecord* record : pods) {
      first = std::min(first, controllers::DrainTierOf(record->pod));
    }
    std::erase_if(pods, [first](const PodRecord* record) {
      return controllers::DrainTierOf(record->pod) != first;
    });
  }
  std::vector<std::string> keys;
  for (const PodRecord* record : pods) {
    if (record->terminating()) {
      terminating_until = std::max(terminating_until, record->terminating_until);
      continue;
    }
    keys.push_back(record->pod.metadata.namespace_ + "/" + record->pod.metadata.name);
  }
  return keys;
}

// Upstream's terminator deletes, before the node's terminationGracePeriod runs out, every pod
// whose own grace period would outlast it (controllers::NeedsForceDelete), granting it what is
// left: PDBs and do-not-disrupt do not hold it, and it is gone by the deadline. Returns when the
// next such pod is due (max: none).
SimMillis DeletePodsOutlastingTheDeadline(DrainState& drain, SimMillis now) {
  Cluster& cluster = drain.cluster;
  const SimMillis deadline = drain.started + *drain.options.force_after;
  const api::Time deadline_time = cluster.queue().Now() + api::Duration::FromMillis(deadline - now);
  SimMillis next = std::numeric_limits<SimMillis>::max();
  std::vector<std::string> due;
  for (const PodRecord* record : PodsToDrain(drain)) {
    // Evicted already: the forced drain at the deadline ends it if it is still there.
    if (record->terminating()) continue;
    if (controllers::NeedsForceDelete(record->pod, deadline_time, cluster.queue().Now())) {
      due.push_back(record->pod.metadata.namespace_ + "/" + record->pod.metadata.name);
    } else if (record->pod.spec.termination_grace_period_seconds) {
      // Due the first millisecond after its grace period, started then, would end past it.
      SimMillis grace = 0;
      if (!__builtin_mul_overflow(*record->pod.spec.termination_grace_period_seconds,
                                  SimMillis{1000}, &grace) &&
          deadline - grace >= now) {
        next = std::min(next, deadline - grace + 1);
      }
    }
  }
  for (const std::string& pod : due) {
    cluster.DeleteGracefully(pod, (deadline - now) / kMillisPerSecond);
  }
  return next;
}

void DrainStep(const std::shared_ptr<DrainState>& drain) {
  Cluster& cluster = drain->cluster;
  const SimMillis now = cluster.queue().now();
  const Instance* instance = cluster.FindInstanceByNode(drain->node_name);
  SimMillis force_next = std::numeric_limits<SimMillis>::max();
  if (instance != nullptr && drain->options.force_after &&
      now - drain->started < *drain->options.force_after) {
    force_next = DeletePodsOutlastingTheDeadline(*drain, now);
  }
  SimMillis terminating_until = -1;
  std::vector<std::string> pods =
      instance == nullptr ? std::vector<std::string>{} : PodsToEvict(*drain, terminating_until);
  if (pods.empty() && terminating_until < 0) {
    if (instance != nullptr && now - drain->started < drain->options.min_duration) {
      cluster.queue().At(drain->started + drain->options.min_duration,
                         [drain] { DrainStep(drain); });
      return;
    }
    drain->done(true);
    return;
  }
  const SimMillis elapsed = now - drain->started;
  if (drain->options.force_after && elapsed >= *drain->options.force_after) {
    cluster.log().Record(
        now, "DrainForced",
        {Str("node", drain->node_name), Count("pods", static_cast<int64_t>(pods.size()))});
    cluster.Drain(instance->id);
    drain->done(true);
    return;
  }
  if (pods.empty()) {
    // Everything left was evicted and is shutting down: wait for it (or the forced deadline).
    SimMillis next = std::min(terminating_until, force_next);
    if (drain->options.force_after) {
      next = std::min(next, drain->started + *drain->options.force_after);
    }
    cluster.queue().At(std::max(next, now), [drain] { DrainStep(drain); });
    return;
  }
  if (drain->options.give_up_after && elapsed >= *drain->options.give_up_after) {
    cluster.log().Record(
        now, "DrainFailed",
        {Str("node", drain->node_name), Count("pods", static_cast<int64_t>(pods.size()))});
    drain->done(false);
    return;
  }
  SimMillis next = now + drain->options.retry_max;
  bool evicted_any = false;
  for (const std::string& pod : pods) {
    auto attempt = drain->next_attempt.find(pod);
    if (attempt != drain->next_attempt.end() && attempt->second > now) {
      next = std::min(next, attempt->second);
      continue;
    }
    const Cluster::Eviction eviction = cluster.Evict(pod);
    if (eviction != Cluster::Eviction::kBlockedByPdb &&
        eviction != Cluster::Eviction::kMultiplePdbs) {
      evicted_any = true;
      continue;
    }
    if (drain->reported.insert(pod).second) {
      cluster.log().Record(now, "PodEvictionBlocked",
                           {Str("pod", pod), Str("node", drain->node_name)});
    }
    SimMillis& delay = drain->backoff[pod];
    delay = delay == 0 ? drain->options.retry_base : std::min(delay * 2, drain->options.retry_max);
    drain->next_attempt[pod] = now + delay;
    next = std::min(next, now + delay);
  }
  // Look again right away: the evicted pods may have been the tier's last, or only terminating
  // pods are left to wait for.
  if (evicted_any) next = now;
  next = std::min(next, force_next);
  if (drain->options.force_after)
    next = std::min(next, drain->started + *drain->options.force_after);
  if (drain->options.give_up_after) {
    next = std::min(next, drain->started + *drain->options.give_up_after);
  }
  cluster.queue().At(std::max(next, now), [drain] { DrainStep(drain); });
}

}  // namespace

void StartDrain(Cluster& cluster, const std::string& node_name, const DrainOptions& options,
                std::function<void(bool drained)> done) {
  auto drain = std::make_shared<DrainState>(
      DrainState{cluster, node_name, options, std::move(done), cluster.queue().now(), {}, {}, {}});
  cluster.log().Record(drain->started, "DrainStarted", {Str("node", node_name)});
  DrainStep(drain);
}

}  // namespace karpenter::sim
