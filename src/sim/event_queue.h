// The twin's discrete-event core: a virtual clock that only moves when the next event runs, and
// a queue of actions ordered by (time, insertion sequence), so two events at the same instant
// always run in the order they were scheduled and a run is reproducible.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "karpenter/clock.h"
#include "src/api/time.h"

namespace karpenter::sim {

// Simulated time in milliseconds since the start of the run.
using SimMillis = int64_t;

inline constexpr SimMillis kMillisPerSecond = 1000;

// Seconds (possibly fractional) to whole simulated milliseconds, rounded to nearest.
SimMillis SecondsToMillis(double seconds);
double MillisToSeconds(SimMillis millis);

// It is also the controllers' Clock in the twin: their timers are events on this queue.
class EventQueue final : public Clock {
 public:
  using Action = std::function<void()>;

  // The virtual clock: the time of the event running now (or of the last one run).
  SimMillis now() const { return now_; }
  SimMillis NowMillis() const override { return now_; }
  // The virtual clock as a wall-clock instant, for objects' timestamps: `epoch` + now().
  api::Time Now() const override;
  void set_epoch(api::Time epoch) { epoch_ = epoch; }

  // Runs `action` at `when`; a time in the past runs at now() (after what is already due).
  void At(SimMillis when, Action action);
  void After(SimMillis delay, Action action) override { At(now_ + delay, std::move(action)); }

  // Runs every event due at or before `end`, in (time, sequence) order, then sets the clock to
  // `end`. Events scheduled while running are honoured if they fall within `end`.
  void RunUntil(SimMillis end);

  // Runs `action` once the event running now has returned, before the next one (outside a run:
  // when the next run starts). Not an event: it is not counted and takes no place in the order.
  // Watches use it so their handlers see a change complete, as an informer's do, and a run
  // that watches executes the same events as one that does not.
  void AtEventEnd(Action action) { at_event_end_.push_back(std::move(action)); }

  size_t pending() const { return queue_.size(); }
  // How many events have run.
  uint64_t executed() const { return executed_; }

 private:
  struct Event {
    SimMillis when;
    uint64_t sequence;
    Action action;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      if (a.when != b.when) return a.when > b.when;
      return a.sequence > b.sequence;
    }
  };

  void RunEventEnds();

  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  std::vector<Action> at_event_end_;
  SimMillis now_ = 0;
  uint64_t next_sequence_ = 0;
  uint64_t executed_ = 0;
  api::Time epoch_;
};

}  // namespace karpenter::sim
