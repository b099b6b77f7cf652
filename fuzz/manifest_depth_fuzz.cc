// Fuzzes the manifest reader at depth and size: the input is wrapped in up to 510 levels of
// JSON arrays or YAML flow sequences (first byte) and repeated up to 16 times as JSON values or
// YAML documents (second byte). Any crash, stack overflow, sanitizer report or failed invariant
// is a bug:
//  - anything nested deeper than kMaxNestingDepth is refused, naming a line;
//  - the reader answers (a Status or objects) for every input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/api/manifest.h"
#include "src/api/nesting_limit.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const int depth = 2 * data[0];
  const int copies = 1 + (data[1] & 15);
  const bool yaml = (data[1] & 16) != 0;
  const std::string_view body(reinterpret_cast<const char*>(data + 2), size - 2);
  std::string input;
  for (int copy = 0; copy < copies; ++copy) {
    if (yaml && copy > 0) input += "\n---\n";
    if (yaml) input += "x: ";
    input += std::string(static_cast<size_t>(depth), '[');
    input += body;
    input += std::string(static_cast<size_t>(depth), ']');
  }
  const auto manifests = karpenter::api::DecodeManifests(input, "fuzz");
  // The wrapper alone nests this deep (plus the `x:` mapping in YAML).
  const int wrapper_depth = depth + (yaml ? 1 : 0);
  if (wrapper_depth > karpenter::api::kMaxNestingDepth && manifests.ok()) {
    std::fprintf(stderr, "manifest_depth_fuzz: %d levels accepted\n", wrapper_depth);
    std::abort();
  }
  return 0;
}
