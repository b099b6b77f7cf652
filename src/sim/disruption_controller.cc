// Upstream: pkg/controllers/disruption/controller.go and queue.go
#include "src/sim/disruption_controller.h"

#include <algorithm>
#include <future>
#include <memory>
#include <new>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_join.h"
#include "src/api/karpenter_labels.h"
#include "src/controllers/disrupted_mark.h"
#include "src/controllers/disrupted_metrics.h"
#include "src/controllers/disruption_gauges.h"
#include "src/controllers/object_fields.h"
#include "src/disruption/disruption.h"
#include "src/disruption/time_state.h"
#include "src/disruption/validation.h"
#include "src/sim/karpenter_host.h"

namespace karpenter::sim {
namespace {

// How long an emptiness or consolidation command waits before it is validated, on the twin's
// clock.
SimMillis ValidationDelay() {
  return disruption::kCommandValidationDelay.Nanos() / api::Duration::kMillisecond;
}

// Adds `more` to the sorted, duplicate-free `methods`, keeping them so.
void AddSorted(std::vector<disruption::Method>& methods,
               const std::vector<disruption::Method>& more) {
  methods.insert(methods.end(), more.begin(), more.end());
  std::sort(methods.begin(), methods.end());
  methods.erase(std::unique(methods.begin(), methods.end()), methods.end());
}

std::string Replacements(const disruption::Command& command) {
  std::vector<std::string> types;
  for (const provisioning::PlannedNodeClaim& planned : command.replacements) {
    types.push_back(planned.launch.instance_type);
  }
  return absl::StrJoin(types, ",");
}

}  // namespace

DisruptionController::~DisruptionController() { Discard(); }

void DisruptionController::Poll() {
  Cluster& cluster = host_.cluster();
  // Background polls at this poll's consolidation state are still deciding: their marks, or a
  // command of theirs, decide what this poll does. A poll at a new state depends on them only
  // through a command, which drops it (see the class comment).
  bool after_same_state = false;
  if (!background_polls_.empty() && !busy()) {
    const std::optional<SimMillis> state = cluster.PeekConsolidationState();
    if (!state) {
      Settle();
    } else {
      after_same_state = *state == background_polls_.back()->state;
    }
  }
  if (busy()) return;
  const SimMillis now = cluster.queue().now();
  // Upstream IsConsolidated/markConsolidated: a method that found nothing is skipped until the
  // cluster's consolidation state moves.
  const SimMillis state = cluster.ConsolidationState();
  absl::StatusOr<std::shared_ptr<const state::ClusterSnapshot>> snapshot =
      cluster.SharedSnapshot(/*schedulable_only=*/false);
  if (!snapshot.ok()) {
    cluster.log().Record(now, "DisruptionError", {Str("error", snapshot.status().ToString())});
    return;
  }
  disruption::DisruptionOptions options;
  options.consolidation_search = consolidation_search_;
  options.consolidated = MarkedAt(state);
  // The polls still deciding at this state: the marks of the methods they ran on this thread
  // are known, the rest reach this poll's worker.
  std::vector<std::shared_future<Outcome>> earlier;
  if (after_same_state) {
    for (const std::unique_ptr<Background>& poll : background_polls_) {
      if (poll->state != state) continue;
      earlier.push_back(poll->outcome);
      AddSorted(options.consolidated, poll->marked_before_consolidation);
    }
  }
  // The engine is a function of the key's parts: a poll that found no command would find none
  // again while none of them moves, even when a budget is what held a command back (the same
  // budget holds it back again).
  PollKey key{cluster.generation(), state, options.consolidated,
              disruption::TimeDependentState(**snapshot, cluster.queue().Now()),
              host_.UnavailableOfferingsVersion()};
  if (after_same_state) {
    ++polls_after_same_state_;
    Background& last = *background_polls_.back();
    if (skip_idle_polls_ && key.generation == last.key.generation &&
        key.time_state == last.key.time_state &&
        key.unavailable_offerings == last.key.unavailable_offerings) {
      ++last.same_input_polls;
      return;
    }
  } else if (skip_idle_polls_ && last_found_nothing_ && key == last_key_) {
    ++polls_skipped_;
    return;
  }
  absl::StatusOr<std::unique_ptr<PlanningInput>> planning =
      host_.PlanningInputFrom(*std::move(snapshot));
  if (!planning.ok()) {
    cluster.log().Record(now, "DisruptionError", {Str("error", planning.status().ToString())});
    return;
  }
  const std::vector<disruption::Method> marked = options.consolidated;
  auto pass = std::make_unique<disruption::DisruptionPass>(
      *(*planning)->snapshot, (*planning)->input, cluster.queue().Now(), std::move(options));
  if (pass->FoundCommand() && !background_polls_.empty()) {
    // Such a command may go to work at once: it waits for the decisions before it, and is
    // dropped if one of them keeps the controller busy.
    Settle();
    if (busy()) return;
    if (after_same_state) {
      // With every mark known this poll is the one that would have run after them. The
      // constructor read only Emptiness's mark, which it had; the consolidation marks join.
      key.consolidated = MarkedAt(state);
      if (skip_idle_polls_ && last_found_nothing_ && key == last_key_) {
        ++polls_skipped_;
        return;
      }
      pass->AlsoConsolidated(key.consolidated);
    }
  }
  if (!background_ || pass->FoundCommand()) {
    pass->Consolidate();
    Decide(std::move(*pass).Finish(), state, std::move(key),
           {.at = now, .position = cluster.log().position()});
    return;
  }
  // Only consolidation is left, and its commands wait for validation: the clock may move on
  // until the validation instant, or a later poll that depends on this one.
  auto background = std::make_unique<Background>();
  background->instant = {
      .at = now, .position = cluster.log().position(), .id = ++polls_in_background_};
  background->state = state;
  background->key = std::move(key);
  background->marked_before_consolidation = pass->NowConsolidated();
  // The worker hands the result over first, then frees the pass and its input (the 1,000-node
  // caches of a poll's simulations) while this thread goes on.
  struct Job {
    std::unique_ptr<PlanningInput> planning;
    std::unique_ptr<disruption::DisruptionPass> pass;  // points into `planning`
    std::shared_ptr<const std::atomic<bool>> cancelled;
    std::vector<disruption::Method> consolidated;
    std::vector<std::shared_future<Outcome>> earlier;
    std::promise<Outcome> outcome;
    std::promise<disruption::DisruptionResult> result;
  };
  auto job = std::make_shared<Job>();
  job->planning = *std::move(planning);
  job->pass = std::move(pass);
  job->cancelled = background->cancelled;
  job->consolidated = marked;
  job->earlier = std::move(earlier);
  background->outcome = job->outcome.get_future().share();
  background->result = job->result.get_future();
  // A job waits only for jobs given to the pool before it, which have started: no deadlock.
  workers_.Run([job = std::move(job)] {
    // Out of memory on the worker: the twin's thread meets the std::bad_alloc where it waits
    // for this poll, and the run turns it into an error (RunOrOutOfMemory).
    bool outcome_set = false;
    try {
      bool dropped = false;
      std::vector<disruption::Method> learned;
      for (const std::shared_future<Outcome>& poll : job->earlier) {
        const Outcome& outcome = poll.get();
        dropped = dropped || outcome.found_command;
        learned.insert(learned.end(), outcome.now_consolidated.begin(),
                       outcome.now_consolidated.end());
      }
      AddSorted(job->consolidated, learned);
      // After a command this poll is dropped, as a busy controller skips it; so are the polls
      // that wait for it.
      if (!dropped) {
        job->pass->AlsoConsolidated(learned);
        job->pass->Consolidate(job->cancelled.get());
      }
      disruption::DisruptionResult result = std::move(*job->pass).Finish();
      job->outcome.set_value({.found_command = dropped || !result.commands.empty(),
                              .now_consolidated = result.now_consolidated,
                              .consolidated = std::move(job->consolidated)});
      outcome_set = true;
      job->result.set_value(std::move(result));
    } catch (const std::bad_alloc&) {
      if (!outcome_set) job->outcome.set_exception(std::current_exception());
      job->result.set_exception(std::current_exception());
    }
    job->pass.reset();
    job->planning.reset();
  });
  cluster.queue().After(ValidationDelay(), [this, id = background->instant.id] {
    SettleThrough(id);
    if (!awaiting_validation_ || awaiting_validation_->first != id) return;
    const disruption::Command command = std::move(awaiting_validation_->second);
    awaiting_validation_.reset();
    Validate(command);
  });
  if (!background_polls_.empty()) ++polls_run_ahead_;
  background_polls_.push_back(std::move(background));
}

std::vector<disruption::Method> DisruptionController::MarkedAt(SimMillis state) const {
  std::vector<disruption::Method> marked;
  for (const auto& [method, at] : consolidated_at_) {
    if (at == state) marked.push_back(method);
  }
  return marked;
}

void DisruptionController::Settle() { SettleThrough(UINT64_MAX); }

void DisruptionController::SettleThrough(uint64_t id) {
  while (!background_polls_.empty() && background_polls_.front()->instant.id <= id) {
    std::unique_ptr<Background> poll = std::move(background_polls_.front());
    background_polls_.pop_front();
    disruption::DisruptionResult result = poll->result.get();
    EventLog& log = host_.cluster().log();
    const EventLog::Position before = log.position();
    // Every poll before this one is decided: the marks are the ones it saw in turn.
    poll->key.consolidated = MarkedAt(poll->state);
    if (poll->outcome.get().consolidated != poll->key.consolidated) {
      log.Record(host_.cluster().queue().now(), "DisruptionError",
                 {Str("error",
                      "a background poll ran with other consolidated methods than "
                      "the polls before it marked")});
    }
    Decide(std::move(result), poll->state, poll->key, poll->instant);
    TakeSameInputPolls(*poll);
    // A record went in before the later polls' places.
    const EventLog::Position after = log.position();
    for (std::unique_ptr<Background>& later : background_polls_) {
      later->instant.position.lines += after.lines - before.lines;
      later->instant.position.marks += after.marks - before.marks;
    }
    // The later polls ran on the guess that this one would leave the controller idle.
    if (busy()) Discard();
  }
}

void DisruptionController::TakeSameInputPolls(const Background& poll) {
  // After a command the controller was busy: they were dropped.
  if (busy()) return;
  for (uint64_t i = 0; i < poll.same_input_polls; ++i) {
    PollKey key = poll.key;
    key.consolidated = MarkedAt(poll.state);
    if (last_found_nothing_ && key == last_key_) {
      ++polls_skipped_;
      continue;
    }
    // It would run only methods `poll` ran on the same inputs and left unmarked (budgets held
    // them back, or they had no candidates): they find nothing again and mark nothing.
    last_key_ = std::move(key);
    last_found_nothing_ = true;
  }
}

void DisruptionController::Discard() {
  // Their workers give up before their next single-node move and free what they hold.
  for (std::unique_ptr<Background>& poll : background_polls_) *poll->cancelled = true;
  background_polls_.clear();
}

void DisruptionController::Decide(disruption::DisruptionResult result, SimMillis state, PollKey key,
                                  const PollInstant& poll) {
  Cluster& cluster = host_.cluster();
  controllers::SetDisruptionGauges(result, host_.metrics());
  for (disruption::Method method : result.now_consolidated) consolidated_at_[method] = state;
  // Expired NodeClaims are the expiration controller's (KarpenterHost::Expire): the engine
  // reports them, upstream's disruption controller has no such method.
  std::erase_if(result.commands, [](const disruption::Command& command) {
    return command.method == disruption::Method::kExpiration;
  });
  last_found_nothing_ = result.commands.empty();
  last_key_ = std::move(key);
  if (result.commands.empty()) return;
  disruption::Command& command = result.commands.front();
  cluster.log().RecordAt(poll.position, poll.at, "DisruptionCommandComputed",
                         {Str("method", std::string(disruption::MethodName(command.method))),
                          Str("reason", std::string(disruption::ReasonName(command.reason))),
                          Str("candidates", absl::StrJoin(command.candidates, ",")),
                          Str("replacements", Replacements(command)),
                          Num("savingsPerHour", command.savings_per_hour)});
  // Only emptiness and consolidation wait and re-validate upstream; drift goes to the queue at
  // once (its replacements point into this poll's input, alive until the poll returns; a
  // background poll has no such command).
  if (!disruption::IsRevalidated(command.method)) {
    Execute(std::move(command));
    return;
  }
  validating_ = true;
  if (poll.id != 0) {
    // The background poll scheduled its validation event already.
    awaiting_validation_.emplace(poll.id, std::move(command));
    return;
  }
  cluster.queue().After(ValidationDelay(),
                        [this, command = std::move(command)] { Validate(command); });
}

void DisruptionController::Validate(const disruption::Command& command) {
  validating_ = false;
  Cluster& cluster = host_.cluster();
  const SimMillis now = cluster.queue().now();
  absl::StatusOr<std::unique_ptr<PlanningInput>> planning = host_.BuildPlanningInput();
  if (!planning.ok()) {
    cluster.log().Record(now, "DisruptionError", {Str("error", planning.status().ToString())});
    return;
  }
  disruption::ValidationResult validation = disruption::ValidateCommand(
      *(*planning)->snapshot, (*planning)->input, command, cluster.queue().Now());
  if (!validation.command) {
    cluster.log().Record(
        now, "DisruptionValidationFailed",
        {Str("method", std::string(disruption::MethodName(command.method))),
         Str("failure", validation.failure
                            ? std::string(disruption::ValidationFailureName(*validation.failure))
                            : ""),
         Str("message", validation.message)});
    return;
  }
  // The validated command's replacements point into this input: launch them while it lives.
  Execute(std::move(*validation.command));
}

void DisruptionController::Execute(disruption::Command command) {
  Cluster& cluster = host_.cluster();
  const SimMillis now = cluster.queue().now();
  std::vector<disruption::QueueAction> actions;
  const std::vector<provisioning::PlannedNodeClaim> replacements = command.replacements;
  const std::vector<std::string> candidates = command.candidates;
  const std::string method(disruption::MethodName(command.method));
  const std::string reason =
      absl::AsciiStrToLower(std::string(disruption::ReasonName(command.reason)));
  CountCommand(command, reason);
  cluster.log().Record(
      now, "DisruptionCommandStarted",
      {Str("method", method), Str("candidates", absl::StrJoin(command.candidates, ",")),
       Str("replacements", Replacements(command))});
  const Queued queued{command.method, command.reason};
  const uint64_t id = queue_.Start(std::move(command), cluster.queue().Now(), actions);
  queued_[id] = queued;
  ++commands_started_;
  // Taints first: upstream cordons the candidates before it launches their replacements.
  Apply(actions);
  for (const disruption::QueueAction& action : actions) {
    if (action.kind != disruption::QueueAction::Kind::kLaunchReplacement) continue;
    const provisioning::PlannedNodeClaim& planned = replacements[action.replacement];
    const std::string name = host_.LaunchNodeClaim(planned.claim, planned.launch, reason);
    queue_.ReplacementCreated(id, action.replacement, name);
    cluster.log().Record(now, "DisruptionReplacementCreated",
                         {Str("method", method), Str("nodeClaim", name)});
  }
  // Marked only now that the replacements exist, as upstream's queue does: marked earlier, a
  // provisioning pass could launch for the candidates' pods as well.
  for (const std::string& candidate : candidates) {
    if (const Instance* instance = cluster.FindInstanceByNode(candidate)) {
      host_.MarkForDeletion(instance->node.spec.provider_id);
    }
  }
  Reconcile();
}

// Upstream's decision counter for a command as it starts: delete, or replace when it launches
// replacements. Its candidates count as disrupted once deleted (Terminate).
void DisruptionController::CountCommand(const disruption::Command& command,
                                        const std::string& reason) {
  host_.metrics().Add(
      "karpenter_voluntary_disruption_decisions_total",
      {{"decision", command.replacements.empty() ? "delete" : "replace"},
       {"reason", reason},
       {"consolidation_type", std::string(disruption::ConsolidationTypeOf(command.method))}},
      1);
}

void DisruptionController::ScheduleReconcile() {
  if (reconcile_scheduled_ || queue_.size() == 0) return;
  reconcile_scheduled_ = true;
  host_.cluster().queue().After(kQueueReconcileMillis, [this] {
    reconcile_scheduled_ = false;
    Reconcile();
  });
}

void DisruptionController::Reconcile() {
  Cluster& cluster = host_.cluster();
  Apply(queue_.Reconcile(cluster.queue().Now(),
                         [this](const std::string& name) { return StateOf(name); }));
  ScheduleReconcile();
}

void DisruptionController::Terminate(const Instance& instance, const Queued& queued) {
  Cluster& cluster = host_.cluster();
  const std::string& node = instance.node.metadata.name;
  cluster.log().Record(
      cluster.queue().now(), "DisruptionNodeDeleted",
      {Str("method", std::string(disruption::MethodName(queued.method))), Str("node", node)});
  if (const api::NodeClaim* claim = cluster.FindNodeClaim(instance.request.node_claim)) {
    // Drift flows through the queue too; only consolidation reports its policy.
    std::string policy;
    if (!disruption::ConsolidationTypeOf(queued.method).empty()) {
      policy = controllers::ConsolidationPolicyLabel(cluster.FindNodePool(
          controllers::LabelOf(claim->metadata.labels, api::kNodePoolLabelKey)));
    }
    const size_t pods = host_.ReschedulablePodsOn(node);
    const std::string reason =
        absl::AsciiStrToLower(std::string(disruption::ReasonName(queued.reason)));
    controllers::CountDisrupted(controllers::DisruptedLabels(*claim, reason, policy), pods,
                                host_.metrics());
  }
  host_.TerminateNodeClaim(instance);
}

disruption::ReplacementState DisruptionController::StateOf(const std::string& node_claim) const {
  const Cluster& cluster = host_.cluster();
  if (cluster.FindNodeClaim(node_claim) == nullptr) return disruption::ReplacementState::kGone;
  for (const auto& [id, instance] : cluster.instances()) {
    if (instance.request.node_claim != node_claim) continue;
    if (instance.phase == NodePhase::kTerminated) return disruption::ReplacementState::kGone;
    const auto& labels = instance.node.metadata.labels;
    auto initialized = labels.find(std::string(api::kNodeInitializedLabelKey));
    if (instance.phase == NodePhase::kReady && initialized != labels.end() &&
        initialized->second == "true") {
      return disruption::ReplacementState::kInitialized;
    }
  }
  return disruption::ReplacementState::kLaunching;
}

void DisruptionController::Mark(const std::string& node, const std::string& reason) {
  Cluster& cluster = host_.cluster();
  absl::Status marked =
      controllers::MarkNodeDisrupted(host_.reader(), host_.writer(), cluster.queue(), node, reason);
  // Only the twin writes its Nodes, so nothing conflicts; a Node gone already needs no mark.
  if (!marked.ok() && !absl::IsNotFound(marked)) {
    cluster.log().Record(cluster.queue().now(), "DisruptionError",
                         {Str("node", node), Str("error", marked.ToString())});
  }
}

void DisruptionController::Apply(const std::vector<disruption::QueueAction>& actions) {
  Cluster& cluster = host_.cluster();
  const SimMillis now = cluster.queue().now();
  std::map<uint64_t, bool> finished;  // command id -> deleted (true) or rolled back (false)
  for (const disruption::QueueAction& action : actions) {
    const Queued& queued = queued_[action.command_id];
    const std::string method(disruption::MethodName(queued.method));
    switch (action.kind) {
      case disruption::QueueAction::Kind::kTaintCandidate:
        Mark(action.node, std::string(disruption::ReasonName(queued.reason)));
        cluster.log().Record(now, "DisruptionNodeTainted",
                             {Str("method", method), Str("node", action.node)});
        break;
      case disruption::QueueAction::Kind::kLaunchReplacement:
        break;  // done by Execute, which knows the replacement
      case disruption::QueueAction::Kind::kDeleteCandidate: {
        finished[action.command_id] = true;
        const Instance* instance = cluster.FindInstanceByNode(action.node);
        if (instance == nullptr) break;  // already gone
        Terminate(*instance, queued);
        break;
      }
      case disruption::QueueAction::Kind::kUntaintCandidate:
        finished[action.command_id] = false;
        if (const Instance* instance = cluster.FindInstanceByNode(action.node)) {
          host_.Unmark(instance->node.spec.provider_id);
        }
        Mark(action.node, "");
        cluster.log().Record(now, "DisruptionNodeUntainted",
                             {Str("method", method), Str("node", action.node)});
        break;
    }
  }
  for (const auto& [id, deleted] : finished) {
    cluster.log().Record(now, deleted ? "DisruptionCommandFinished" : "DisruptionRolledBack",
                         {Str("method", std::string(disruption::MethodName(queued_[id].method)))});
    (deleted ? commands_finished_ : commands_rolled_back_) += 1;
    queued_.erase(id);
  }
}

}  // namespace karpenter::sim
