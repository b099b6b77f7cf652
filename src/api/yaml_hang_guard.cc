#include "src/api/yaml_hang_guard.h"

#include <optional>
#include <string>
#include <utility>

#include "fmt/format.h"

namespace karpenter::api {
namespace {

// Walks one document with line/column tracking; stops at the end of the document's text.
class Cursor {
 public:
  Cursor(std::string_view text, size_t begin, size_t end) : text_(text), pos_(begin), end_(end) {}

  bool AtEnd() const { return pos_ >= end_; }
  char Peek() const { return text_[pos_]; }
  void Advance() { ++pos_; }
  size_t pos() const { return pos_; }

  // Skips spaces, tabs, newlines and comments (a `#` at the start or after white space).
  void SkipBlank() {
    while (!AtEnd()) {
      char c = Peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        Advance();
      } else if (c == '#' && (pos_ == 0 || IsSpace(text_[pos_ - 1]))) {
        while (!AtEnd() && Peek() != '\n' && Peek() != '\r') Advance();
      } else {
        return;
      }
    }
  }

  // Skips node properties (`!tag`, `&anchor`) and directives (`%YAML 1.1`), with the blanks
  // around them.
  void SkipProperties() {
    for (SkipBlank(); !AtEnd() && (Peek() == '!' || Peek() == '&' || Peek() == '%'); SkipBlank()) {
      bool directive = Peek() == '%';
      // The scanner ends an anchor or tag at a flow indicator, too (`&a,` is an anchor and a
      // comma).
      while (!AtEnd() &&
             (directive ? Peek() != '\n' : !IsSpace(Peek()) && !IsFlowIndicator(Peek()))) {
        Advance();
      }
    }
  }

  // Skips a quoted scalar starting at the quote; false when it is not closed.
  bool SkipQuoted() {
    char quote = Peek();
    for (Advance(); !AtEnd(); Advance()) {
      char c = Peek();
      if (quote == '"' && c == '\\') {
        Advance();
        continue;
      }
      if (c != quote) continue;
      Advance();
      if (quote == '\'' && !AtEnd() && Peek() == '\'') continue;  // '' escapes a quote
      return true;
    }
    return false;
  }

  // Skips a flow collection starting at its bracket; false when it is not closed. Tracks where
  // tokens start the way the YAML scanner does, because a quote inside a plain scalar (`a"b`,
  // `k:"v"`) is an ordinary character, not the start of a quoted scalar.
  bool SkipFlow() {
    int depth = 0;
    bool token_start = true;    // the next non-blank character begins a token
    bool after_quoted = false;  // a quoted scalar just ended: `"k":v` makes `:` an indicator
    bool in_property = false;   // inside a tag, anchor or alias, which a blank ends
    while (!AtEnd()) {
      char c = Peek();
      if ((c == '"' || c == '\'') && token_start) {
        if (!SkipQuoted()) return false;
        token_start = false;
        after_quoted = true;
        continue;
      }
      if (c == '#' && IsSpace(text_[pos_ - 1])) {
        while (!AtEnd() && Peek() != '\n' && Peek() != '\r') Advance();
        continue;
      }
      Advance();
      if (IsSpace(c)) {
        if (in_property) token_start = true;
        in_property = false;
        continue;
      }
      bool was_after_quoted = std::exchange(after_quoted, false);
      if (c == '[' || c == '{') {
        ++depth;
        token_start = true;
        in_property = false;
      } else if (c == ']' || c == '}') {
        if (--depth == 0) return true;
        token_start = false;
        in_property = false;
      } else if (c == ',') {
        token_start = true;
        in_property = false;
      } else if (c == ':' && (was_after_quoted || AtEnd() || IsIndicatorFollower(Peek()))) {
        token_start = true;
      } else if ((c == '!' || c == '&' || c == '*') && token_start) {
        in_property = true;
        token_start = false;
      } else if (!(c == '?' && token_start && !AtEnd() && IsSpace(Peek()))) {
        token_start = false;
      }
    }
    return false;
  }

