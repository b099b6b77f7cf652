#include "src/kube/event_recorder.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace karpenter::kube {
namespace {

// Cluster-scoped objects' events go to the default namespace, as kubectl describe finds them.
std::string NamespaceOf(const ObjectReference& object) {
  return object.namespace_.empty() ? "default" : object.namespace_;
}

std::string ApiVersionOf(const std::string& kind) {
  if (kind == "NodeClaim" || kind == "NodePool") return "karpenter.sh/v1";
  if (kind == "EC2NodeClass") return "karpenter.k8s.aws/v1";
  return "v1";
}

}  // namespace

std::string ApiEventRecorder::EventJson(const Event& event, const std::string& component,
                                        api::Time now, uint64_t sequence) {
  const std::string time = now.Rfc3339();
  // Names like client-go's: the object's name, a dot, a unique suffix.
  const std::string name =
      absl::StrCat(event.object.name.empty() ? std::string("karpenter") : event.object.name, ".",
                   absl::StrCat(absl::Hex(now.UnixNanos()), absl::Hex(sequence)));
  nlohmann::json body = {
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata",
       {{"name", absl::AsciiStrToLower(name)}, {"namespace", NamespaceOf(event.object)}}},
      {"involvedObject",
       {{"apiVersion", ApiVersionOf(event.object.kind)},
        {"kind", event.object.kind},
        {"name", event.object.name},
        {"uid", event.object.uid}}},
      {"reason", event.reason},
      {"message", event.message},
      {"type", event.type == EventType::kWarning ? "Warning" : "Normal"},
      {"source", {{"component", component}}},
      {"reportingComponent", component},
      {"firstTimestamp", time},
      {"lastTimestamp", time},
      {"count", 1},
  };
  if (!event.object.namespace_.empty()) {
    body["involvedObject"]["namespace"] = event.object.namespace_;
  }
  return body.dump();
}

ApiEventRecorder::ApiEventRecorder(Client& client, const Clock& clock, std::string component)
    : client_(client),
      clock_(clock),
      component_(std::move(component)),
      poster_([this] { PostQueued(); }) {}

ApiEventRecorder::~ApiEventRecorder() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  poster_.join();
}

void ApiEventRecorder::Publish(const Event& event) {
  Post post{absl::StrCat("/api/v1/namespaces/", NamespaceOf(event.object), "/events"),
            EventJson(event, component_, clock_.Now(), ++sequence_)};
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.size() >= kMaxQueuedEvents) {
      ++dropped_;
      return;
    }
    queue_.push_back(std::move(post));
  }
  changed_.notify_all();
}

void ApiEventRecorder::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [this] { return stopping_ || (queue_.empty() && !posting_); });
}

void ApiEventRecorder::PostQueued() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    Post post = std::move(queue_.front());
    queue_.pop_front();
    posting_ = true;
    lock.unlock();
    absl::StatusOr<std::string> posted = client_.Call("POST", post.path, post.body);
    if (!posted.ok()) ++failed_;
    lock.lock();
    posting_ = false;
    changed_.notify_all();
  }
}

}  // namespace karpenter::kube
