// Upstream: pkg/controllers/disruption/controller.go and queue.go (kubernetes-sigs/karpenter).
// Karpenter's disruption controller on the twin's virtual clock, around the production engine
// (src/disruption): each poll not waiting for a validation (upstream's poll blocks for it)
// computes the commands on a fresh snapshot and takes the first, also while earlier commands
// wait in the queue (their candidates are tainted and marked, so the engine counts them against
// the budgets and passes them over); graceful commands wait `kCommandValidationDelay` and are
// re-validated on a fresh snapshot (same decision or abandoned), Drift goes at once. Expired
// NodeClaims are not its work: KarpenterHost deletes them when they expire, as upstream's
// expiration controller does. A command then runs through the orchestration queue: candidates are
// tainted karpenter.sh/disrupted:NoSchedule (kube-scheduler stops placing pods there), replacements
// are launched through the host's provisioning launch path, and once all are initialized the
// candidates are drained (evictions) and terminated; a replacement that fails or the retry
// timeout rolls the command back (untaint). Every step is an event in the run's log.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/disruption/command.h"
#include "src/disruption/disruption.h"
#include "src/disruption/queue.h"
#include "src/sim/cluster.h"
#include "src/sim/event_queue.h"
#include "src/sim/events.h"
#include "src/sim/worker_pool.h"

namespace karpenter::sim {

class KarpenterHost;
struct PlanningInput;

// How often the queue re-checks replacements of a command in flight (upstream requeues its
// orchestration reconcile about every second).
inline constexpr int64_t kQueueReconcileMillis = 1000;

class DisruptionController {
 public:
  explicit DisruptionController(KarpenterHost& host) : host_(host) {}
  ~DisruptionController();

  // One disruption pass (the host calls it every `disruptionPoll`).
  void Poll();

  // A command is waiting for validation: polls are skipped meanwhile.
  bool busy() const { return validating_; }
  // Commands in the orchestration queue.
  size_t queued_commands() const { return queue_.size(); }
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
  // Lets a poll whose methods before consolidation found no command run the consolidation
  // methods on a worker thread while the clock moves on. Their commands only wait for
  // validation, so nothing needs the decision before the validation instant, or a later poll
  // that depends on it (Settle); the decision is recorded at the poll's instant. A later poll
  // may run meanwhile, on the guess that this one finds nothing, when only consolidation is
  // left to it as well. If the guess fails, the later poll is dropped, as a busy controller
  // would have skipped it. When the consolidation state has not moved, the later poll also
  // needs this one's marks and idle-poll skip: it learns them on its worker, or, having seen
  // the same inputs, needs no pass at all (polls_after_same_state). Decisions and events are
  // the same either way.
  void set_background(bool background) { background_ = background; }
  // Waits for the polls running in the background and takes their decisions in order. A run
  // calls it before it reads its results.
  void Settle();
  uint64_t polls_in_background() const { return polls_in_background_; }
  // Background polls started while an earlier one was still running (on the guess above).
  uint64_t polls_run_ahead() const { return polls_run_ahead_; }
  // Polls that came while earlier ones at the same consolidation state were still deciding.
  // Those that saw the same inputs wait for them without a pass; the others run their pass
  // and learn the earlier polls' marks on the worker before consolidating. Either way the
  // clock moves on, and each decides and counts (polls_skipped) as in turn.
  uint64_t polls_after_same_state() const { return polls_after_same_state_; }

