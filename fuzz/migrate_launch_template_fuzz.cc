// libFuzzer target for `migrate --launch-templates` (aws ec2 describe-launch-template-versions
// output): any input is refused with InvalidArgument and a message, or read into versions whose
// carried settings are the shapes an EC2NodeClass takes, and whose lookup never crashes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/migrate/launch_templates.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto versions = karpenter::migrate::ParseLaunchTemplateVersions(input, "fuzz.json");
  if (!versions.ok()) {
    if (versions.status().code() != absl::StatusCode::kInvalidArgument) std::abort();
    if (versions.status().message().empty()) std::abort();
    return 0;
  }
  for (const karpenter::migrate::LaunchTemplateVersion& version : *versions) {
    if (version.id.empty() || !version.block_device_mappings.is_array()) std::abort();
    const auto& metadata = version.metadata_options;
    if (!metadata.is_null() && !metadata.is_object()) std::abort();
    if (metadata.is_object() && metadata.contains("httpPutResponseHopLimit")) {
      const int64_t hops = metadata["httpPutResponseHopLimit"].get<int64_t>();
      if (hops < 1 || hops > 64) std::abort();
    }
    (void)karpenter::migrate::FindLaunchTemplate(*versions, version.id, "$Latest");
  }
  return 0;
}
