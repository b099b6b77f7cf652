// Fuzzes `karpenter sim --from … --asgs FILE`'s untrusted input: bytes → the Auto Scaling group
// reader (describe-auto-scaling-groups JSON or YAML). Any crash, sanitizer report or failed
// invariant is a bug:
//  - a rejected file is an InvalidArgument whose every line starts with "<source>: " and says
//    something after it;
//  - reading the same bytes twice gives the same groups or the same message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/sim/auto_scaling_group_file.h"

namespace {

constexpr std::string_view kSource = "fuzz.json";

bool EveryLineNamesTheSource(std::string_view message) {
  if (message.empty()) return false;
  size_t start = 0;
  while (start <= message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    const std::string_view line = message.substr(start, end - start);
    if (line.substr(0, kSource.size() + 2) != std::string(kSource) + ": ") return false;
    if (line.size() <= kSource.size() + 2) return false;
    start = end + 1;
  }
  return true;
}

[[noreturn]] void Fail(const char* invariant, std::string_view detail) {
  std::fprintf(stderr, "sim_asgs_fuzz: %s\n%.*s\n", invariant, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

bool Same(const karpenter::sim::AutoScalingGroupRecord& a,
          const karpenter::sim::AutoScalingGroupRecord& b) {
  return a.name == b.name && a.node_group == b.node_group && a.min_size == b.min_size &&
         a.max_size == b.max_size && a.autoscaled == b.autoscaled &&
         a.instance_ids == b.instance_ids;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto first = karpenter::sim::ParseAutoScalingGroups(input, kSource);
  const auto second = karpenter::sim::ParseAutoScalingGroups(input, kSource);
  if (first.ok() != second.ok()) Fail("the second read disagreed on success", "");
  if (!first.ok()) {
    const std::string message(first.status().message());
    if (first.status().code() != absl::StatusCode::kInvalidArgument) {
      Fail("a rejection that is not InvalidArgument", message);
    }
    if (!EveryLineNamesTheSource(message)) Fail("a line of the message lacks its source", message);
    if (message != std::string(second.status().message())) {
      Fail("the second read gave another message", message);
    }
    return 0;
  }
  if (first->size() != second->size()) Fail("the second read gave other groups", "");
  for (size_t i = 0; i < first->size(); ++i) {
    if (!Same((*first)[i], (*second)[i])) Fail("the second read gave another group", "");
    if ((*first)[i].max_size < (*first)[i].min_size) Fail("a group's MaxSize below MinSize", "");
  }
  return 0;
}
