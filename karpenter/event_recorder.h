// The events seam: Kubernetes Events about the objects controllers act on, with upstream's
// reasons (reference: karpenter-features.md §9). De-duplication is done above this seam
// (controllers::DedupingRecorder), so every implementation sees each event it should publish.
#pragma once

#include <string>

namespace karpenter {

struct ObjectReference {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  friend bool operator==(const ObjectReference&, const ObjectReference&) = default;
};

enum class EventType { kNormal, kWarning };

struct Event {
  ObjectReference object;
  EventType type = EventType::kNormal;
  std::string reason;
  std::string message;
  friend bool operator==(const Event&, const Event&) = default;
};

class EventRecorder {
 public:
  virtual ~EventRecorder() = default;
  virtual void Publish(const Event& event) = 0;
};

}  // namespace karpenter
