#include "src/api/json_list_splitter.h"

#include <cstring>

namespace karpenter::api {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  // A string token; `out` is its raw content (escapes left as written).
  bool String(std::string_view& out) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '"') return false;
    size_t start = ++pos_;
    if (!SkipStringBody()) return false;
    out = text_.substr(start, pos_ - start - 1);
    return true;
  }
  // Any value: a string, a balanced object/array, or a scalar token.
  bool Value(std::string_view& out) {
    SkipSpace();
    if (pos_ >= text_.size()) return false;
    size_t start = pos_;
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      if (!SkipStringBody()) return false;
    } else if (c == '{' || c == '[') {
      if (!SkipNested()) return false;
    } else {
      while (pos_ < text_.size() && std::strchr(",}] \t\r\n", text_[pos_]) == nullptr) ++pos_;
      if (pos_ == start) return false;
    }
    out = text_.substr(start, pos_ - start);
    return true;
  }

 private:
  // After an opening quote: advances past the closing one.
  bool SkipStringBody() {
    while (pos_ < text_.size()) {
      const void* hit = std::memchr(text_.data() + pos_, '"', text_.size() - pos_);
      if (hit == nullptr) return false;
      size_t quote = static_cast<size_t>(static_cast<const char*>(hit) - text_.data());
      size_t backslashes = 0;
      while (quote - backslashes > pos_ && text_[quote - backslashes - 1] == '\\') ++backslashes;
      pos_ = quote + 1;
      if (backslashes % 2 == 0) return true;
    }
    return false;
  }
  bool SkipNested() {
    int depth = 0;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') {
        if (!SkipStringBody()) return false;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return true;
        if (depth < 0) return false;
      }
    }
    return false;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

bool ReadItems(Scanner& scanner, std::vector<std::string_view>& items) {
  if (!scanner.Consume('[')) return false;
  if (scanner.Consume(']')) return true;
  do {
    std::string_view item;
    if (!scanner.Value(item)) return false;
    items.push_back(item);
  } while (scanner.Consume(','));
  return scanner.Consume(']');
}

}  // namespace

std::optional<JsonListSplit> SplitJsonList(std::string_view json) {
  Scanner scanner(json);
  if (!scanner.Consume('{')) return std::nullopt;
  JsonListSplit split;
  bool has_items = false;
  std::string_view kind;
  if (!scanner.Peek('}')) {
    do {
      std::string_view key;
      if (!scanner.String(key) || !scanner.Consume(':')) return std::nullopt;
      if (key == "items" && !has_items) {
        if (!ReadItems(scanner, split.items)) return std::nullopt;
        has_items = true;
        continue;
      }
      std::string_view value;
      if (!scanner.Value(value)) return std::nullopt;
      if (key == "kind" && value.size() >= 2 && value.front() == '"') {
        kind = value.substr(1, value.size() - 2);
      }
      split.other_values.push_back(value);
    } while (scanner.Consume(','));
  }
  if (!scanner.Consume('}') || !scanner.AtEnd()) return std::nullopt;
  if (!has_items || !kind.ends_with("List")) return std::nullopt;
  return split;
}

}  // namespace karpenter::api
