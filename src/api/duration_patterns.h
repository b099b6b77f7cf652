// The CRD patterns of Karpenter's duration fields, shared by the decoder and the validators. The
// matchers themselves are declared in duration.h.
#pragma once

#include <string_view>

namespace karpenter::api {

// expireAfter / consolidateAfter.
inline constexpr std::string_view kKarpenterDurationPattern = "^(([0-9]+(s|m|h))+|Never)$";
// disruption.budgets[].duration.
inline constexpr std::string_view kBudgetDurationPattern =
    "^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$";
// terminationGracePeriod.
inline constexpr std::string_view kTerminationGracePeriodPattern = "^([0-9]+(s|m|h))+$";

// A duration field's pattern, as the API server checks it before anything parses the text.
struct DurationPattern {
  std::string_view regex;
  bool (*matches)(std::string_view);
};
// The pattern of the Karpenter duration field named `field` (`duration` of a budget,
// `terminationGracePeriod`, `expireAfter`, `consolidateAfter`); nullptr for any other name.
const DurationPattern* DurationPatternOf(std::string_view field);

}  // namespace karpenter::api
