#include "src/disruption/verdict_log.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::disruption {

std::string_view VerdictCodeName(VerdictCode code) {
  switch (code) {
    case VerdictCode::kActs:
      return "acts";
    case VerdictCode::kNotCandidate:
      return "not-candidate";
    case VerdictCode::kPodBlocked:
      return "pod-blocked";
    case VerdictCode::kStaticPool:
      return "static-pool";
    case VerdictCode::kNotStaticPool:
      return "not-static-pool";
    case VerdictCode::kConsolidationDisabled:
      return "consolidation-disabled";
    case VerdictCode::kNotEmpty:
      return "not-empty";
    case VerdictCode::kWhenEmptyPolicy:
      return "when-empty-policy";
    case VerdictCode::kLeftToEmptiness:
      return "left-to-emptiness";
    case VerdictCode::kConsolidateAfter:
      return "consolidate-after";
    case VerdictCode::kIneligible:
      return "ineligible";
    case VerdictCode::kConsolidated:
      return "consolidated";
    case VerdictCode::kBudget:
      return "budget";
    case VerdictCode::kNotDrifted:
      return "not-drifted";
    case VerdictCode::kNoReplacement:
      return "no-replacement";
    case VerdictCode::kNoExpiry:
      return "no-expiry";
    case VerdictCode::kNotExpired:
      return "not-expired";
    case VerdictCode::kBalancedThreshold:
      return "balanced-threshold";
    case VerdictCode::kNoMove:
      return "no-move";
    case VerdictCode::kNotEvaluated:
      return "not-evaluated";
  }
  return "";
}

int MethodRank(Method method) {
  switch (method) {
    case Method::kExpiration:
      return 0;
    case Method::kEmptiness:
      return 1;
    case Method::kStaticDrift:
      return 2;
    case Method::kDrift:
      return 3;
    case Method::kMultiNodeConsolidation:
      return 4;
    case Method::kSingleNodeConsolidation:
      return 5;
  }
  return 6;
}

MethodVerdict* VerdictLog::Set(const std::string& node, Method method, VerdictCode code,
                               std::string_view message) {
  if (!enabled_) return nullptr;
  MethodVerdict& verdict = verdicts_[{node, MethodRank(method)}];
  verdict.node = node;
  verdict.method = method;
  verdict.code = code;
  verdict.message = std::string(message);
  return &verdict;
}

void VerdictLog::SetIneligible(const std::string& node, Method method, const Ineligibility& why) {
  MethodVerdict* verdict = Set(node, method, why.code, why.message);
  if (verdict != nullptr) verdict->time_left = why.time_left;
}

void VerdictLog::SetNotExpired(const std::string& node, std::optional<api::Time> expires,
                               api::Time now) {
  if (!enabled_) return;  // the message below is built before Set could say so
  if (!expires) {
    Set(node, Method::kExpiration, VerdictCode::kNoExpiry, "expireAfter is Never");
    return;
  }
  if (*expires <= now) return;
  MethodVerdict* verdict = Set(
      node, Method::kExpiration, VerdictCode::kNotExpired,
      absl::StrCat("expires at ", expires->Rfc3339(), " (", (*expires - now).String(), " left)"));
  if (verdict != nullptr) verdict->time_left = *expires - now;
}

bool VerdictLog::Has(const std::string& node, Method method) const {
  return verdicts_.contains({node, MethodRank(method)});
}

void VerdictLog::RecordCommand(const Command& command) {
  if (!enabled_) return;
  const std::string message = DescribeCommand(command);
  for (const std::string& node : command.candidates) {
    MethodVerdict* verdict = Set(node, command.method, VerdictCode::kActs, message);
    verdict->replacements.clear();
    for (const provisioning::PlannedNodeClaim& planned : command.replacements) {
      verdict->replacements.push_back(planned.launch);
    }
  }
}

void VerdictLog::FillNotEvaluated(std::span<const Candidate* const> candidates,
                                  std::span<const Method> methods, const std::string& why) {
  if (!enabled_) return;
  for (const Candidate* candidate : candidates) {
    for (Method method : methods) {
      if (!Has(candidate->name(), method)) {
        Set(candidate->name(), method, VerdictCode::kNotEvaluated, why);
      }
    }
  }
}

