// libFuzzer target for kubectl's `-l` selector syntax (ParseSelector, behind `plan --drain`):
// any input either fails cleanly or yields a selector that passes the API's own selector
// validation and can be matched against labels without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "src/api/selector_match.h"

namespace {

[[noreturn]] void Fail(const char* what, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "%s: input \"%.*s\": %s\n", what, static_cast<int>(input.size()),
               input.data(), detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<karpenter::api::LabelSelector> selector =
      karpenter::api::ParseSelector(input);
  if (!selector.ok()) {
    if (selector.status().code() != absl::StatusCode::kInvalidArgument) {
      Fail("unexpected error code", input, selector.status().ToString());
    }
    if (selector.status().message().empty()) Fail("error without a message", input, "");
    return 0;
  }
  // What the parser accepts the API server would accept as a LabelSelector.
  karpenter::api::FieldErrors errors;
  karpenter::api::ValidateLabelSelector(*selector, "selector", &errors);
  if (!errors.empty())
    Fail("parsed selector fails validation", input, errors.errors().front().ToString());
  // Matching is total: against no labels and against the selector's own equality labels.
  (void)karpenter::api::Matches(*selector, karpenter::api::LabelMap{});
  (void)karpenter::api::Matches(*selector, selector->match_labels);
  return 0;
}
