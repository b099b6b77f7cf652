// Upstream: pkg/controllers/interruption/messages (aws/karpenter-provider-aws), features §6.
// The EventBridge events Karpenter's interruption controller reads from its SQS queue: the
// envelope {version, id, detail-type, source, account, time, region, resources, detail},
// routed by (version, source, detail-type) to a kind, and what Karpenter does for each kind.
// Queue bodies are untrusted input: every parse failure is a value, never a crash.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::interruption {

enum class Kind {
  kSpotInterrupted,          // EC2 Spot Instance Interruption Warning
  kRebalanceRecommendation,  // EC2 Instance Rebalance Recommendation
  kScheduledChange,          // AWS Health Event, service EC2, category scheduledChange
  kInstanceStopped,          // EC2 Instance State-change Notification: stopping, stopped
  kInstanceTerminated,       // ... shutting-down, terminated
  kCapacityReservationInterrupted,
  kNoOp,  // a well-formed event Karpenter does not act on (other routes, states, categories)
};

// "spot_interrupted", "rebalance_recommendation", ... (upstream's messages.Kind spelling, the
// `reason` of karpenter_nodeclaims_disrupted_total).
std::string_view KindName(Kind kind);

struct Message {
  Kind kind = Kind::kNoOp;
  std::string id;                         // the event id
  std::vector<std::string> instance_ids;  // the instances it is about
};

// Parses an SQS message body. InvalidArgument (naming the field) for malformed JSON or a routed
// event missing what its kind needs; unknown routes parse as kNoOp.
absl::StatusOr<Message> ParseMessage(std::string_view body);

// What Karpenter does for a kind: delete the instances' NodeClaims (cordon and drain through
// termination), and for spot interruptions also mark the offering unavailable (3 minutes, the
// unavailable-offerings cache), and the Kubernetes event reason it records.
struct Action {
  bool delete_node_claim = false;
  bool mark_offering_unavailable = false;
  std::string_view event_reason;  // "" for kNoOp
};
Action ActionFor(Kind kind);

}  // namespace karpenter::interruption
