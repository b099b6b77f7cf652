// EC2 reclaiming spot capacity, for the twin's `spotInterruptions` faults. Every
// `kSpotReclaimTickMillis` inside a fault window, each running spot instance the fault covers
// is interrupted with probability 1 − e^(−rate·tick); an interrupted instance gets the
// 2-minute warning, published as the EventBridge event "EC2 Spot Instance Interruption
// Warning" (the body Karpenter's SQS queue receives) together with an "EC2 Instance Rebalance
// Recommendation", and is terminated when it runs out (an "EC2 Instance State-change
// Notification", shutting-down, follows). Draws
// come from their own seeded stream, so a scenario without such faults is unchanged.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "src/sim/cluster.h"
#include "src/sim/random.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

inline constexpr SimMillis kSpotReclaimTickMillis = 60 * 1000;
// EC2 Spot: the interruption notice comes two minutes before the instance is reclaimed.
inline constexpr SimMillis kSpotInterruptionWarningMillis = 2 * 60 * 1000;

class SpotInterruptions {
 public:
  SpotInterruptions(Cluster& cluster, const std::vector<CapacityFault>& faults, uint64_t seed);

  // Schedules the ticks of every fault window.
  void Start();
  // Receives each warning's EventBridge body (Karpenter's queue). Without one, nobody listens
  // (Cluster Autoscaler has no interruption handling).
  void set_on_event(std::function<void(std::string body)> sink) { sink_ = std::move(sink); }
  // Told after an instance is reclaimed (an ASG replaces it).
  void set_on_reclaimed(std::function<void(const std::string& id)> callback) {
    on_reclaimed_ = std::move(callback);
  }
  uint64_t interrupted() const { return interrupted_; }

 private:
  void Tick(const CapacityFault& fault);
  void Interrupt(const std::string& id);

  Cluster& cluster_;
  std::vector<CapacityFault> faults_;
  Random random_;
  std::function<void(std::string)> sink_;
  std::function<void(const std::string&)> on_reclaimed_;
  std::set<std::string> warned_;  // instances already interrupted
  uint64_t interrupted_ = 0;
};

// The EventBridge event EC2 emits for a spot interruption warning of `instance_id` at `at`.
std::string SpotInterruptionWarningEvent(const std::string& instance_id, const std::string& region,
                                         api::Time at, uint64_t sequence);

}  // namespace karpenter::sim