void VerdictLog::AddBlockers(std::span<const Candidate* const> candidates) {
  if (!enabled_) return;
  for (const Candidate* candidate : candidates) {
    if (candidate->pod_block.empty()) continue;
    const PodBlockers& blockers = candidate->blockers;
    std::set<std::string> pods(blockers.do_not_disrupt_pods.begin(),
                               blockers.do_not_disrupt_pods.end());
    pods.insert(blockers.pdb_pods.begin(), blockers.pdb_pods.end());
    auto it = verdicts_.lower_bound({candidate->name(), -1});
    for (; it != verdicts_.end() && it->first.first == candidate->name(); ++it) {
      MethodVerdict& verdict = it->second;
      if (verdict.code != VerdictCode::kPodBlocked) continue;  // the pods do not stop it
      verdict.do_not_disrupt = verdict.do_not_disrupt || !blockers.do_not_disrupt_pods.empty();
      verdict.blocking_pdbs = blockers.pdbs;
      verdict.blocking_pods.assign(pods.begin(), pods.end());
    }
  }
}

std::vector<MethodVerdict> VerdictLog::Take() && {
  std::vector<MethodVerdict> out;
  out.reserve(verdicts_.size());
  for (auto& [key, verdict] : verdicts_) out.push_back(std::move(verdict));
  return out;
}

std::string DescribeCommand(const Command& command) {
  std::string out;
  if (command.replacements.empty()) {
    out = command.method == Method::kExpiration ? "expire" : "delete, no replacement needed";
  } else {
    out = "replace with";
    for (size_t i = 0; i < command.replacements.size(); ++i) {
      const provisioning::LaunchPrediction& launch = command.replacements[i].launch;
      out += fmt::format("{} {} {} in {} (${:.4f}/h)", i == 0 ? "" : ",", launch.capacity_type,
                         launch.instance_type, launch.zone, launch.price);
    }
  }
  if (command.savings_per_hour >= 0) {
    out += fmt::format(", saves ${:.4f}/h", command.savings_per_hour);
  } else {
    out += fmt::format(", costs ${:.4f}/h more", -command.savings_per_hour);
  }
  if (command.candidates.size() > 1) {
    out += fmt::format(" (with {} other node{})", command.candidates.size() - 1,
                       command.candidates.size() == 2 ? "" : "s");
  }
  if (!command.detail.empty()) out += "; " + command.detail;
  return out;
}

void CompleteVerdicts(const state::ClusterSnapshot& snapshot, const CandidateSet& set,
                      const std::set<std::string>& expired, const DisruptionResult& result,
                      const std::vector<Command>& winners, VerdictLog& log) {
  if (!log.enabled()) return;
  for (const Command& command : result.commands) log.RecordCommand(command);
  for (const Command& command : winners) log.RecordCommand(command);
  constexpr Method kBudgeted[] = {Method::kEmptiness, Method::kStaticDrift, Method::kDrift,
                                  Method::kMultiNodeConsolidation,
                                  Method::kSingleNodeConsolidation};
  std::vector<const Candidate*> all;
  for (const Candidate& c : set.candidates) {
    all.push_back(&c);
    if (expired.contains(c.name())) {
      const Candidate* one = &c;
      log.FillNotEvaluated(std::span(&one, 1), kBudgeted, "Expiration deletes the node this pass");
    }
  }
  std::string why = "not evaluated this pass";
  if (!winners.empty()) {
    std::vector<std::string> nodes;
    for (const Command& command : winners) {
      nodes.insert(nodes.end(), command.candidates.begin(), command.candidates.end());
    }
    why = absl::StrCat(std::string(MethodName(winners.front().method)),
                       " issued this pass's command (", absl::StrJoin(nodes, ", "),
                       "); the node waits for the next pass");
  }
  log.FillNotEvaluated(all, kBudgeted, why);
  log.AddBlockers(all);
  for (const BlockedNode& blocked : set.blocked) {
    if (log.Has(blocked.node, Method::kEmptiness)) continue;  // a pod-blocked candidate
    const api::Node* node = snapshot.FindNode(blocked.node);
    auto annotation =
        node->metadata.annotations.find(api::KeyString<api::kDoNotDisruptAnnotationKey>());
    for (Method method : kBudgeted) {
      MethodVerdict* verdict =
          log.Set(blocked.node, method, VerdictCode::kNotCandidate, blocked.reason);
      verdict->do_not_disrupt =
          annotation != node->metadata.annotations.end() && annotation->second == "true";
    }
  }
}

}  // namespace karpenter::disruption
