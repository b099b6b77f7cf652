// Upstream: pkg/controllers/disruption/controller.go, emptiness.go, staticdrift.go, drift.go,
// singlenodeconsolidation.go; pkg/controllers/nodeclaim/expiration
#include <algorithm>
#include <atomic>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fmt/format.h"
#include "src/disruption/balanced.h"
#include "src/disruption/consolidation.h"
#include "src/disruption/disruption.h"
#include "src/disruption/drift.h"
#include "src/disruption/eligibility.h"
#include "src/disruption/extended_consolidation.h"
#include "src/disruption/node_state.h"
#include "src/disruption/reshape_consolidation.h"
#include "src/disruption/simulation.h"
#include "src/disruption/static_drift.h"
#include "src/disruption/verdict_log.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/template_claim.h"

namespace karpenter::disruption {
namespace {

struct Context {
  const state::ClusterSnapshot& snapshot;
  const Simulator& simulator;
  const provisioning::SchedulerInput& input;
  api::Time now;
  const DisruptionOptions& options;
  std::set<std::string> expired;  // nodes Expiration deletes in this pass
  std::vector<std::string>& notes;
  std::map<std::string, PoolTotals> pool_totals;  // Balanced policy
  std::vector<Method>& now_consolidated;
  std::map<Method, size_t>& eligible_nodes;
  std::map<std::pair<std::string, Reason>, PoolBudget>& budgets;
  VerdictLog& verdicts;
  // Set by another thread when nobody wants the pass's result any more (see Consolidate).
  const std::atomic<bool>* cancelled = nullptr;
  bool Cancelled() const { return cancelled != nullptr && cancelled->load(); }
  bool Consolidated(Method method) const {
    return std::find(options.consolidated.begin(), options.consolidated.end(), method) !=
           options.consolidated.end();
  }
  // Consolidated(method), saying so in the verdicts of its `eligible` candidates.
  bool SkipConsolidated(Method method, const std::vector<const Candidate*>& eligible) {
    if (!Consolidated(method)) return false;
    if (!verdicts.enabled()) return true;
    for (const Candidate* c : eligible) {
      verdicts.Set(c->name(), method, VerdictCode::kConsolidated,
                   absl::StrCat(std::string(MethodName(method)),
                                " found nothing last pass and the cluster has not changed"));
    }
    return true;
  }
  // A method that had candidates found nothing: unless budgets held some back, the host may
  // skip it until the cluster changes.
  void FoundNothing(Method method, bool constrained_by_budgets) {
    if (!constrained_by_budgets) now_consolidated.push_back(method);
  }
  // The pools' budgets for `reason` now, remembered for the host's metrics.
  std::map<std::string, PoolBudget> Budgets(Reason reason) {
    std::map<std::string, PoolBudget> mapping = BuildBudgetMapping(snapshot, now, reason, expired);
    for (const auto& [pool, budget] : mapping) budgets[{pool, reason}] = budget;
    return mapping;
  }
  // Records `code` for `method` on `c` with the pool's budget for `reason` as the method saw it.
  MethodVerdict* Verdict(const Candidate& c, Method method, VerdictCode code,
                         std::string_view message, Reason reason, const PoolBudget& budget) {
    MethodVerdict* verdict = verdicts.Set(c.name(), method, code, message);
    if (verdict != nullptr) {
      verdict->budget = BudgetCount{c.node_pool->metadata.name, reason, budget};
    }
    return verdict;
  }
  std::optional<BalancedCheck> Balanced(const Candidate& c, double savings) const {
    return BalancedCheckOf(c, savings, pool_totals);
  }
};

std::string BudgetNote(const std::string& pool, Reason reason, const PoolBudget& budget) {
  std::string note = fmt::format(
      "nodepool {}: budget allows no more {} disruptions ({} allowed, {} of {} nodes "
      "already disrupting); other candidates wait",
      pool, ReasonName(reason), budget.allowed, budget.disrupting, budget.nodes);
  if (!budget.problem.empty()) absl::StrAppend(&note, "; ", budget.problem);
  return note;
}

// Takes one unit of the candidate's pool budget, or notes that there is none left.
bool TakeBudget(Context& ctx, std::map<std::string, PoolBudget>& budgets, const Candidate& c,
                Reason reason, Method method) {
  PoolBudget& budget = budgets[c.node_pool->metadata.name];
  if (budget.remaining > 0) {
    ctx.Verdict(c, method, VerdictCode::kNotEvaluated, "within budget", reason, budget);
    --budget.remaining;
    return true;
  }
  if (ctx.verdicts.enabled()) {
    ctx.Verdict(c, method, VerdictCode::kBudget,
                BudgetNote(c.node_pool->metadata.name, reason, budget), reason, budget);
  }
  // One note per pool and reason (duplicates are dropped at the end), not one per node.
  ctx.notes.push_back(BudgetNote(c.node_pool->metadata.name, reason, budget));
  return false;
}

std::vector<Command> Expiration(Context& ctx, const std::vector<Candidate>& all) {
  std::vector<Command> commands;
  for (const api::Node& node : ctx.snapshot.nodes()) {
    const api::NodeClaim* claim = ctx.snapshot.NodeClaimForNode(node);
    if (claim == nullptr || IsDeleting(node, claim)) continue;
    const api::NodePool* pool = ctx.snapshot.FindNodePool(NodePoolOf(node, claim));
    const std::optional<api::Time> expires = ExpirationTime(*claim, pool);
    ctx.verdicts.SetNotExpired(node.metadata.name, expires, ctx.now);
    if (!expires || *expires > ctx.now) continue;
    ctx.expired.insert(node.metadata.name);
    Command command{.method = Method::kExpiration, .reason = Reason::kExpired};
    command.candidates = {node.metadata.name};
    command.detail = absl::StrCat("expired at ", expires->Rfc3339());
    auto it =
        std::find_if(all.begin(), all.end(), [&](const Candidate& c) { return c.node == &node; });
    if (it != all.end()) {
      // Forceful: provisioning replaces whatever can move; nothing waits for it.
      const Candidate* candidate = &*it;
      SimulationResult result = ctx.simulator.Simulate(std::span(&candidate, 1),
                                                       {.consolidation = false, .now = ctx.now});
      command.candidate_price_per_hour = candidate->price;
      command.savings_per_hour = candidate->price;
      for (const auto& claim_plan : result.new_node_claims) {
        command.savings_per_hour -= claim_plan.launch.price;
      }
      command.replacements = std::move(result.new_node_claims);
      command.destinations = std::move(result.destinations);
    }
    commands.push_back(std::move(command));
  }
  return commands;
}

std::vector<Command> Emptiness(Context& ctx, const std::vector<const Candidate*>& candidates) {
  std::vector<const Candidate*> empty;
  for (const Candidate* c : candidates) {
    if (EmptinessEligible(*c, ctx.now)) {
      empty.push_back(c);
    } else if (ctx.verdicts.enabled()) {
      ctx.verdicts.SetIneligible(c->name(), Method::kEmptiness,
                                 *EmptinessIneligibility(*c, ctx.now));
    }
  }
  ctx.eligible_nodes[Method::kEmptiness] = empty.size();
  if (empty.empty() || ctx.SkipConsolidated(Method::kEmptiness, empty)) return {};
  SortBySavingsRatio(empty);
  auto budgets = ctx.Budgets(Reason::kEmpty);
  Command command{.method = Method::kEmptiness, .reason = Reason::kEmpty};
  bool constrained = false;
  for (const Candidate* c : empty) {
    if (!TakeBudget(ctx, budgets, *c, Reason::kEmpty, Method::kEmptiness)) {
      constrained = true;
      continue;
    }
    command.candidates.push_back(c->name());
    command.candidate_price_per_hour += c->price;
  }
  if (command.candidates.empty()) {
    ctx.FoundNothing(Method::kEmptiness, constrained);
    return {};
  }
  command.savings_per_hour = command.candidate_price_per_hour;
  return {std::move(command)};
}

struct Drifted {
  const Candidate* candidate;
  Drift drift;
};

// The drifted candidates of static pools (StaticDrift) or of dynamic ones (Drift): eventual
// methods, so blocking pods stop a candidate only without a terminationGracePeriod. Empty nodes
// first, then the longest drifted, then by name.
std::vector<Drifted> CollectDrifted(Context& ctx, const std::vector<const Candidate*>& candidates,
                                    bool static_pools) {
  const Method method = static_pools ? Method::kStaticDrift : Method::kDrift;
  std::vector<Drifted> drifted;
  for (const Candidate* c : candidates) {
    if (IsStaticPool(*c->node_pool) != static_pools) {
      ctx.verdicts.Set(c->name(), method,
                       static_pools ? VerdictCode::kNotStaticPool : VerdictCode::kStaticPool,
                       static_pools ? "StaticDrift only replaces nodes of static NodePools"
                                    : "static NodePool: left to StaticDrift");
      continue;
    }
    if (!c->pod_block.empty() && !c->HasTerminationGracePeriod()) {
      if (ctx.verdicts.enabled()) {
        ctx.verdicts.Set(c->name(), method, VerdictCode::kPodBlocked,
                         c->pod_block + " (and the NodeClaim has no terminationGracePeriod)");
      }
      continue;
    }
    Drift drift = DetectDrift(ctx.snapshot, *c, ctx.now);
    if (!drift.reason.empty()) {
      drifted.push_back({c, std::move(drift)});
    } else {
      ctx.verdicts.Set(c->name(), method, VerdictCode::kNotDrifted, "not drifted");
    }
  }
  std::stable_sort(drifted.begin(), drifted.end(), [](const Drifted& a, const Drifted& b) {
    const bool a_empty = a.candidate->reschedulable_pods.empty();
    const bool b_empty = b.candidate->reschedulable_pods.empty();
    if (a_empty != b_empty) return a_empty;
    if (a.drift.since != b.drift.since) return a.drift.since < b.drift.since;
    return a.candidate->name() < b.candidate->name();
  });
  return drifted;
}

// One command per replaceable node, each with a NodeClaim from the pool's template (no
// scheduling simulation, as upstream), pool by pool. Upstream takes a pool's drifted candidates
// in cluster-state order; the drift order (CollectDrifted) makes the choice deterministic.
std::vector<Command> StaticDriftMethod(Context& ctx,
                                       const std::vector<const Candidate*>& candidates) {
  const std::vector<Drifted> drifted = CollectDrifted(ctx, candidates, /*static_pools=*/true);
  ctx.eligible_nodes[Method::kStaticDrift] = drifted.size();
  std::map<std::string, std::vector<const Drifted*>> by_pool;
  for (const Drifted& d : drifted) by_pool[d.candidate->node_pool->metadata.name].push_back(&d);
  auto budgets = ctx.Budgets(Reason::kDrifted);
  std::vector<Command> commands;
  for (const auto& [pool_name, pool_drifted] : by_pool) {
    const PoolBudget& budget = budgets[pool_name];
    if (budget.remaining == 0) {
      ctx.notes.push_back(BudgetNote(pool_name, Reason::kDrifted, budget));
      for (const Drifted* d : pool_drifted) {
        ctx.Verdict(*d->candidate, Method::kStaticDrift, VerdictCode::kBudget, ctx.notes.back(),
                    Reason::kDrifted, budget);
      }
      continue;
    }
    const api::NodePool& pool = *pool_drifted.front()->candidate->node_pool;
    const StaticDriftAllowance allowance =
        AllowStaticDrift(pool, CountStaticPoolNodeClaims(ctx.snapshot, pool_name, ctx.expired),
                         budget.remaining, static_cast<int64_t>(pool_drifted.size()));
    if (!allowance.held_by.empty()) {
      ctx.notes.push_back(fmt::format("nodepool {}: {} of {} drifted static nodes replaced now: {}",
                                      pool_name, allowance.replaceable, pool_drifted.size(),
                                      allowance.held_by));
      for (size_t i = static_cast<size_t>(allowance.replaceable);
           ctx.verdicts.enabled() && i < pool_drifted.size(); ++i) {
        ctx.Verdict(*pool_drifted[i]->candidate, Method::kStaticDrift, VerdictCode::kBudget,
                    absl::StrCat("drifted (", pool_drifted[i]->drift.reason,
                                 ") but held back: ", allowance.held_by),
                    Reason::kDrifted, budget);
      }
    }
    auto pool_types = std::find_if(
        ctx.input.node_pools.begin(), ctx.input.node_pools.end(),
        [&name = pool_name](const auto& p) { return p.node_pool.metadata.name == name; });
    for (int64_t i = 0; i < allowance.replaceable; ++i) {
      const Drifted& d = *pool_drifted[static_cast<size_t>(i)];
      absl::StatusOr<provisioning::NewNodeClaim> claim =
          pool_types == ctx.input.node_pools.end()
              ? absl::NotFoundError("the pool resolved no instance types")
              : provisioning::TemplateNodeClaim(*pool_types, ctx.input.options);
      absl::StatusOr<provisioning::LaunchPrediction> launch =
          claim.ok() ? provisioning::PredictLaunch(*claim) : claim.status();
      if (!launch.ok()) {
        ctx.notes.push_back(absl::StrCat(d.candidate->name(), ": drifted (", d.drift.reason,
                                         ") but cannot be replaced: ", launch.status().message()));
        ctx.Verdict(*d.candidate, Method::kStaticDrift, VerdictCode::kNoReplacement,
                    ctx.notes.back().substr(d.candidate->name().size() + 2), Reason::kDrifted,
                    budget);
        continue;
      }
      ctx.Verdict(*d.candidate, Method::kStaticDrift, VerdictCode::kActs, d.drift.reason,
                  Reason::kDrifted, budget);
      Command command{.method = Method::kStaticDrift, .reason = Reason::kDrifted};
      command.candidates = {d.candidate->name()};
      command.detail = d.drift.reason;
      command.candidate_price_per_hour = d.candidate->price;
      command.savings_per_hour = d.candidate->price - launch->price;
      command.replacements.push_back({*std::move(claim), *std::move(launch)});
      commands.push_back(std::move(command));
    }
  }
  return commands;
}

std::vector<Command> DriftMethod(Context& ctx, const std::vector<const Candidate*>& candidates) {
  const std::vector<Drifted> drifted = CollectDrifted(ctx, candidates, /*static_pools=*/false);
  ctx.eligible_nodes[Method::kDrift] = drifted.size();
  auto budgets = ctx.Budgets(Reason::kDrifted);
  for (const Drifted& d : drifted) {
    const PoolBudget& budget = budgets[d.candidate->node_pool->metadata.name];
    if (budget.remaining == 0) {
      TakeBudget(ctx, budgets, *d.candidate, Reason::kDrifted, Method::kDrift);
      continue;
    }
    ctx.Verdict(*d.candidate, Method::kDrift, VerdictCode::kNotEvaluated, "within budget",
                Reason::kDrifted, budget);
    SimulationResult result = ctx.simulator.Simulate(std::span(&d.candidate, 1),
                                                     {.consolidation = false, .now = ctx.now});
    if (!result.AllCandidatePodsScheduled()) {
      ctx.notes.push_back(absl::StrCat(d.candidate->name(), ": drifted (", d.drift.reason,
                                       ") but cannot be replaced: ", result.failures.front()));
      ctx.verdicts.Set(d.candidate->name(), Method::kDrift, VerdictCode::kNoReplacement,
                       ctx.notes.back().substr(d.candidate->name().size() + 2));
      continue;
    }
    Command command{.method = Method::kDrift, .reason = Reason::kDrifted};
    command.candidates = {d.candidate->name()};
    command.detail = d.drift.reason;
    command.candidate_price_per_hour = d.candidate->price;
    command.savings_per_hour = d.candidate->price;
    for (const auto& planned : result.new_node_claims)
      command.savings_per_hour -= planned.launch.price;
    command.replacements = std::move(result.new_node_claims);
    command.destinations = std::move(result.destinations);
    return {std::move(command)};
  }
  return {};
}

std::vector<const Candidate*> ConsolidationCandidates(Context& ctx,
                                                      const std::vector<const Candidate*>& all) {
  std::vector<const Candidate*> out;
  for (const Candidate* c : all) {
    std::optional<Ineligibility> why = ConsolidationIneligibilityOf(*c, ctx.now);
    if (!why) {
      out.push_back(c);
      continue;
    }
    ctx.verdicts.SetIneligible(c->name(), Method::kMultiNodeConsolidation, *why);
    ctx.verdicts.SetIneligible(c->name(), Method::kSingleNodeConsolidation, *why);
  }
  SortBySavingsRatio(out);
  return out;
}

std::vector<Command> MultiNode(Context& ctx, const std::vector<const Candidate*>& eligible) {
  if (eligible.empty() || ctx.SkipConsolidated(Method::kMultiNodeConsolidation, eligible)) {
    return {};
  }
  auto budgets = ctx.Budgets(Reason::kUnderutilized);
  std::vector<const Candidate*> within;
  for (const Candidate* c : eligible) {
    if (TakeBudget(ctx, budgets, *c, Reason::kUnderutilized, Method::kMultiNodeConsolidation)) {
      within.push_back(c);
    }
  }
  std::optional<Command> command =
      MultiNodeConsolidation(ctx.simulator, within,
                             {.spot_to_spot = ctx.options.spot_to_spot_consolidation,
                              .now = ctx.now,
                              .balanced_totals = &ctx.pool_totals},
                             ctx.options.max_multi_node_candidates);
  for (const Candidate* c : within) {
    MethodVerdict* verdict = ctx.verdicts.Set(
        c->name(), Method::kMultiNodeConsolidation, VerdictCode::kNoMove,
        command ? "the multi-node move found takes other nodes"
                : "no move of 2 or more candidates deletes them or replaces them with one cheaper "
                  "NodeClaim");
    if (verdict != nullptr) verdict->balanced = ctx.Balanced(*c, c->price);
  }
  if (!command) {
    ctx.FoundNothing(Method::kMultiNodeConsolidation, within.size() < eligible.size());
    return {};
  }
  command->method = Method::kMultiNodeConsolidation;
  command->reason = Reason::kUnderutilized;
  return {*std::move(command)};
}

std::vector<Command> SingleNode(Context& ctx, const std::vector<const Candidate*>& eligible) {
  if (eligible.empty() || ctx.SkipConsolidated(Method::kSingleNodeConsolidation, eligible)) {
    return {};
  }
  auto budgets = ctx.Budgets(Reason::kUnderutilized);
  bool constrained = false;
  const Method single = Method::kSingleNodeConsolidation;
  for (const Candidate* c : InterleaveByNodePool(eligible)) {
    if (ctx.Cancelled()) return {};
    const PoolBudget& budget = budgets[c->node_pool->metadata.name];
    if (budget.remaining == 0) {
      constrained = true;
      if (ctx.verdicts.enabled()) {
        ctx.Verdict(*c, single, VerdictCode::kBudget,
                    BudgetNote(c->node_pool->metadata.name, Reason::kUnderutilized, budget),
                    Reason::kUnderutilized, budget);
      }
      continue;
    }
    MethodVerdict* verdict =
        ctx.Verdict(*c, single, VerdictCode::kNotEvaluated, "", Reason::kUnderutilized, budget);
    if (verdict != nullptr) verdict->balanced = ctx.Balanced(*c, c->price);
    if (!CanPassBalancedThreshold(*c, ctx.pool_totals)) {
      ctx.notes.push_back(absl::StrCat(c->name(),
                                       ": not consolidated: even deleting it would not "
                                       "pass the Balanced policy's threshold"));
      ctx.verdicts.Set(c->name(), single, VerdictCode::kBalancedThreshold,
                       "even deleting it would not pass the Balanced policy's threshold");
      continue;
    }
    ConsolidationDecision decision = ComputeConsolidation(
        ctx.simulator, std::span(&c, 1),
        {.spot_to_spot = ctx.options.spot_to_spot_consolidation, .now = ctx.now});
    if (!decision.command) {
      ctx.notes.push_back(absl::StrCat(c->name(), ": not consolidated: ", decision.rejection));
      ctx.verdicts.Set(c->name(), single, VerdictCode::kNoMove, decision.rejection);
      continue;
    }
    if (!ApproveBalanced(*decision.command, std::span(&c, 1), ctx.pool_totals)) {
      ctx.notes.push_back(absl::StrCat(c->name(),
                                       ": not consolidated: the Balanced policy rejects "
                                       "the move (savings too small for its disruption)"));
      if (verdict != nullptr) {
        verdict->code = VerdictCode::kBalancedThreshold;
        for (const provisioning::PlannedNodeClaim& planned : decision.command->replacements) {
          verdict->replacements.push_back(planned.launch);
        }
        verdict->message = absl::StrCat("the Balanced policy rejects the move (",
                                        DescribeCommand(*decision.command), ")");
        verdict->balanced = ctx.Balanced(*c, decision.command->savings_per_hour);
      }
      continue;
    }
    decision.command->method = Method::kSingleNodeConsolidation;
    decision.command->reason = Reason::kUnderutilized;
    return {*std::move(decision.command)};
  }
  ctx.FoundNothing(Method::kSingleNodeConsolidation, constrained);
  return {};
}

// The opt-in extended search (extended_consolidation.h), run only after upstream's methods found
// nothing. It runs even when the host passes both upstream methods as consolidated: a command of
// its own that validation abandoned leaves them marked, and skipping would then never retry it
// (a host's idle-poll skip, DisruptionResult::idle, still avoids repeating a fruitless search).
std::vector<Command> ExtendedConsolidation(Context& ctx,
                                           const std::vector<const Candidate*>& eligible) {
  if (ctx.options.consolidation_search != ConsolidationSearch::kExtended || eligible.size() < 2) {
    return {};
  }
  auto budgets = ctx.Budgets(Reason::kUnderutilized);
  std::vector<const Candidate*> within;
  for (const Candidate* c : eligible) {
    if (TakeBudget(ctx, budgets, *c, Reason::kUnderutilized, Method::kMultiNodeConsolidation)) {
      within.push_back(c);
    }
  }
  PoolTypes pool_types;
  for (const provisioning::NodePoolInstanceTypes& pool : ctx.input.node_pools) {
    pool_types[pool.node_pool.metadata.name] = pool.instance_types;
  }
  const ConsolidationOptions options{.spot_to_spot = ctx.options.spot_to_spot_consolidation,
                                     .now = ctx.now,
                                     .balanced_totals = &ctx.pool_totals};
  std::optional<Command> command = GroupedMultiNodeConsolidation(
      ctx.simulator, within, pool_types, options, ctx.options.max_multi_node_candidates);
  // Re-shapes only where no move of at most one replacement is left.
  if (!command) command = ReshapeConsolidation(ctx.simulator, ctx.input, within, options);
  for (const Candidate* c : within) {
    ctx.verdicts.Set(c->name(), Method::kMultiNodeConsolidation, VerdictCode::kNoMove,
                     command ? "the extended search's move takes other nodes"
                             : "neither upstream's searches nor the extended one found a move");
  }
  if (!command) return {};
  command->method = Method::kMultiNodeConsolidation;
  command->reason = Reason::kUnderutilized;
  return {*std::move(command)};
}

// Runs one graceful method, timed when the options carry a clock.
template <class Run>
std::vector<Command> Timed(const DisruptionOptions& options, Method method,
                           std::map<Method, double>& seconds, Run run) {
  if (!options.now) return run();
  const api::Time start = options.now();
  std::vector<Command> commands = run();
  seconds[method] = static_cast<double>((options.now() - start).Nanos()) / 1e9;
  return commands;
}

}  // namespace

// What a pass keeps between its steps. Context points into the other members, so the state
// lives on the heap and never moves.
struct DisruptionPass::State {
  State(const state::ClusterSnapshot& snapshot, provisioning::SnapshotSchedulerInput& input,
        api::Time now, DisruptionOptions options_in)
      : options(std::move(options_in)),
        types(IndexInstanceTypes(input.input)),
        set(BuildCandidates(snapshot, types, now)),
        simulator(snapshot, input),
        ctx{snapshot,
            simulator,
            input.input,
            now,
            options,
            {},
            result.notes,
            {},
            result.now_consolidated,
            result.eligible_nodes,
            result.budgets,
            verdicts} {}

