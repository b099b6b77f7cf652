// libFuzzer target for `migrate --nodegroups` (aws eks describe-nodegroup output): any input is
// refused with InvalidArgument and a message, or read into a group whose sizes are in range.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/migrate/aws_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto group = karpenter::migrate::ParseEksNodegroup(input, "fuzz.json");
  if (!group.ok()) {
    if (group.status().code() != absl::StatusCode::kInvalidArgument) std::abort();
    if (group.status().message().empty()) std::abort();
    return 0;
  }
  if (group->name.empty()) std::abort();  // nodegroupName is required
  if (group->min_size < 0 || group->max_size > karpenter::migrate::kMaxGroupSize) std::abort();
  if (group->max_size < group->min_size) std::abort();
  return 0;
}
