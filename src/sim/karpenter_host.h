// Karpenter on the twin's virtual clock: the production provisioning engine
// (provisioning::BuildSchedulerInput, Solve and launch prediction) driven by a pod batcher
// (BATCH_IDLE_DURATION / BATCH_MAX_DURATION), NodeClaims launched through the twin's EC2 with the
// predicted offering and a fallback to the next offering on InsufficientInstanceCapacity (the
// failed offering is then unavailable to the scheduler for `unavailableOfferingTtl`), and
// registration/initialization as the emulated nodes come up. There is no simulation version
// of the scheduling logic here: only the host loop around it.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <tuple>

#include "src/provisioning/launch.h"
#include "src/provisioning/node_class_catalog.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {

class KarpenterHost {
 public:
  explicit KarpenterHost(Cluster& cluster) : cluster_(cluster) {}

  // Subscribes to unschedulable pods; provisioning starts with the first batch.
  void Start();

  // The disruption controller's entry point (src/disruption plugs in here): called every
  // `disruptionPoll` once set, with the host to act through. Nothing is polled while unset.
  using DisruptionPass = std::function<void(KarpenterHost&)>;
  void SetDisruptionPass(DisruptionPass pass);

  // A pod became unschedulable: opens a batch or extends the open one.
  void OnPodsPending();

  Cluster& cluster() { return cluster_; }
  uint64_t node_claims_created() const { return claim_count_; }

 private:
  using OfferingKey = std::tuple<std::string, std::string, std::string>;

  void CheckBatch();
  void Provision();
  void CreateNodeClaim(const provisioning::NewNodeClaim& claim,
                       const provisioning::LaunchPrediction& launch);
  void Launch(const std::string& name);
  void FailLaunch(const std::string& name, const std::string& reason);
  // Liveness: deletes the NodeClaim (and its instance) if its Node never registered.
  void CheckRegistered(const std::string& name, const std::string& instance_id);
  void MarkUnavailableOfferings(provisioning::SchedulerInput& input);
  void PollDisruption();

  Cluster& cluster_;
  provisioning::CatalogCache catalogs_;
  bool batch_open_ = false;
  SimMillis batch_started_ = 0;
  SimMillis batch_idle_until_ = 0;
  SimMillis batch_max_ = 0;
  uint64_t claim_count_ = 0;
  // A NodeClaim waiting for CreateFleet. The solve's claim points into its SchedulerInput, which
  // is gone by then, so the launch keeps its own copies of the instance types and repoints the
  // claim at them; ICE marks offerings unavailable in these copies.
  struct PendingLaunch {
    provisioning::NewNodeClaim claim;
    std::vector<provisioning::InstanceTypeView> types;
  };
  std::map<std::string, PendingLaunch> launching_;
  std::map<std::string, SimMillis> requested_at_;
  std::map<OfferingKey, SimMillis> unavailable_until_;
  DisruptionPass disruption_;
};

}  // namespace karpenter::sim
