// Hand-written matchers for the duration patterns in Karpenter's CRDs. Digits and unit letters
// are disjoint, so each pattern reads left to right without backtracking.
#include "src/api/duration_patterns.h"

#include <string_view>

#include "src/api/duration.h"

namespace karpenter::api {
namespace {

// Advances past [0-9]+; false when there is no digit at `pos`.
bool ConsumeDigits(std::string_view s, size_t& pos) {
  const size_t start = pos;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
  return pos > start;
}

bool ConsumeUnit(std::string_view s, size_t& pos, std::string_view units) {
  if (pos >= s.size() || units.find(s[pos]) == std::string_view::npos) return false;
  ++pos;
  return true;
}

// ^([0-9]+(s|m|h))+$
bool MatchesUnitSequence(std::string_view s) {
  if (s.empty()) return false;
  size_t pos = 0;
  while (pos < s.size()) {
    if (!ConsumeDigits(s, pos) || !ConsumeUnit(s, pos, "smh")) return false;
  }
  return true;
}

}  // namespace

bool MatchesKarpenterDurationPattern(std::string_view s) {
  return s == kNever || MatchesUnitSequence(s);
}

bool MatchesBudgetDurationPattern(std::string_view s) {
  size_t pos = 0;
  if (!ConsumeDigits(s, pos) || !ConsumeUnit(s, pos, "hm")) return false;
  std::string_view rest = s.substr(pos);
  if (rest.empty() || rest == "0s") return true;  // [0-9]+(h|m) then optional "0s"
  if (s[pos - 1] != 'h') return false;
  // [0-9]+h[0-9]+m then optional "0s"
  size_t minutes = 0;
  if (!ConsumeDigits(rest, minutes) || !ConsumeUnit(rest, minutes, "m")) return false;
  rest.remove_prefix(minutes);
  return rest.empty() || rest == "0s";
}

bool MatchesTgpPattern(std::string_view s) { return MatchesUnitSequence(s); }

const DurationPattern* DurationPatternOf(std::string_view field) {
  static constexpr DurationPattern kBudget{kBudgetDurationPattern, &MatchesBudgetDurationPattern};
  static constexpr DurationPattern kGracePeriod{kTerminationGracePeriodPattern, &MatchesTgpPattern};
  static constexpr DurationPattern kKarpenter{kKarpenterDurationPattern,
                                              &MatchesKarpenterDurationPattern};
  if (field == "duration") return &kBudget;
  if (field == "terminationGracePeriod") return &kGracePeriod;
  if (field == "expireAfter" || field == "consolidateAfter") return &kKarpenter;
  return nullptr;
}

}  // namespace karpenter::api
