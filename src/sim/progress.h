// A one-line progress indicator for long `karpenter sim` runs, driven by simulated time (never
// the wall clock): "\rsim karpenter [#######.............]  945/2700 s". The command shows it
// only on an interactive terminal; it redraws only when the bar or the second count changes.
#pragma once

#include <ostream>
#include <string>

#include "src/sim/event_queue.h"
#include "src/sim/scenario.h"

namespace karpenter::sim {

// The line for `autoscaler` at `now` of `end`, starting with a carriage return.
std::string ProgressLine(Autoscaler autoscaler, SimMillis now, SimMillis end);

class ProgressIndicator {
 public:
  explicit ProgressIndicator(std::ostream& out) : out_(out) {}

  void Update(Autoscaler autoscaler, SimMillis now, SimMillis end);
  // Clears the line so the report that follows starts on a clean line.
  void Finish();

 private:
  std::ostream& out_;
  std::string last_;
};

}  // namespace karpenter::sim
