#include "src/sim/events.h"

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "fmt/format.h"
#include "src/api/json_writer.h"

namespace karpenter::sim {

EventField Str(std::string_view key, std::string value) { return {key, std::move(value), false}; }

EventField Num(std::string_view key, double value) {
  return {key, fmt::format("{:.3f}", value), true};
}

EventField Count(std::string_view key, int64_t value) { return {key, std::to_string(value), true}; }

std::optional<TimelineLane> TimelineLaneOf(std::string_view event) {
  // Karpenter decides with NodeClaimCreated, Cluster Autoscaler with ScaleUp/SetDesiredCapacity;
  // ASG instances have no launch event of their own, so CA's launch lane is the capacity request.
  if (event == "ScaleUp" || event == "NodeClaimCreated") return TimelineLane::kScaleUp;
  if (event == "NodeClaimLaunched" || event == "SetDesiredCapacity") return TimelineLane::kLaunch;
  if (event == "NodeReady") return TimelineLane::kReady;
  if (event == "ScaleDown" || event == "NodeCordoned" || event == "InstanceTerminated" ||
      event == "DisruptionCommandStarted" || event == "DisruptionNodeTainted" ||
      event == "NodeClaimExpired") {
    return TimelineLane::kScaleDown;
  }
  if (event == "NodeClaimLaunchFailed" || event == "ScalingActivityFailed" ||
      event == "NodeGroupBackoff" || event == "NodeClaimRegistrationTimeout" ||
      event == "NodeClaimLaunchTimeout" || event == "InstanceNeverRegisters" ||
      event == "DisruptionRolledBack" || event == "SpotInterruptionWarning" ||
      event == "DrainFailed") {
    return TimelineLane::kFault;
  }
  return std::nullopt;
}

void EventLog::Record(SimMillis at, std::string_view event,
                      std::initializer_list<EventField> fields) {
  RecordAt(position(), at, event, fields);
}

void EventLog::RecordAt(Position position, SimMillis at, std::string_view event,
                        std::initializer_list<EventField> fields) {
  if (std::optional<TimelineLane> lane = TimelineLaneOf(event)) {
    std::string detail;
    for (const EventField& field : fields) {
      if (!detail.empty()) detail += ", ";
      detail += fmt::format("{}={}", field.key, field.text);
    }
    marks_.insert(marks_.begin() + static_cast<ptrdiff_t>(std::min(position.marks, marks_.size())),
                  {at, *lane, std::string(event), std::move(detail)});
  }
  if (!enabled_) return;
  lines_.insert(lines_.begin() + static_cast<ptrdiff_t>(std::min(position.lines, lines_.size())),
                Line(at, event, fields));
}

std::string EventLog::Line(SimMillis at, std::string_view event,
                           std::initializer_list<EventField> fields) const {
  api::JsonWriter json;
  json.BeginObject();
  json.Key("t");
  json.Raw(fmt::format("{:.3f}", MillisToSeconds(at)));
  json.Key("run");
  json.String(run_);
  json.Key("event");
  json.String(event);
  for (const EventField& field : fields) {
    json.Key(field.key);
    if (field.number) {
      json.Raw(field.text);
    } else {
      json.String(field.text);
    }
  }
  json.EndObject();
  return json.Take();
}

void EventLog::Append(EventLog&& other) {
  lines_.insert(lines_.end(), std::make_move_iterator(other.lines_.begin()),
                std::make_move_iterator(other.lines_.end()));
  other.lines_.clear();
  marks_.insert(marks_.end(), other.marks_.begin(), other.marks_.end());
  other.marks_.clear();
}

}  // namespace karpenter::sim
