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

void ApiEventRecorder::Publish(const Event& event) {
  const std::string body = EventJson(event, component_, clock_.Now(), ++sequence_);
  absl::StatusOr<std::string> posted = client_.Call(
      "POST", absl::StrCat("/api/v1/namespaces/", NamespaceOf(event.object), "/events"), body);
  if (!posted.ok()) ++failed_;
}

}  // namespace karpenter::kube
