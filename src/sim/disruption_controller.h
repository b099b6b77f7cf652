// Upstream: pkg/controllers/disruption/controller.go and queue.go (kubernetes-sigs/karpenter).
// Karpenter's disruption controller on the twin's virtual clock, around the production engine
// (src/disruption): each poll with no command in flight computes the commands on a fresh
// snapshot and takes the first; graceful commands wait `kCommandValidationDelay` and are
// re-validated on a fresh snapshot (same decision or abandoned), Drift and Expiration go at once. A
// command then runs through the orchestration queue: candidates are tainted
// karpenter.sh/disrupted:NoSchedule (kube-scheduler stops placing pods there), replacements are
// launched through the host's provisioning launch path, and once all are initialized the
// candidates are drained (evictions) and terminated; a replacement that fails or the retry
// timeout rolls the command back (untaint). Every step is an event in the run's log.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/disruption/command.h"
#include "src/disruption/queue.h"
#include "src/sim/cluster.h"
#include "src/sim/event_queue.h"

namespace karpenter::sim {

class KarpenterHost;

// How often the queue re-checks replacements of a command in flight (upstream requeues its
// orchestration reconcile about every second).
inline constexpr int64_t kQueueReconcileMillis = 1000;

class DisruptionController {
 public:
  explicit DisruptionController(KarpenterHost& host) : host_(host) {}

  // One disruption pass (the host calls it every `disruptionPoll`).
  void Poll();

  // A command is waiting for validation or queued.
  bool busy() const { return validating_ || queue_.size() > 0; }
  uint64_t commands_started() const { return commands_started_; }
  uint64_t commands_finished() const { return commands_finished_; }
  uint64_t commands_rolled_back() const { return commands_rolled_back_; }
  // Polls skipped because everything the decision depends on (PollKey) equals what the last
  // computed poll, which found no command, saw.
  // Turning the skip off must change no decision: tests compare both ways.
  uint64_t polls_skipped() const { return polls_skipped_; }
  void set_skip_idle_polls(bool skip) { skip_idle_polls_ = skip; }
  // Which consolidation moves each poll searches (upstream's unless a scenario asks otherwise).
  void set_consolidation_search(disruption::ConsolidationSearch search) {
    consolidation_search_ = search;
  }

 private:
  void Validate(const disruption::Command& command);
  // Queues `command`; its replacements' instance types must still be alive (they are copied
  // when the NodeClaims are created).
  void Execute(disruption::Command command);
  void Reconcile();
  void ScheduleReconcile();
  void Apply(const std::vector<disruption::QueueAction>& actions);
  disruption::ReplacementState StateOf(const std::string& node_claim) const;
  // Deletes a candidate: drains it (PDBs, tiers, terminationGracePeriod), then terminates it.
  void Terminate(const Instance& instance, const std::string& method);

  KarpenterHost& host_;
  disruption::OrchestrationQueue queue_;
  bool validating_ = false;
  bool reconcile_scheduled_ = false;
  uint64_t commands_started_ = 0;
  uint64_t commands_finished_ = 0;
  uint64_t commands_rolled_back_ = 0;
  // The method of each queued command, by id, for its events.
  std::map<uint64_t, std::string> methods_;
  // The cluster consolidation state at which each method last found nothing.
  std::map<disruption::Method, SimMillis> consolidated_at_;
  // Everything a poll's decision depends on besides fixed options: the objects, the consolidation
  // state and the methods it has marked consolidated, the clock-dependent predicates
  // (disruption::TimeDependentState) and the offerings the host marks unavailable.
  struct PollKey {
    uint64_t generation = 0;
    SimMillis consolidation_state = 0;
    std::vector<disruption::Method> consolidated;
    std::string time_state;
    uint64_t unavailable_offerings = 0;
    bool operator==(const PollKey&) const = default;
  };
  PollKey last_key_;
  bool last_found_nothing_ = false;  // the poll at last_key_ computed no command
  bool skip_idle_polls_ = true;
  disruption::ConsolidationSearch consolidation_search_ =
      disruption::ConsolidationSearch::kUpstream;
  uint64_t polls_skipped_ = 0;
};

}  // namespace karpenter::sim
