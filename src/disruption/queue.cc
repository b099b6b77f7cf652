// Upstream: pkg/controllers/disruption/queue.go
#include "src/disruption/queue.h"

#include <algorithm>
#include <utility>

namespace karpenter::disruption {

uint64_t OrchestrationQueue::Start(Command command, api::Time now,
                                   std::vector<QueueAction>& actions) {
  const uint64_t id = next_id_++;
  for (const std::string& node : command.candidates) {
    actions.push_back({.kind = QueueAction::Kind::kTaintCandidate, .command_id = id, .node = node});
  }
  for (size_t i = 0; i < command.replacements.size(); ++i) {
    actions.push_back(
        {.kind = QueueAction::Kind::kLaunchReplacement, .command_id = id, .replacement = i});
  }
  Entry entry{std::move(command), now, {}};
  entry.replacement_names.resize(entry.command.replacements.size());
  commands_.emplace(id, std::move(entry));
  return id;
}

void OrchestrationQueue::ReplacementCreated(uint64_t id, size_t index,
                                            std::string node_claim_name) {
  auto it = commands_.find(id);
  if (it == commands_.end() || index >= it->second.replacement_names.size()) return;
  it->second.replacement_names[index] = std::move(node_claim_name);
}

std::vector<QueueAction> OrchestrationQueue::RollBack(uint64_t id) {
  std::vector<QueueAction> actions;
  auto it = commands_.find(id);
  if (it == commands_.end()) return actions;
  for (const std::string& node : it->second.command.candidates) {
    actions.push_back(
        {.kind = QueueAction::Kind::kUntaintCandidate, .command_id = id, .node = node});
  }
  commands_.erase(it);
  return actions;
}

std::vector<QueueAction> OrchestrationQueue::ReplacementFailed(uint64_t id) { return RollBack(id); }

api::Duration OrchestrationQueue::RetryTimeout() const {
  size_t queued = 0;
  for (const auto& [id, entry] : commands_) queued += entry.command.candidates.size();
  const api::Duration scaled = api::Duration::FromMillis(80 * static_cast<int64_t>(queued));
  return std::clamp(scaled, kMinQueueRetryDuration, kMaxQueueRetryDuration);
}

std::vector<QueueAction> OrchestrationQueue::Reconcile(
    api::Time now, const std::function<ReplacementState(const std::string&)>& state) {
  std::vector<QueueAction> actions;
  const api::Duration timeout = RetryTimeout();
  // (id, finished) in id order; unfinished commands that are still waiting are left alone.
  std::vector<std::pair<uint64_t, bool>> decided;
  for (const auto& [id, entry] : commands_) {
    bool all_initialized = true;
    bool gone = false;
    for (const std::string& name : entry.replacement_names) {
      const ReplacementState s = name.empty() ? ReplacementState::kLaunching : state(name);
      gone |= s == ReplacementState::kGone;
      all_initialized &= s == ReplacementState::kInitialized;
    }
    if (gone || (!all_initialized && now - entry.created > timeout)) {
      decided.emplace_back(id, false);
    } else if (all_initialized) {
      decided.emplace_back(id, true);
    }
  }
  for (const auto& [id, finished] : decided) {
    if (!finished) {
      std::vector<QueueAction> rolled = RollBack(id);
      actions.insert(actions.end(), rolled.begin(), rolled.end());
      continue;
    }
    for (const std::string& node : commands_.at(id).command.candidates) {
      actions.push_back(
          {.kind = QueueAction::Kind::kDeleteCandidate, .command_id = id, .node = node});
    }
    commands_.erase(id);
  }
  return actions;
}

bool OrchestrationQueue::Contains(std::string_view node) const {
  for (const auto& [id, entry] : commands_) {
    const std::vector<std::string>& candidates = entry.command.candidates;
    if (std::find(candidates.begin(), candidates.end(), node) != candidates.end()) return true;
  }
  return false;
}

}  // namespace karpenter::disruption
