// The `--events FILE` log: one JSON object per line for every decision and state change of a
// run, in the order they happened ({"t":12.345,"run":"karpenter","event":"NodeReady",...}).
// Disabled logs drop records without formatting them, so long runs pay nothing; the decisions the
// HTML report draws on its timeline (scale-ups, launches, Ready, scale-downs, faults) are always
// kept as compact marks.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/sim/event_queue.h"

namespace karpenter::sim {

struct EventField {
  std::string_view key;
  std::string text;
  bool number = false;
};

EventField Str(std::string_view key, std::string value);
EventField Num(std::string_view key, double value);
// A count: written as an integer ("pods":3), not as a measurement ("seconds":3.000).
EventField Count(std::string_view key, int64_t value);

// The timeline lanes of the HTML report, top to bottom.
enum class TimelineLane { kScaleUp, kLaunch, kReady, kScaleDown, kFault };
inline constexpr int kTimelineLaneCount = 5;

struct TimelineMark {
  SimMillis at = 0;
  TimelineLane lane = TimelineLane::kScaleUp;
  std::string event;   // "ScaleUp", "NodeClaimCreated", ...
  std::string detail;  // the event's fields, "key=value, ..." (nodes, pods, group, ...)
};

// The lane an event belongs to, or nullopt for events the timeline does not show.
std::optional<TimelineLane> TimelineLaneOf(std::string_view event);

class EventLog {
 public:
  explicit EventLog(bool enabled) : enabled_(enabled) {}

  bool enabled() const { return enabled_; }
  void set_run(std::string run) { run_ = std::move(run); }
  void Record(SimMillis at, std::string_view event, std::initializer_list<EventField> fields);
  // Where the next record goes. A record made later at a Position goes where it would have gone
  // then, before everything recorded since (the twin learns some decisions after its clock has
  // moved on; see DisruptionController). Valid until TakeMarks.
  struct Position {
    size_t lines = 0;
    size_t marks = 0;
  };
  Position position() const { return {lines_.size(), marks_.size()}; }
  void RecordAt(Position position, SimMillis at, std::string_view event,
                std::initializer_list<EventField> fields);

  // Every record so far, each a JSON line without its newline.
  const std::vector<std::string>& lines() const { return lines_; }
  // The timeline marks recorded since the last call, in order.
  std::vector<TimelineMark> TakeMarks() { return std::move(marks_); }
  // Moves `other`'s records after this log's (runs logged apart, joined in the report's order).
  void Append(EventLog&& other);

 private:
  std::string Line(SimMillis at, std::string_view event,
                   std::initializer_list<EventField> fields) const;

  bool enabled_;
  std::string run_;
  std::vector<std::string> lines_;
  std::vector<TimelineMark> marks_;
};

}  // namespace karpenter::sim
