// Kubernetes Events (core/v1) posted through the client, for the controller host: the events
// seam's implementation against a real API server. De-duplication happens above the seam
// (controllers::DedupingRecorder); a post that fails is counted, never retried (events are
// best-effort, as client-go's broadcaster drops them under pressure).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/event_recorder.h"
#include "src/kube/client.h"

namespace karpenter::kube {

class ApiEventRecorder : public EventRecorder {
 public:
  // `component` is the event's reportingController / source ("karpenter").
  ApiEventRecorder(Client& client, const Clock& clock, std::string component)
      : client_(client), clock_(clock), component_(std::move(component)) {}

  void Publish(const Event& event) override;

  // The JSON body of `event` as posted, at `now`; `sequence` makes the name unique.
  static std::string EventJson(const Event& event, const std::string& component, api::Time now,
                               uint64_t sequence);
  uint64_t failed() const { return failed_.load(); }

 private:
  Client& client_;
  const Clock& clock_;
  std::string component_;
  std::atomic<uint64_t> sequence_ = 0;
  std::atomic<uint64_t> failed_ = 0;
};

}  // namespace karpenter::kube
