// Fuzzes what the Kubernetes client reads from the API server and from credential plugins: watch
// event lines, list pages, single objects, Status messages and ExecCredentials. Any crash,
// sanitizer report or exception is a bug; so is a list whose decoded and failed items outnumber
// the input's bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/kube/exec_plugin.h"
#include "src/kube/object_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)karpenter::kube::DecodeWatchEvent(text);
  (void)karpenter::kube::StatusMessage(text);
  (void)karpenter::kube::DecodeObject("Pod", text);
  (void)karpenter::kube::ParseExecCredential(text, "client.authentication.k8s.io/v1");
  absl::StatusOr<karpenter::kube::ListPage> page = karpenter::kube::DecodeList("Node", text);
  if (page.ok() && page->items.size() + page->errors.size() > size) std::abort();
  return 0;
}
