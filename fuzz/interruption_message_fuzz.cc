// Fuzzes the interruption controller's SQS message parser: queue bodies are untrusted. Any
// crash or sanitizer report is a bug; so is a parse that is not a pure function of the bytes,
// or a kind that acts without naming an instance.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/interruption/message.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto first = karpenter::interruption::ParseMessage(body);
  auto second = karpenter::interruption::ParseMessage(body);
  if (first.ok() != second.ok()) std::abort();
  if (!first.ok()) {
    if (first.status().message() != second.status().message()) std::abort();
    return 0;
  }
  if (first->kind != second->kind || first->instance_ids != second->instance_ids) std::abort();
  const auto action = karpenter::interruption::ActionFor(first->kind);
  if (action.delete_node_claim && first->instance_ids.empty()) std::abort();
  return 0;
}