  DisruptionOptions options;  // `consolidated` may grow before Consolidate
  const PoolInstanceTypes types;
  CandidateSet set;
  const Simulator simulator;
  DisruptionResult result;
  VerdictLog verdicts{options.record_verdicts};
  Context ctx;
  std::vector<const Candidate*> live;  // candidates Expiration leaves
  std::vector<Command> commands;       // the winning budgeted method's
};

DisruptionPass::DisruptionPass(const state::ClusterSnapshot& snapshot,
                               provisioning::SnapshotSchedulerInput& input, api::Time now,
                               DisruptionOptions options)
    : state_(std::make_unique<State>(snapshot, input, now, std::move(options))) {
  State& s = *state_;
  s.result.blocked = s.set.blocked;
  s.ctx.pool_totals = ComputePoolTotals(snapshot, s.set.candidates);
  s.result.commands = Expiration(s.ctx, s.set.candidates);
  for (const Candidate& c : s.set.candidates) {
    if (!s.ctx.expired.contains(c.name())) s.live.push_back(&c);
  }
  std::map<Method, double>& seconds = s.result.evaluation_seconds;
  s.commands =
      Timed(s.options, Method::kEmptiness, seconds, [&] { return Emptiness(s.ctx, s.live); });
  if (s.commands.empty()) {
    s.commands = Timed(s.options, Method::kStaticDrift, seconds,
                       [&] { return StaticDriftMethod(s.ctx, s.live); });
  }
  if (s.commands.empty()) {
    s.commands =
        Timed(s.options, Method::kDrift, seconds, [&] { return DriftMethod(s.ctx, s.live); });
  }
}

DisruptionPass::~DisruptionPass() = default;

bool DisruptionPass::FoundCommand() const {
  return !state_->result.commands.empty() || !state_->commands.empty();
}

const std::vector<Method>& DisruptionPass::NowConsolidated() const {
  return state_->result.now_consolidated;
}

void DisruptionPass::AlsoConsolidated(std::span<const Method> methods) {
  std::vector<Method>& consolidated = state_->options.consolidated;
  for (Method method : methods) {
    if (std::find(consolidated.begin(), consolidated.end(), method) == consolidated.end()) {
      consolidated.push_back(method);
    }
  }
}

void DisruptionPass::Consolidate(const std::atomic<bool>* cancelled) {
  State& s = *state_;
  s.ctx.cancelled = cancelled;
  if (!s.commands.empty() || consolidated_ || s.ctx.Cancelled()) return;
  consolidated_ = true;
  const std::vector<const Candidate*> eligible = ConsolidationCandidates(s.ctx, s.live);
  s.ctx.eligible_nodes[Method::kMultiNodeConsolidation] = eligible.size();
  s.ctx.eligible_nodes[Method::kSingleNodeConsolidation] = eligible.size();
  std::map<Method, double>& seconds = s.result.evaluation_seconds;
  s.commands = Timed(s.options, Method::kMultiNodeConsolidation, seconds,
                     [&] { return MultiNode(s.ctx, eligible); });
  if (s.commands.empty()) {
    s.commands = Timed(s.options, Method::kSingleNodeConsolidation, seconds,
                       [&] { return SingleNode(s.ctx, eligible); });
  }
  if (s.commands.empty() && !s.ctx.Cancelled()) {
    s.commands = ExtendedConsolidation(s.ctx, eligible);
  }
}

DisruptionResult DisruptionPass::Finish() && {
  State& s = *state_;
  CompleteVerdicts(s.ctx.snapshot, s.set, s.ctx.expired, s.result, s.commands, s.verdicts);
  s.result.verdicts = std::move(s.verdicts).Take();
  for (Command& command : s.commands) s.result.commands.push_back(std::move(command));
  std::vector<std::string>& notes = s.result.notes;
  std::sort(notes.begin(), notes.end());
  notes.erase(std::unique(notes.begin(), notes.end()), notes.end());
  return std::move(s.result);
}

DisruptionResult ComputeDisruption(const state::ClusterSnapshot& snapshot,
                                   provisioning::SnapshotSchedulerInput& input, api::Time now,
                                   const DisruptionOptions& options) {
  DisruptionPass pass(snapshot, input, now, options);
  pass.Consolidate();
  return std::move(pass).Finish();
}

absl::StatusOr<DisruptionResult> ComputeDisruption(const state::ClusterSnapshot& snapshot,
                                                   api::Time now,
                                                   const DisruptionOptions& options) {
  provisioning::CatalogCache catalogs;
  provisioning::PlanOptions plan_options{.scheduler = options.scheduler, .now = now};
  KP_ASSIGN_OR_RETURN(provisioning::SnapshotSchedulerInput input,
                      provisioning::BuildSchedulerInput(snapshot, plan_options, catalogs));
  DisruptionResult result = ComputeDisruption(snapshot, input, now, options);
  // `input` dies here; names, zones and launches stay, pointers into it must not.
  for (Command& command : result.commands) {
    for (provisioning::PlannedNodeClaim& planned : command.replacements) {
      planned.claim.instance_type_options.clear();
    }
  }
  return result;
}

}  // namespace karpenter::disruption
