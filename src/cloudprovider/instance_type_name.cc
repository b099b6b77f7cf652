// Upstream: pkg/providers/instancetype/types.go (instanceTypeScheme)
#include "src/cloudprovider/instance_type_name.h"

#include "absl/strings/ascii.h"

namespace karpenter::cloudprovider {
namespace {

size_t CountWhile(std::string_view text, size_t start, bool (*predicate)(unsigned char)) {
  size_t end = start;
  while (end < text.size() && predicate(static_cast<unsigned char>(text[end]))) ++end;
  return end - start;
}

bool IsLowerLetter(unsigned char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(unsigned char c) { return absl::ascii_isdigit(c); }

}  // namespace

std::optional<InstanceTypeName> ParseInstanceTypeName(std::string_view name) {
  size_t dot = name.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size() ||
      name.find('.', dot + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  InstanceTypeName parts{.family = std::string(name.substr(0, dot)),
                         .size = std::string(name.substr(dot + 1))};
  // Upstream's regex, matched by hand: letters, an optional "-<digits>tb" (high-memory "u-6tb1"),
  // then the generation digits, all before the first dot.
  std::string_view family = name.substr(0, dot);
  size_t letters = CountWhile(family, 0, IsLowerLetter);
  if (letters == 0) return parts;
  size_t cursor = letters;
  if (cursor < family.size() && family[cursor] == '-') {
    size_t digits = CountWhile(family, cursor + 1, IsDigit);
    if (digits > 0 && family.substr(cursor + 1 + digits, 2) == "tb") cursor += 1 + digits + 2;
  }
  size_t generation = CountWhile(family, cursor, IsDigit);
  if (generation == 0) return parts;
  parts.category = std::string(family.substr(0, letters));
  parts.generation = std::string(family.substr(cursor, generation));
  return parts;
}

}  // namespace karpenter::cloudprovider
