// Fuzzes the untrusted-input path of `plan` and `validate`: bytes → YAML/JSON → typed objects
// → validation → encode → decode. Any crash, sanitizer report or failed invariant is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/api/manifest.h"
#include "src/api/validation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto manifests = karpenter::api::DecodeManifests(input, "fuzz");
  if (!manifests.ok()) return 0;
  for (const karpenter::api::Manifest& manifest : *manifests) {
    karpenter::api::FieldErrors errors = karpenter::api::ValidateManifest(manifest);
    (void)errors;
    if (!manifest.object || !manifest.report.errors.empty()) continue;
    // A cleanly decoded object must survive encode → decode unchanged.
    std::string json = karpenter::api::EncodeObject(*manifest.object);
    auto again = karpenter::api::DecodeManifests(json, "fuzz-roundtrip");
    if (!again.ok() || again->size() != 1 || !(*again)[0].object ||
        !((*again)[0].object == manifest.object)) {
      std::abort();
    }
  }
  return 0;
}
