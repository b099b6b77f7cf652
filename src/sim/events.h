// The `--events FILE` log: one JSON object per line for every decision and state change of a
// run, in the order they happened ({"t":12.345,"run":"karpenter","event":"NodeReady",...}).
// Disabled logs drop records without formatting them, so long runs pay nothing.
#pragma once

#include <initializer_list>
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

class EventLog {
 public:
  explicit EventLog(bool enabled) : enabled_(enabled) {}

  bool enabled() const { return enabled_; }
  void set_run(std::string run) { run_ = std::move(run); }
  void Record(SimMillis at, std::string_view event, std::initializer_list<EventField> fields);

  // Every record so far, each a JSON line without its newline.
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  bool enabled_;
  std::string run_;
  std::vector<std::string> lines_;
};

}  // namespace karpenter::sim