 private:
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
  static bool IsFlowIndicator(char c) {
    return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
  }
  // After `:`, these make it the value indicator rather than part of a plain scalar.
  static bool IsIndicatorFollower(char c) {
    return IsSpace(c) || c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
  }

  std::string_view text_;
  size_t pos_;
  size_t end_;
};

// Offset just past a `---` or `...` marker when the line at `line_start` is one.
std::optional<size_t> DocumentMarkerEnd(std::string_view text, size_t line_start) {
  std::string_view rest = text.substr(line_start);
  if (!rest.starts_with("---") && !rest.starts_with("...")) return std::nullopt;
  if (rest.size() > 3 && rest[3] != ' ' && rest[3] != '\t' && rest[3] != '\r' && rest[3] != '\n') {
    return std::nullopt;
  }
  return line_start + 3;
}

absl::Status ProblemAt(std::string_view text, size_t pos, std::string_view problem) {
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return absl::InvalidArgumentError(
      fmt::format("line {}, column {}: {}", line, pos - line_start + 1, problem));
}

absl::Status UnexpectedComma(std::string_view text, size_t pos) {
  return ProblemAt(text, pos, "unexpected ',' at the top level of a document");
}

// The document in [begin, end): a comma as its first token, or right after a root flow
// collection or quoted scalar, is the input that hangs yaml-cpp.
absl::Status CheckDocument(std::string_view text, size_t begin, size_t end) {
  Cursor cursor(text, begin, end);
  cursor.SkipProperties();
  if (cursor.AtEnd()) return absl::OkStatus();
  char first = cursor.Peek();
  if (first == ',') return UnexpectedComma(text, cursor.pos());
  bool closed = true;
  if (first == '[' || first == '{') {
    closed = cursor.SkipFlow();
  } else if (first == '"' || first == '\'') {
    closed = cursor.SkipQuoted();
  } else {
    return absl::OkStatus();  // a block collection or plain scalar: yaml-cpp reports errors
  }
  if (!closed) return absl::OkStatus();
  cursor.SkipBlank();
  if (!cursor.AtEnd() && cursor.Peek() == ',') return UnexpectedComma(text, cursor.pos());
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckNoTopLevelFlowEntry(std::string_view yaml) {
  // YAML allows no C0 control character but tab, LF and CR, nor DEL, unescaped (YAML 1.2 §5.1);
  // Kubernetes' decoder refuses them, and yaml-cpp 0.7 exhausts memory on some (a leading NUL
  // before a comma, found by decode_validate_fuzz).
  for (size_t i = 0; i < yaml.size(); ++i) {
    const auto c = static_cast<unsigned char>(yaml[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      return ProblemAt(yaml, i, "control characters are not allowed");
    }
  }
  // A `---` or `...` line always ends a document, even inside a scalar (YAML 1.2 §9.1).
  size_t begin = 0;
  size_t line_start = 0;
  while (line_start <= yaml.size()) {
    // yaml-cpp loops on a line whose first non-blank character is `,` after a root scalar or
    // after a quoted value in a block collection, so such lines are refused (comma-first flow
    // style and block-scalar lines starting with `,` are casualties; manifests do not use them).
    size_t first = yaml.find_first_not_of(" \t", line_start);
    if (first != std::string_view::npos && first < yaml.size() && yaml[first] == ',') {
      return UnexpectedComma(yaml, first);
    }
    if (std::optional<size_t> marker_end = DocumentMarkerEnd(yaml, line_start)) {
      KP_RETURN_IF_ERROR(CheckDocument(yaml, begin, line_start));
      begin = *marker_end;
    }
    size_t newline = yaml.find_first_of("\r\n", line_start);
    if (newline == std::string_view::npos) break;
    line_start = newline + 1;
  }
  return CheckDocument(yaml, begin, yaml.size());
}

}  // namespace karpenter::api
