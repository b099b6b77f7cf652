// Fuzzes the readers of an EC2NodeClass's `userData` (untrusted: anyone who may write the class):
// the TOML reader Bottlerocket's is merged through, and the MIME splitter AL2's is merged
// through. Any crash or sanitizer report is a bug; so is TOML that is accepted, written, and then
// not read back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/aws/bootstrap.h"
#include "src/aws/toml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<karpenter::aws::TomlTable> parsed = karpenter::aws::ParseToml(text);
  if (parsed.ok()) {
    absl::StatusOr<karpenter::aws::TomlTable> again =
        karpenter::aws::ParseToml(karpenter::aws::WriteToml(*parsed));
    if (!again.ok()) std::abort();
  }
  (void)karpenter::aws::SplitMimeParts(text);
  return 0;
}
