// Upstream: k8s.io/client-go tools/cache (reflector.go, the list pager and the indexer).
// The read side of the cluster seam against a real API server: per kind, a list (in pages)
// then a watch from the list's resourceVersion with bookmarks, kept in an in-memory cache with
// upstream's field indexes. A watch that ends is resumed from the last resourceVersion seen; a
// 410 Gone (the server no longer has that version) lists again; other failures back off
// (800 ms doubling to 30 s with full jitter, as client-go's reflector) on the injected Clock.
//
// Threads:
//   - Start() starts one thread per kind; it alone does that kind's I/O and writes its part of
//     the cache. Stop() (or the destructor) cancels the watches and joins the threads; Start()
//     may follow Stop() and resumes from the cache's resourceVersions.
//   - Synced/Get/List and the index lookups may be called from any thread (one mutex guards the
//     cache; they copy what they return).
//   - Watch() callbacks are posted with clock.After(0, ...), so they run on the Clock's thread,
//     which by the Clock's contract is the controllers' thread, never under the cache's lock.
//     The Clock must therefore accept After from the informer threads. Register callbacks
//     before Start(): a callback registered later sees only later changes. A callback may run
//     after Stop() for a change seen before it, so what it touches must live as long as the
//     Clock.
//   - Step() is for tests: one list or one watch of `kind` on the calling thread, no threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/kube/client.h"

namespace karpenter::kube {

struct InformerOptions {
  // The kinds to cache (every kind the controllers read).
  std::vector<std::string> kinds = {"Pod",
                                    "Node",
                                    "NodeClaim",
                                    "NodePool",
                                    "EC2NodeClass",
                                    "DaemonSet",
                                    "PodDisruptionBudget",
                                    "PersistentVolume",
                                    "PersistentVolumeClaim",
                                    "StorageClass",
                                    "CSINode",
                                    "VolumeAttachment"};
  int64_t initial_backoff_millis = 800;
  int64_t max_backoff_millis = 30'000;
  // A watch asks the server to end it after this long times (1 + uniform01()), so reconnects of
  // many clients spread out (client-go: 5 min).
  int min_watch_timeout_seconds = 300;
  int list_page_size = 500;
  // Told when a kind's watch ended with 410 Gone (the server no longer has the version the watch
  // resumed from), before that kind is listed again; as client-go's reflector logs it. Runs on
  // the kind's informer thread. Empty: nobody is told.
  std::function<void(const std::string& kind, const std::string& error)> on_expired;
};

class Informer : public ClusterReader {
 public:
  // `uniform01` is the randomness seam: uniform in [0, 1).
  Informer(Client& client, Clock& clock, std::function<double()> uniform01,
           InformerOptions options = {});
  ~Informer() override;
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  void Start();
  void Stop();

  // --- ClusterReader ---
  bool Synced() const override;
  std::optional<api::Object> Get(const ObjectKey& key) const override;
  std::vector<api::Object> List(std::string_view kind) const override;
  std::vector<api::Pod> PodsOnNode(std::string_view node_name) const override;
  std::optional<api::Node> NodeByProviderId(std::string_view provider_id) const override;
  std::optional<api::NodeClaim> NodeClaimByProviderId(std::string_view provider_id) const override;
  void Watch(std::string_view kind, std::function<void(const ObjectKey&)> on_change) override;

  // One list (when the kind has none yet or its watch got 410 Gone) or one watch session. OK
  // when it did what it set out to, and after a 410 Gone (the next step lists again at once);
  // an error is worth a backoff.
  absl::Status Step(const std::string& kind);
  // The wait before the next attempt after `failures` consecutive failures (1 = first).
  int64_t BackoffMillis(int failures);
  // Objects that failed to decode since the start ("Pod ns/a: spec.x: ..."), newest last.
  std::vector<std::string> DecodeErrors() const;

 private:
  struct KindState {
    std::string resource_version;
    bool listed = false;
    bool needs_list = true;
  };
  struct Waiter;

  absl::Status Relist(const std::string& kind);
  absl::Status WatchOnce(const std::string& kind);
  // Applies one watch event; false stops the watch.
  bool Apply(const std::string& kind, const WatchEvent& event, absl::Status& outcome);
  void Run(const std::string& kind);
  // Waits on the clock for `millis` or until Stop().
  void Pause(int64_t millis);

  // Cache edits, under `mu_`; they return whether anything changed.
  bool PutLocked(const ObjectKey& key, api::Object object);
  bool EraseLocked(const ObjectKey& key);
  void IndexLocked(const ObjectKey& key, const api::Object& object, bool add);
  void NoteDecodeErrorLocked(std::string error);
  void Notify(const std::vector<ObjectKey>& keys);

  Client& client_;
  Clock& clock_;
  const std::function<double()> uniform01_;
  const InformerOptions options_;

  mutable std::mutex mu_;
  std::map<ObjectKey, api::Object> objects_;
  std::map<std::string, std::set<ObjectKey>, std::less<>> pods_by_node_;
  std::map<std::string, std::set<ObjectKey>, std::less<>> nodes_by_provider_;
  std::map<std::string, std::set<ObjectKey>, std::less<>> nodeclaims_by_provider_;
  std::map<std::string, KindState, std::less<>> kinds_;
  std::map<std::string, std::vector<std::shared_ptr<std::function<void(const ObjectKey&)>>>,
           std::less<>>
      callbacks_;
  std::vector<std::string> decode_errors_;

  std::atomic<bool> stopping_{false};
  std::shared_ptr<Waiter> waiter_;
  std::vector<std::thread> threads_;
};

}  // namespace karpenter::kube
