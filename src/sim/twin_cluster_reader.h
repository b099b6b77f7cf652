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
// Once TrackResourceVersions is called (the write side does), every object read carries a
// resourceVersion that moves on each change the twin announces, its own or a writer's: "1" for
// an object unchanged since, a number never given out before otherwise (the versions of objects
// gone are forgotten at the end of the event, and a new object's creation moves its version).
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

  // Reads carry resourceVersions from now on.
  void TrackResourceVersions();

 private:
  // The changes announced during the running event, delivered at its end. Shared with the
  // delivery action, which may run after the reader is gone.
  using HandlerList = std::vector<std::function<void(const ObjectKey&)>>;
  struct Watches {
    const Cluster* cluster = nullptr;
    std::map<std::string, HandlerList, std::less<>> handlers;
    std::vector<ObjectKey> changed;  // in the order first announced, each key once
    bool delivery_scheduled = false;
    // Tracked versions of the objects changed since tracking began.
    bool tracking_versions = false;
    uint64_t last_version = 1;
    std::map<ObjectKey, uint64_t> versions;
    void Deliver();
  };
  void Subscribe();
  std::optional<api::Object> GetUnstamped(const ObjectKey& key) const;
  void Announce(std::string_view kind, const api::ObjectMeta& metadata);
  // Sets `metadata`'s resourceVersion when versions are tracked.
  void Stamp(std::string_view kind, api::ObjectMeta& metadata) const;
  template <class T>
  T Stamped(std::string_view kind, T object) const {
    Stamp(kind, object.metadata);
    return object;
  }

  Cluster& cluster_;
  std::shared_ptr<Watches> watches_ = std::make_shared<Watches>();
  std::optional<uint64_t> observer_id_;  // once watched
};

}  // namespace karpenter::sim
