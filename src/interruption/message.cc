#include "src/interruption/message.h"

#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/json_codec.h"

namespace karpenter::interruption {
namespace {

struct AffectedEntity {
  std::string entity_value;
  template <class V>
  void Fields(V& v) {
    v("entityValue", entity_value);
  }
};

// The union of the detail fields of every routed event; the rest is ignored.
struct Detail {
  std::string instance_id;
  std::string instance_action;
  std::string state;
  std::string service;
  std::string event_type_category;
  std::vector<AffectedEntity> affected_entities;
  template <class V>
  void Fields(V& v) {
    v("instance-id", instance_id);
    v("instance-action", instance_action);
    v("state", state);
    v("service", service);
    v("eventTypeCategory", event_type_category);
    v("affectedEntities", affected_entities);
  }
};

struct Envelope {
  std::string version;
  std::string id;
  std::string detail_type;
  std::string source;
  std::string account;
  std::string time;
  std::string region;
  std::vector<std::string> resources;
  Detail detail;
  template <class V>
  void Fields(V& v) {
    v("version", version);
    v("id", id);
    v("detail-type", detail_type);
    v("source", source);
    v("account", account);
    v("time", time);
    v("region", region);
    v("resources", resources);
    v("detail", detail);
  }
};

enum class Route { kSpot, kRebalance, kHealth, kStateChange, kReservation };

std::optional<Route> RouteOf(const Envelope& e) {
  if (e.version != "0") return std::nullopt;
  static const std::map<std::pair<std::string_view, std::string_view>, Route> kRoutes = {
      {{"aws.ec2", "EC2 Spot Instance Interruption Warning"}, Route::kSpot},
      {{"aws.ec2", "EC2 Instance Rebalance Recommendation"}, Route::kRebalance},
      {{"aws.health", "AWS Health Event"}, Route::kHealth},
      {{"aws.ec2", "EC2 Instance State-change Notification"}, Route::kStateChange},
      {{"aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"}, Route::kReservation},
  };
  auto it = kRoutes.find({e.source, e.detail_type});
  if (it == kRoutes.end()) return std::nullopt;
  return it->second;
}

absl::Status NeedInstance(const Detail& detail) {
  if (!detail.instance_id.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError("detail.instance-id: required");
}

}  // namespace

std::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kSpotInterrupted:
      return "spot_interrupted";
    case Kind::kRebalanceRecommendation:
      return "rebalance_recommendation";
    case Kind::kScheduledChange:
      return "scheduled_change";
    case Kind::kInstanceStopped:
      return "instance_stopped";
    case Kind::kInstanceTerminated:
      return "instance_terminated";
    case Kind::kCapacityReservationInterrupted:
      return "capacity_reservation_interrupted";
    case Kind::kNoOp:
      return "no_op";
  }
  return "no_op";
}

absl::StatusOr<Message> ParseMessage(std::string_view body) {
  Envelope envelope;
  api::DecodeReport report;
  KP_RETURN_IF_ERROR(api::DecodeJsonText(body, envelope, report));
  if (!report.errors.empty()) {
    return absl::InvalidArgumentError(report.errors.errors().front().ToString());
  }
  Message message;
  message.id = envelope.id;
  const std::optional<Route> route = RouteOf(envelope);
  if (!route) return message;
  const Detail& detail = envelope.detail;
  switch (*route) {
    case Route::kSpot:
    case Route::kRebalance:
    case Route::kReservation:
      KP_RETURN_IF_ERROR(NeedInstance(detail));
      message.kind = *route == Route::kSpot        ? Kind::kSpotInterrupted
                     : *route == Route::kRebalance ? Kind::kRebalanceRecommendation
                                                   : Kind::kCapacityReservationInterrupted;
      message.instance_ids = {detail.instance_id};
      return message;
    case Route::kStateChange:
      KP_RETURN_IF_ERROR(NeedInstance(detail));
      if (detail.state == "stopping" || detail.state == "stopped") {
        message.kind = Kind::kInstanceStopped;
      } else if (detail.state == "shutting-down" || detail.state == "terminated") {
        message.kind = Kind::kInstanceTerminated;
      } else {
        return message;  // pending, running: nothing to do
      }
      message.instance_ids = {detail.instance_id};
      return message;
    case Route::kHealth:
      if (detail.service != "EC2" || detail.event_type_category != "scheduledChange") {
        return message;
      }
      message.kind = Kind::kScheduledChange;
      for (const AffectedEntity& entity : detail.affected_entities) {
        if (!entity.entity_value.empty()) message.instance_ids.push_back(entity.entity_value);
      }
      if (message.instance_ids.empty()) {
        return absl::InvalidArgumentError("detail.affectedEntities: no instance named");
      }
      return message;
  }
  return message;
}

Action ActionFor(Kind kind) {
  switch (kind) {
    case Kind::kSpotInterrupted:
      return {true, true, "SpotInterrupted"};
    case Kind::kRebalanceRecommendation:
      return {false, false, "SpotRebalanceRecommendation"};
    case Kind::kScheduledChange:
      return {true, false, "InstanceUnhealthy"};
    case Kind::kInstanceStopped:
      return {true, false, "InstanceStopping"};
    case Kind::kInstanceTerminated:
      return {true, false, "InstanceTerminating"};
    case Kind::kCapacityReservationInterrupted:
      return {true, false, "CapacityReservationInterrupted"};
    case Kind::kNoOp:
      return {};
  }
  return {};
}

}  // namespace karpenter::interruption
