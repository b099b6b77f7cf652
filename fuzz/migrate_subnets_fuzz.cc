// libFuzzer target for `migrate --subnets` (aws ec2 describe-subnets output): any input is
// refused with InvalidArgument and a message, or read into subnets with an id, a zone and a
// non-negative count of free addresses.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/migrate/aws_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto subnets = karpenter::migrate::ParseSubnets(input, "fuzz.json");
  if (!subnets.ok()) {
    if (subnets.status().code() != absl::StatusCode::kInvalidArgument) std::abort();
    if (subnets.status().message().empty()) std::abort();
    return 0;
  }
  for (const karpenter::migrate::Subnet& subnet : *subnets) {
    if (subnet.id.empty() || subnet.zone.empty() || subnet.available_ips < 0) std::abort();
  }
  return 0;
}
