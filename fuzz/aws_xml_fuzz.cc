// Fuzzes the AWS provider's XML answer reader and error parser: EC2/STS/IAM/SQS bodies are
// untrusted. Any crash or sanitizer report is a bug; so is a document accepted deeper or larger
// than the limits allow, or an error answer that comes out without a code.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "src/aws/errors.h"
#include "src/aws/xml.h"

namespace {

constexpr karpenter::aws::XmlLimits kLimits{
    .max_bytes = 1 << 16, .max_depth = 12, .max_nodes = 5000};

// Walks every element (breadth-first, no recursion) and checks the depth limit held.
void Walk(const karpenter::aws::XmlNode& root) {
  std::vector<std::pair<karpenter::aws::XmlNode, int>> queue = {{root, 1}};
  size_t visited = 0;
  for (size_t i = 0; i < queue.size(); ++i) {
    const auto [node, depth] = queue[i];
    if (depth > kLimits.max_depth + 1 || ++visited > kLimits.max_nodes) std::abort();
    (void)node.Text();
    for (const auto& child : node.Children("item")) queue.emplace_back(child, depth + 1);
    for (const auto& child : node.Children("member")) queue.emplace_back(child, depth + 1);
    if (auto child = node.Path({"Errors", "Error"}); !child.empty()) {
      queue.emplace_back(child, depth + 2);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto doc = karpenter::aws::XmlDocument::Parse(body, kLimits);
  if (doc.ok()) Walk(doc->Root());
  const auto error = karpenter::aws::ParseAwsError({.status = 400, .body = std::string(body)});
  if (error.code.empty()) std::abort();
  (void)karpenter::aws::ToStatus(error, "Fuzz");
  return 0;
}
