#include "src/controllers/interruption.h"

#include <string>
#include <utility>
#include <vector>

namespace karpenter::controllers {

absl::Status InterruptionController::Handle(std::string_view body) {
  absl::StatusOr<interruption::Message> message = interruption::ParseMessage(body);
  if (!message.ok()) return message.status();
  const interruption::Action action = interruption::ActionFor(message->kind);
  const std::string kind(interruption::KindName(message->kind));
  metrics_.Add("karpenter_interruption_received_messages_total", {{"message_type", kind}}, 1);
  for (const std::string& id : message->instance_ids) {
    std::optional<InterruptedInstance> instance = hooks_.find(id);
    if (!instance) continue;  // not an instance of ours (or already gone)
    hooks_.received(*instance, *message, action);
    if (action.mark_offering_unavailable) unavailable_.Mark(instance->offering);
    if (!action.delete_node_claim || deleted_.contains(instance->node_claim)) continue;
    deleted_.insert(instance->node_claim);
    metrics_.Add("karpenter_nodeclaims_disrupted_total",
                 {{"reason", kind},
                  {"nodepool", instance->node_pool},
                  {"capacity_type", instance->offering.capacity_type}},
                 1);
    hooks_.delete_node_claim(*instance);
  }
  return absl::OkStatus();
}

absl::StatusOr<ReconcileResult> InterruptionController::Reconcile(InterruptionQueue& queue,
                                                                  const Clock& clock) {
  KP_ASSIGN_OR_RETURN(std::vector<QueueMessage> messages, queue.Receive(kInterruptionBatch));
  for (const QueueMessage& message : messages) {
    // A message that cannot be parsed is deleted too: no retry would read it.
    if (absl::Status handled = Handle(message.body); !handled.ok() && hooks_.invalid) {
      hooks_.invalid(message, handled);
    }
    metrics_.Observe("karpenter_interruption_message_queue_duration_seconds", {},
                     static_cast<double>((clock.Now() - message.sent).Nanos()) / 1e9);
    if (queue.Delete(message).ok()) {
      metrics_.Add("karpenter_interruption_deleted_messages_total", {}, 1);
    }
  }
  if (messages.size() >= kInterruptionBatch) return ReconcileResult{.requeue_after_millis = 0};
  return ReconcileResult{.requeue_after_millis = 1000};
}

}  // namespace karpenter::controllers
