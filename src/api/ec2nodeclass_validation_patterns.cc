// Hand-written matchers for the EC2NodeClass CRD patterns (see SchemaPattern for why). Each
// one accepts exactly the language of the pattern text next to its declaration.
#include <string_view>

#include "absl/strings/ascii.h"
#include "src/api/ec2nodeclass_validation_internal.h"

namespace karpenter::api::ec2nodeclass_internal {
namespace {

bool IsLowerAlnum(char c) { return absl::ascii_isdigit(c) || (c >= 'a' && c <= 'z'); }

// Unanchored `<prefix>[0-9a-z]+`: the prefix somewhere, followed by one such character.
bool ContainsPrefixedId(std::string_view value, std::string_view prefix) {
  for (size_t at = value.find(prefix); at != std::string_view::npos;
       at = value.find(prefix, at + 1)) {
    size_t next = at + prefix.size();
    if (next < value.size() && IsLowerAlnum(value[next])) return true;
  }
  return false;
}

// Anchored `^<prefix>[0-9a-z]+$`.
bool IsPrefixedId(std::string_view value, std::string_view prefix) {
  if (value.size() <= prefix.size() || value.substr(0, prefix.size()) != prefix) return false;
  for (char c : value.substr(prefix.size())) {
    if (!IsLowerAlnum(c)) return false;
  }
  return true;
}

bool AllDigits(std::string_view s) {
  for (char c : s) {
    if (!absl::ascii_isdigit(c)) return false;
  }
  return true;
}

// A non-empty digit string without a leading zero whose value lies in [1, max].
bool IsCountUpTo(std::string_view digits, int max) {
  if (digits.empty() || digits.size() > 5 || digits[0] == '0' || !AllDigits(digits)) return false;
  int value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value <= max;
}

// `[0-9]+(\.[0-9]*)?|\.[0-9]+` at `pos`; advances past it.
bool ConsumeDecimal(std::string_view s, size_t& pos) {
  size_t start = pos;
  while (pos < s.size() && absl::ascii_isdigit(s[pos])) ++pos;
  if (pos > start) {
    if (pos < s.size() && s[pos] == '.') {
      ++pos;
      while (pos < s.size() && absl::ascii_isdigit(s[pos])) ++pos;
    }
    return true;
  }
  if (pos >= s.size() || s[pos] != '.') return false;
  ++pos;
  size_t fraction = pos;
  while (pos < s.size() && absl::ascii_isdigit(s[pos])) ++pos;
  return pos > fraction;
}

void ConsumeSign(std::string_view s, size_t& pos) {
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) ++pos;
}

// `\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?` (the part before '%').
bool IsPercentage(std::string_view s) {
  if (s == "100" || s == "100.0" || s == "100.00") return true;
  size_t dot = s.find('.');
  std::string_view whole = s.substr(0, dot);
  if (whole.empty() || whole.size() > 2 || !AllDigits(whole)) return false;
  if (dot == std::string_view::npos) return true;
  std::string_view fraction = s.substr(dot + 1);
  return !fraction.empty() && fraction.size() <= 2 && AllDigits(fraction);
}

// A DNS label as the condition-type prefix spells it: [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool IsLowerLabel(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

}  // namespace

bool MatchesSubnetId(std::string_view value) { return ContainsPrefixedId(value, "subnet-"); }
bool MatchesSecurityGroupId(std::string_view value) { return ContainsPrefixedId(value, "sg-"); }
bool MatchesAmiId(std::string_view value) { return ContainsPrefixedId(value, "ami-"); }
bool MatchesCapacityReservationId(std::string_view value) { return IsPrefixedId(value, "cr-"); }
bool MatchesPlacementGroupId(std::string_view value) { return IsPrefixedId(value, "pg-"); }

bool MatchesOwnerId(std::string_view value) { return value.size() == 12 && AllDigits(value); }

bool MatchesAliasFormat(std::string_view value) {
  size_t family_end = 0;
  while (family_end < value.size() && absl::ascii_isalnum(value[family_end])) ++family_end;
  if (family_end == 0 || family_end >= value.size() || value[family_end] != '@') return false;
  // `.+$` under RE2 (the engine behind CEL): one or more characters other than '\n'.
  std::string_view version = value.substr(family_end + 1);
  return !version.empty() && version.find('\n') == std::string_view::npos;
}

bool MatchesVolumeSize(std::string_view value) {
  size_t unit = 0;
  while (unit < value.size() && absl::ascii_isdigit(value[unit])) ++unit;
  std::string_view digits = value.substr(0, unit);
  std::string_view suffix = value.substr(unit);
  if (suffix == "Gi") return IsCountUpTo(digits, 59000);
  if (suffix == "G") return IsCountUpTo(digits, 64000);
  if (suffix == "Ti") {
    // ([1-9]||[1-5][0-7]|58): empty, 1-9, 10-17, 20-27, ..., 50-57, 58.
    if (digits.empty() || digits == "58") return true;
    if (digits.size() == 1) return digits[0] != '0';
    return digits.size() == 2 && digits[0] >= '1' && digits[0] <= '5' && digits[1] <= '7';
  }
  if (suffix == "T") return digits.empty() || IsCountUpTo(digits, 64);
  return false;
}

bool MatchesQuantity(std::string_view value) {
  size_t pos = 0;
  ConsumeSign(value, pos);
  if (!ConsumeDecimal(value, pos)) return false;
  std::string_view suffix = value.substr(pos);
  if (suffix.empty()) return true;
  if (suffix.size() == 2 && suffix[1] == 'i') {
    return std::string_view("KMGTPE").find(suffix[0]) != std::string_view::npos;
  }
  if (suffix.size() == 1 &&
      std::string_view("numkMGTPE").find(suffix[0]) != std::string_view::npos) {
    return true;
  }
  if (suffix[0] != 'e' && suffix[0] != 'E') return false;
  pos = 1;
  ConsumeSign(suffix, pos);
  return ConsumeDecimal(suffix, pos) && pos == suffix.size();
}

bool MatchesEvictionThreshold(std::string_view value) {
  if (value.empty()) return true;
  if (value.back() == '%') return IsPercentage(value.substr(0, value.size() - 1));
  return MatchesQuantity(value);
}

bool MatchesConditionType(std::string_view value) {
  std::string_view name = value;
  size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    for (size_t start = 0;;) {
      size_t dot = prefix.find('.', start);
      if (!IsLowerLabel(prefix.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
        return false;
      }
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
  }
  if (name.empty() || !absl::ascii_isalnum(name.front()) || !absl::ascii_isalnum(name.back())) {
    return false;
  }
  for (char c : name) {
    if (!absl::ascii_isalnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

bool MatchesConditionReason(std::string_view value) {
  if (value.empty() || !absl::ascii_isalpha(value.front())) return false;
  if (value.size() == 1) return true;
  char last = value.back();
  if (!absl::ascii_isalnum(last) && last != '_') return false;
  for (char c : value.substr(1)) {
    if (!absl::ascii_isalnum(c) && c != '_' && c != ',' && c != ':') return false;
  }
  return true;
}

}  // namespace karpenter::api::ec2nodeclass_internal
