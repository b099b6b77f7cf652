// The read side of the cluster seam (karpenter/kube_cluster.h) over the twin's world: what an
// informer cache shows a controller, taken from the emulated objects as they stand. Nodes exist
// from registration until their instance terminates; pods carry kube-scheduler's PodScheduled
// and, while Running, the kubelet's Ready from the instant they bound (the twin runs no
// containers; the condition exists in this view only, so the engine's copies of pods stay
// small); a PodDisruptionBudget's status is computed as it is read, as the disruption controller
// would have it (and its changes are not announced to watches). The twin has no volumes, so
// VolumeAttachments and PersistentVolumeClaims are never found, and it serves no workload objects
// (Deployments, Jobs, StatefulSets) here: no controller reads them.
//
// Watch handlers run once the event that changed the object has returned
// (EventQueue::AtEventEnd), each key once per event, so they read the change complete, as an
// informer's handlers do, and a run with watches executes the same events as one without.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/kube_cluster.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {

class TwinClusterReader final : public ClusterReader {
 public:
  explicit TwinClusterReader(Cluster& cluster);
  ~TwinClusterReader() override;
  TwinClusterReader(const TwinClusterReader&) = delete;
  TwinClusterReader& operator=(const TwinClusterReader&) = delete;

  // The twin's view is complete from the start.
  bool Synced() const override { return true; }
  std::optional<api::Object> Get(const ObjectKey& key) const override;
  std::vector<api::Object> List(std::string_view kind) const override;
  std::vector<api::Pod> PodsOnNode(std::string_view node_name) const override;
  std::optional<api::Node> NodeByProviderId(std::string_view provider_id) const override;
  std::optional<api::NodeClaim> NodeClaimByProviderId(std::string_view provider_id) const override;
  void Watch(std::string_view kind, std::function<void(const ObjectKey&)> on_change) override;

 private:
  // The changes announced during the running event, delivered at its end. Shared with the
  // delivery action, which may run after the reader is gone.
  using HandlerList = std::vector<std::function<void(const ObjectKey&)>>;
  struct Watches {
    std::map<std::string, HandlerList, std::less<>> handlers;
    std::vector<ObjectKey> changed;  // in the order first announced, each key once
    bool delivery_scheduled = false;
    void Deliver();
  };
  void Announce(std::string_view kind, const api::ObjectMeta& metadata);
  const Instance* RegisteredInstance(const std::string& node_name) const;

  Cluster& cluster_;
  std::shared_ptr<Watches> watches_ = std::make_shared<Watches>();
  std::optional<uint64_t> observer_id_;  // once watched
};

}  // namespace karpenter::sim
