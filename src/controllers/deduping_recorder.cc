#include "src/controllers/deduping_recorder.h"

#include <algorithm>

namespace karpenter::controllers {

namespace {

// One string per identity; the parts are joined with a byte that names and reasons never hold.
std::string Identity(const Event& event, const std::vector<std::string>& values) {
  std::string identity = event.reason;
  auto add = [&identity](const std::string& part) {
    identity += '\x1f';
    identity += part;
  };
  if (values.empty()) {
    add(event.object.kind);
    add(event.object.namespace_);
    add(event.object.name);
    add(event.object.uid);
    add(event.type == EventType::kWarning ? "Warning" : "Normal");
    add(event.message);
  }
  for (const std::string& value : values) add(value);
  return identity;
}

}  // namespace

bool DedupingRecorder::Publish(const Event& event, const std::vector<std::string>& dedupe_values,
                               int64_t timeout_millis) {
  const int64_t now = clock_.NowMillis();
  // Forget identities past any timeout in use, so the map stays as small as the live causes.
  std::erase_if(last_published_, [&](const auto& entry) {
    return now - entry.second >= std::max(timeout_millis, kEventDedupeMillis);
  });
  const std::string identity = Identity(event, dedupe_values);
  auto it = last_published_.find(identity);
  if (it != last_published_.end() && now - it->second < timeout_millis) {
    ++dropped_;
    return false;
  }
  last_published_[identity] = now;
  sink_.Publish(event);
  return true;
}

}  // namespace karpenter::controllers
