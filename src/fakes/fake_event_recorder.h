// An EventRecorder for tests: keeps every published event in order.
#pragma once

#include <string_view>
#include <vector>

#include "karpenter/event_recorder.h"

namespace karpenter::fakes {

class FakeEventRecorder : public EventRecorder {
 public:
  void Publish(const Event& event) override { events_.push_back(event); }

  const std::vector<Event>& events() const { return events_; }
  size_t Count(std::string_view reason) const {
    size_t count = 0;
    for (const Event& event : events_) count += event.reason == reason ? 1 : 0;
    return count;
  }

 private:
  std::vector<Event> events_;
};

}  // namespace karpenter::fakes
