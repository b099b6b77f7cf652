#include "src/api/go_quote.h"

#include <string>
#include <string_view>

namespace karpenter::api {

std::string GoQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (const char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    // Go escapes each byte of a non-ASCII rune (valid or not) separately, so working byte by
    // byte gives the same text without decoding UTF-8.
    if (byte >= 0x80 || byte < 0x20) {
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xF]);
      continue;
    }
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace karpenter::api
