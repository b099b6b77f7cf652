// Collects the per-node, per-method verdicts (verdict.h) while a disruption pass decides. A
// disabled log records nothing and costs a branch, so hosts that never explain (the twin) do not
// pay for the messages.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/disruption/candidates.h"
#include "src/disruption/command.h"
#include "src/disruption/disruption.h"
#include "src/disruption/eligibility.h"
#include "src/disruption/verdict.h"

namespace karpenter::disruption {

class VerdictLog {
 public:
  explicit VerdictLog(bool enabled) : enabled_(enabled) {}

  bool enabled() const { return enabled_; }

  // Sets the code and message of `method` on `node`, keeping details recorded earlier; nullptr
  // (record nothing) when disabled.
  MethodVerdict* Set(const std::string& node, Method method, VerdictCode code,
                     std::string_view message);
  // The method may not look at the candidate: `why`'s code, message and time left.
  void SetIneligible(const std::string& node, Method method, const Ineligibility& why);
  // Expiration's verdict on a node that expires at `expires` (nullopt: never), unless it is
  // expired at `now` (then the command says it).
  void SetNotExpired(const std::string& node, std::optional<api::Time> expires, api::Time now);
  bool Has(const std::string& node, Method method) const;

  // Every candidate of `command` acts, with the command's replacements.
  void RecordCommand(const Command& command);
  // `kNotEvaluated` for each (candidate, method) without a verdict, saying what ended the pass.
  void FillNotEvaluated(std::span<const Candidate* const> candidates,
                        std::span<const Method> methods, const std::string& why);
  // Adds the candidates' pod blockers to their kPodBlocked verdicts.
  void AddBlockers(std::span<const Candidate* const> candidates);

  // Sorted by node, then by MethodRank.
  std::vector<MethodVerdict> Take() &&;

 private:
  bool enabled_;
  std::map<std::pair<std::string, int>, MethodVerdict> verdicts_;
};

// After a pass: records the commands' candidates as acting, `kNotEvaluated` for what the pass
// never reached (saying which command ended it), the pod blockers, and `kNotCandidate` for nodes
// that are not candidates at all.
void CompleteVerdicts(const state::ClusterSnapshot& snapshot, const CandidateSet& set,
                      const std::set<std::string>& expired, const DisruptionResult& result,
                      const std::vector<Command>& winners, VerdictLog& log);

// What a command does to its nodes, for people: "replace with on-demand m5.large in us-east-1a
// ($0.0960/h), saves $0.0300/h".
std::string DescribeCommand(const Command& command);

}  // namespace karpenter::disruption
