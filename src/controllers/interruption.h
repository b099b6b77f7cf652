// Upstream: aws/karpenter-provider-aws pkg/controllers/interruption/controller.go. Acts on the
// EC2 events of the interruption queue (features §6): each message is parsed
// (src/interruption), every instance it names that backs one of this cluster's NodeClaims gets
// the kind's action — a spot interruption also marks the offering unavailable, and the
// NodeClaim is deleted once (cordon, drain and terminate are the host's) — and the message is
// deleted from the queue whether or not it could be parsed.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/interruption_queue.h"
#include "karpenter/metrics.h"
#include "src/cloudprovider/unavailable_offerings.h"
#include "src/controllers/reconciler.h"
#include "src/interruption/message.h"

namespace karpenter::controllers {

// Upstream's long poll: up to 10 messages a receive.
inline constexpr size_t kInterruptionBatch = 10;

// An instance of ours that a message names.
struct InterruptedInstance {
  std::string instance_id;
  std::string node_claim;
  std::string node_pool;
  OfferingRef offering;
};

// How the host finds and acts on NodeClaims (the twin on its emulated cluster, the controller
// host through the API).
struct InterruptionHooks {
  // The running instance behind `instance_id` when it backs one of this cluster's NodeClaims.
  std::function<std::optional<InterruptedInstance>(const std::string& instance_id)> find;
  // A message about one of ours arrived (the host records it: event, log line).
  std::function<void(const InterruptedInstance&, const interruption::Message&,
                     const interruption::Action&)>
      received;
  // Deletes the NodeClaim: cordon, drain and terminate follow from its finalizer.
  std::function<void(const InterruptedInstance&)> delete_node_claim;
  // A message Reconcile could not parse (it is deleted); optional.
  std::function<void(const QueueMessage&, const absl::Status&)> invalid;
};

class InterruptionController {
 public:
  InterruptionController(cloudprovider::UnavailableOfferings& unavailable, Metrics& metrics,
                         InterruptionHooks hooks)
      : unavailable_(unavailable), metrics_(metrics), hooks_(std::move(hooks)) {}

  // Acts on one message body; its parse error when it cannot be read (the message is to be
  // deleted all the same: retrying would never succeed).
  absl::Status Handle(std::string_view body);

  // One pass of the controller over `queue`: receive up to kInterruptionBatch messages, act on
  // and delete each. Requeues at once when the batch was full, after a second otherwise (the
  // receive itself long-polls); kUnavailable when the queue cannot be read.
  absl::StatusOr<ReconcileResult> Reconcile(InterruptionQueue& queue, const Clock& clock);

 private:
  cloudprovider::UnavailableOfferings& unavailable_;
  Metrics& metrics_;
  InterruptionHooks hooks_;
  std::set<std::string> deleted_;  // NodeClaims a message already deleted
};

}  // namespace karpenter::controllers
