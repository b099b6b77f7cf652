// Upstream: pkg/controllers/disruption/queue.go (kubernetes-sigs/karpenter).
// The orchestration queue (D11, behaviour 29) as a pure state machine the host drives: starting a
// command taints its candidates karpenter.sh/disrupted:NoSchedule and launches its replacements;
// each reconcile waits for every replacement to be Initialized, then deletes the candidates. A
// replacement that disappears, or a command older than the retry timeout, rolls back: the
// candidates are untainted and left in place. The queue never touches the cluster itself; it
// returns the actions for the host (controller or twin) to apply, in order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/duration.h"
#include "src/api/time.h"
#include "src/disruption/command.h"

namespace karpenter::disruption {

struct QueueAction {
  enum class Kind {
    kTaintCandidate,     // add karpenter.sh/disrupted:NoSchedule and the DisruptionReason condition
    kLaunchReplacement,  // create a NodeClaim from command.replacements[replacement]
    kDeleteCandidate,    // delete the candidate's NodeClaim; termination drains it
    kUntaintCandidate,   // roll back: remove the taint and the condition
  };
  Kind kind = Kind::kTaintCandidate;
  uint64_t command_id = 0;
  std::string node;        // the candidate, for taint/untaint/delete
  size_t replacement = 0;  // index into the command's replacements, for launches
  friend bool operator==(const QueueAction&, const QueueAction&) = default;
};

// What the host sees of a launched replacement NodeClaim.
enum class ReplacementState { kLaunching, kInitialized, kGone };

// Retry timeout bounds and scale: clamp(80 ms × queued candidates, 10 min, 1 h).
inline const api::Duration kMinQueueRetryDuration = api::Duration::FromMinutes(10);
inline const api::Duration kMaxQueueRetryDuration = api::Duration::FromHours(1);

class OrchestrationQueue {
 public:
  // Queues `command` (created at `now`) and returns its id; appends the taints of every candidate
  // and then one launch per replacement to `actions`.
  uint64_t Start(Command command, api::Time now, std::vector<QueueAction>& actions);

  // The host created replacement `index` of command `id` as NodeClaim `node_claim_name`.
  void ReplacementCreated(uint64_t id, size_t index, std::string node_claim_name);
  // Creating a replacement failed: the command is dropped and its candidates untainted.
  std::vector<QueueAction> ReplacementFailed(uint64_t id);

  // One pass over the queued commands, oldest first. `state` reports each created replacement
  // by NodeClaim name; a replacement not created yet counts as launching.
  std::vector<QueueAction> Reconcile(
      api::Time now, const std::function<ReplacementState(const std::string&)>& state);

  // Whether a node is a candidate of a queued command (it is then no disruption candidate).
  bool Contains(std::string_view node) const;
  size_t size() const { return commands_.size(); }
  // How long a command may wait for its replacements before it is rolled back.
  api::Duration RetryTimeout() const;

 private:
  struct Entry {
    Command command;
    api::Time created;
    std::vector<std::string> replacement_names;  // "" until created
  };
  std::vector<QueueAction> RollBack(uint64_t id);

  uint64_t next_id_ = 1;
  std::map<uint64_t, Entry> commands_;
};

}  // namespace karpenter::disruption