 private:
  // What a queued command's events and metrics need of it.
  struct Queued {
    disruption::Method method = disruption::Method::kEmptiness;
    disruption::Reason reason = disruption::Reason::kEmpty;
  };
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
  // A computed poll: when it ran, where its log record goes and, for a background poll, its id
  // (from 1).
  struct PollInstant {
    SimMillis at = 0;
    EventLog::Position position;
    uint64_t id = 0;
  };
  // Takes what a poll computed: marks methods consolidated and starts the winning command.
  void Decide(disruption::DisruptionResult result, SimMillis state, PollKey key,
              const PollInstant& poll);
  // Settles the background polls up to the one numbered `id`.
  void SettleThrough(uint64_t id);
  // Drops the background polls still running, without their decisions.
  void Discard();
  void Validate(const disruption::Command& command);
  // Queues `command`; its replacements' instance types must still be alive (they are copied
  // when the NodeClaims are created).
  void Execute(disruption::Command command);
  void CountCommand(const disruption::Command& command, const std::string& reason);
  void Reconcile();
  void ScheduleReconcile();
  void Apply(const std::vector<disruption::QueueAction>& actions);
  // Marks (a reason) or unmarks (none) a candidate as upstream's queue does, through the cluster
  // seam: the disrupted taint on its Node and the DisruptionReason condition on its NodeClaim.
  void Mark(const std::string& node, const std::string& reason);
  disruption::ReplacementState StateOf(const std::string& node_claim) const;
  // Deletes a candidate of the queued command `queued`: counts it as upstream's queue does,
  // drains it (PDBs, tiers, terminationGracePeriod), then terminates it.
  void Terminate(const Instance& instance, const Queued& queued);

  KarpenterHost& host_;
  disruption::OrchestrationQueue queue_;
  bool validating_ = false;
  bool reconcile_scheduled_ = false;
  uint64_t commands_started_ = 0;
  uint64_t commands_finished_ = 0;
  uint64_t commands_rolled_back_ = 0;
  // The method and reason of each queued command, by id, for its events and metrics.
  std::map<uint64_t, Queued> queued_;
  // The cluster consolidation state at which each method last found nothing.
  std::map<disruption::Method, SimMillis> consolidated_at_;
  PollKey last_key_;
  bool last_found_nothing_ = false;  // the poll at last_key_ computed no command
  bool skip_idle_polls_ = true;
  disruption::ConsolidationSearch consolidation_search_ =
      disruption::ConsolidationSearch::kUpstream;
  uint64_t polls_skipped_ = 0;

  bool background_ = false;
  uint64_t polls_in_background_ = 0;  // also the last one's id
  uint64_t polls_run_ahead_ = 0;
  uint64_t polls_after_same_state_ = 0;
  // What the polls after a background poll at the same consolidation state need from it: a
  // command drops them with it, and its marks are theirs.
  struct Outcome {
    bool found_command = false;
    std::vector<disruption::Method> now_consolidated;
    // The marks its own pass ran with, sorted; checked against the controller's when it is
    // decided.
    std::vector<disruption::Method> consolidated;
  };
  // A poll running in the background, with what its decision needs besides the result.
  struct Background {
    PollInstant instant;  // its id set
    SimMillis state = 0;
    // `consolidated` is completed when the poll is decided: a poll that came while earlier ones
    // at its consolidation state were still deciding learns their marks on the worker.
    PollKey key;
    // Marked by the methods its pass ran on this thread (Emptiness), known before the result.
    std::vector<disruption::Method> marked_before_consolidation;
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
    std::future<disruption::DisruptionResult> result;
    std::shared_future<Outcome> outcome;
    // Later polls that saw the same objects, clock-dependent state, offerings and consolidation
    // state while this one was deciding. Each is dropped, skipped or finds nothing, by this
    // one's result (TakeSameInputPolls); none needs a pass.
    uint64_t same_input_polls = 0;
  };
  // The methods marked consolidated at `state`, sorted.
  std::vector<disruption::Method> MarkedAt(SimMillis state) const;
  // After `poll` is decided: what its same-input polls would have done in turn.
  void TakeSameInputPolls(const Background& poll);
  std::deque<std::unique_ptr<Background>> background_polls_;  // in poll order
  // A background poll's command and the poll's id, until its validation instant.
  std::optional<std::pair<uint64_t, disruption::Command>> awaiting_validation_;
  // Three, so that a poll run ahead need not wait for the one before it, nor for a poll that
  // waits for the marks of the ones before it. Declared last, so destroyed first: that waits
  // for the polls still running, which share nothing with the controller (each owns its input
  // and shares the snapshot).
  WorkerPool workers_{3};
};

}  // namespace karpenter::sim
