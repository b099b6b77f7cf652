#include "src/api/utf8.h"

#include <algorithm>
#include <cstdint>

#include "fmt/format.h"

namespace karpenter::api {
namespace {

// The length of the well-formed sequence starting at `pos`, or 0 (RFC 3629, table 3-7 of the
// Unicode standard).
size_t SequenceLength(std::string_view text, size_t pos) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(pos);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint8_t low = 0x80;
  uint8_t high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (pos + length > text.size()) return 0;
  if (byte(pos + 1) < low || byte(pos + 1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (byte(pos + i) < 0x80 || byte(pos + i) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

std::optional<size_t> FindInvalidUtf8(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t length = SequenceLength(text, pos);
    if (length == 0) return pos;
    pos += length;
  }
  return std::nullopt;
}

absl::Status CheckUtf8(std::string_view text) {
  const std::optional<size_t> bad = FindInvalidUtf8(text);
  if (!bad) return absl::OkStatus();
  const std::string_view before = text.substr(0, *bad);
  const size_t line = 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
  const size_t line_start = before.rfind('\n');
  const size_t column = line_start == std::string_view::npos ? *bad + 1 : *bad - line_start;
  return absl::InvalidArgumentError(fmt::format("line {}, column {}: invalid UTF-8 (byte 0x{:02x})",
                                                line, column, static_cast<uint8_t>(text[*bad])));
}

}  // namespace karpenter::api
