#include "src/aws/toml.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <type_traits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

bool IsBareKeyChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  absl::StatusOr<TomlTable> Parse() {
    TomlTable root;
    TomlTable* current = &root;
    while (true) {
      SkipBlankLinesAndComments();
      if (AtEnd()) break;
      if (Peek() == '[') {
        if (Peek(1) == '[') return Error("arrays of tables are not supported");
        ++pos_;
        SkipSpaces();
        absl::StatusOr<std::vector<std::string>> path = Key();
        if (!path.ok()) return path.status();
        SkipSpaces();
        if (!Consume(']')) return Error("expected ] after a table name");
        absl::StatusOr<TomlTable*> table = Descend(root, *path, /*define=*/true);
        if (!table.ok()) return table.status();
        current = *table;
      } else {
        absl::Status pair = KeyValue(*current);
        if (!pair.ok()) return pair;
      }
      if (absl::Status end = EndOfLine(); !end.ok()) return end;
    }
    return root;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool Consume(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++pos_;
    return true;
  }
  bool ConsumeText(std::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal) return false;
    pos_ += literal.size();
    return true;
  }
  int Line() const {
    int line = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) line += text_[i] == '\n';
    return line;
  }
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("TOML line ", Line(), ": ", AbslView(what)));
  }
  void SkipSpaces() {
    while (Peek() == ' ' || Peek() == '\t') ++pos_;
  }
  void SkipComment() {
    if (Peek() != '#') return;
    while (!AtEnd() && Peek() != '\n') ++pos_;
  }
  void SkipBlankLinesAndComments() {
    while (!AtEnd()) {
      SkipSpaces();
      SkipComment();
      if (Peek() == '\r') ++pos_;
      if (!Consume('\n')) return;
    }
  }
  absl::Status EndOfLine() {
    SkipSpaces();
    SkipComment();
    if (Peek() == '\r') ++pos_;
    if (AtEnd() || Consume('\n')) return absl::OkStatus();
    return Error(absl::StrCat("unexpected '", std::string(1, Peek()), "' after a value"));
  }

  // One key, dotted parts each bare or quoted.
  absl::StatusOr<std::vector<std::string>> Key() {
    std::vector<std::string> parts;
    while (true) {
      SkipSpaces();
      if (Peek() == '"' || Peek() == '\'') {
        absl::StatusOr<std::string> quoted = String();
        if (!quoted.ok()) return quoted.status();
        parts.push_back(*std::move(quoted));
      } else {
        const size_t start = pos_;
        while (IsBareKeyChar(Peek()) && !AtEnd()) ++pos_;
        if (pos_ == start) return Error("expected a key");
        parts.emplace_back(text_.substr(start, pos_ - start));
      }
      SkipSpaces();
      if (!Consume('.')) return parts;
    }
  }

  // The table at `path` under `from`, made where missing. `define`: a [header] (the last table
  // may exist only as an implicit parent).
  absl::StatusOr<TomlTable*> Descend(TomlTable& from, const std::vector<std::string>& path,
                                     bool define) {
    TomlTable* table = &from;
    for (size_t i = 0; i < path.size(); ++i) {
      auto [it, inserted] = table->try_emplace(path[i], TomlValue{TomlTable{}});
      auto* next = std::get_if<TomlTable>(&it->second.value);
      if (next == nullptr) return Error(absl::StrCat("key ", path[i], " is not a table"));
      if (define && i + 1 == path.size() && !inserted && defined_.contains(next)) {
        return Error(absl::StrCat("table ", absl::StrJoin(path, "."), " is defined twice"));
      }
      table = next;
    }
    if (define) defined_.insert(table);
    return table;
  }

  absl::Status KeyValue(TomlTable& table) {
    absl::StatusOr<std::vector<std::string>> path = Key();
    if (!path.ok()) return path.status();
    if (!Consume('=')) return Error("expected = after a key");
    SkipSpaces();
    absl::StatusOr<TomlValue> value = Value(0);
    if (!value.ok()) return value.status();
    const std::string last = path->back();
    path->pop_back();
    absl::StatusOr<TomlTable*> parent = Descend(table, *path, /*define=*/false);
    if (!parent.ok()) return parent.status();
    if (!(*parent)->emplace(last, *std::move(value)).second) {
      return Error(absl::StrCat("key ", last, " is defined twice"));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<TomlValue> Value(int depth) {
    if (depth > kMaxTomlDepth) return Error("values nested too deeply");
    const char c = Peek();
    if (c == '"' || c == '\'') {
      absl::StatusOr<std::string> text = String();
      if (!text.ok()) return text.status();
      return TomlValue{*std::move(text)};
    }
    if (ConsumeText("true")) return TomlValue{true};
    if (ConsumeText("false")) return TomlValue{false};
    if (c == '[') return Array(depth);
    if (c == '{') return InlineTable(depth);
    return Number();
  }

  absl::StatusOr<TomlValue> Number() {
    const size_t start = pos_;
    while (!AtEnd() && (absl::ascii_isalnum(static_cast<unsigned char>(Peek())) || Peek() == '+' ||
                        Peek() == '-' || Peek() == '.' || Peek() == '_' || Peek() == ':')) {
      ++pos_;
    }
    std::string token(text_.substr(start, pos_ - start));
    if (token.empty()) return Error("expected a value");
    // A date starts with a four-digit year and a dash; a time has colons.
    const bool date = token.size() > 4 && token[4] == '-' &&
                      std::all_of(token.begin(), token.begin() + 4, [](char c) {
                        return absl::ascii_isdigit(static_cast<unsigned char>(c));
                      });
    if (date || token.find(':') != std::string::npos) {
      return Error(absl::StrCat("dates and times are not supported: ", token));
    }
    std::erase(token, '_');
    int64_t integer = 0;
    if (absl::SimpleAtoi(token, &integer)) return TomlValue{integer};
    double real = 0;
    if (token.find_first_of(".eE") != std::string::npos && absl::SimpleAtod(token, &real)) {
      // Out of range is refused rather than read as infinity, which this writer cannot spell.
      if (!std::isfinite(real)) return Error(absl::StrCat("number out of range: ", token));
      return TomlValue{real};
    }
    return Error(absl::StrCat("not a value: ", token));
  }

  absl::StatusOr<TomlValue> Array(int depth) {
    ++pos_;  // [
    TomlArray items;
    while (true) {
      SkipBlankLinesAndComments();
      if (Consume(']')) return TomlValue{std::move(items)};
      if (AtEnd()) return Error("unterminated array");
      absl::StatusOr<TomlValue> item = Value(depth + 1);
      if (!item.ok()) return item.status();
      items.push_back(*std::move(item));
      SkipBlankLinesAndComments();
      if (Consume(']')) return TomlValue{std::move(items)};
      if (AtEnd()) return Error("unterminated array");
      if (!Consume(',')) return Error("expected , or ] in an array");
    }
  }

  absl::StatusOr<TomlValue> InlineTable(int depth) {
    ++pos_;  // {
    TomlTable table;
    SkipSpaces();
    if (Consume('}')) return TomlValue{std::move(table)};
    while (true) {
      absl::StatusOr<std::vector<std::string>> path = Key();
      if (!path.ok()) return path.status();
      if (!Consume('=')) return Error("expected = after a key");
      SkipSpaces();
      // A dotted key nests a table per segment, which WriteToml writes back as nested inline
      // tables: counted here, what is accepted is read back after writing.
      absl::StatusOr<TomlValue> value = Value(depth + static_cast<int>(path->size()));
      if (!value.ok()) return value.status();
      const std::string last = path->back();
      path->pop_back();
      absl::StatusOr<TomlTable*> parent = Descend(table, *path, /*define=*/false);
      if (!parent.ok()) return parent.status();
      if (!(*parent)->emplace(last, *std::move(value)).second) {
        return Error(absl::StrCat("key ", last, " is defined twice"));
      }
      SkipSpaces();
      if (Consume('}')) return TomlValue{std::move(table)};
      if (!Consume(',')) return Error("expected , or } in an inline table");
      SkipSpaces();
    }
  }

  // A basic ("...", """...""") or literal ('...', '''...''') string.
  absl::StatusOr<std::string> String() {
    const char quote = Peek();
    const bool multi_line = Peek(1) == quote && Peek(2) == quote;
    const std::string delimiter(multi_line ? 3 : 1, quote);
    pos_ += delimiter.size();
    if (multi_line && Peek() == '\n') ++pos_;  // a newline right after the opening is trimmed
    std::string out;
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      if (ConsumeText(delimiter)) return out;
      const char c = text_[pos_++];
      if (c == '\n' && !multi_line) return Error("newline in a one-line string");
      if (c != '\\' || quote == '\'') {
        out.push_back(c);
        continue;
      }
      absl::Status escaped = Escape(out, multi_line);
      if (!escaped.ok()) return escaped;
    }
  }

  absl::Status Escape(std::string& out, bool multi_line) {
    const char e = Peek();
    ++pos_;
    switch (e) {
      case 'n':
        out.push_back('\n');
        return absl::OkStatus();
      case 't':
        out.push_back('\t');
        return absl::OkStatus();
      case 'r':
        out.push_back('\r');
        return absl::OkStatus();
      case 'b':
        out.push_back('\b');
        return absl::OkStatus();
      case 'f':
        out.push_back('\f');
        return absl::OkStatus();
      case '"':
        out.push_back('"');
        return absl::OkStatus();
      case '\\':
        out.push_back('\\');
        return absl::OkStatus();
      case 'u':
      case 'U':
        return Unicode(out, e == 'u' ? 4 : 8);
      default:
        break;
    }
    if (multi_line && (e == '\n' || e == ' ' || e == '\t' || e == '\r')) {
      // A line-ending backslash joins the lines, dropping the whitespace that follows.
      while (!AtEnd() && absl::ascii_isspace(static_cast<unsigned char>(Peek()))) ++pos_;
      return absl::OkStatus();
    }
    return Error("unknown escape in a string");
  }

  absl::Status Unicode(std::string& out, int digits) {
    if (pos_ + digits > text_.size()) return Error("short unicode escape");
    uint32_t code = 0;
    for (int i = 0; i < digits; ++i) {
      const char h = text_[pos_++];
      if (!absl::ascii_isxdigit(static_cast<unsigned char>(h))) return Error("bad unicode escape");
      code = code * 16 + static_cast<uint32_t>(absl::ascii_isdigit(static_cast<unsigned char>(h))
                                                   ? h - '0'
                                                   : absl::ascii_tolower(h) - 'a' + 10);
    }
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return Error("unicode escape out of range");
    }
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
    return absl::OkStatus();
  }

  std::string_view text_;
  size_t pos_ = 0;
  // Tables given a [header] (a second header for one is an error).
  std::set<const TomlTable*> defined_;
};

std::string QuoteString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          absl::StrAppendFormat(&out, "\\u%04X", static_cast<unsigned char>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  return out + "\"";
}

std::string KeyText(std::string_view key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), IsBareKeyChar);
  return bare ? std::string(key) : QuoteString(key);
}

std::string ValueText(const TomlValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return QuoteString(v);
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return absl::StrCat(v);
        } else if constexpr (std::is_same_v<T, double>) {
          std::string text = absl::StrFormat("%.17g", v);
          if (text.find_first_of(".eEni") == std::string::npos) text += ".0";
          return text;
        } else if constexpr (std::is_same_v<T, TomlArray>) {
          std::vector<std::string> items;
          for (const TomlValue& item : v) items.push_back(ValueText(item));
          return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
        } else {
          std::vector<std::string> pairs;
          for (const auto& [key, item] : v) {
            pairs.push_back(absl::StrCat(KeyText(key), " = ", ValueText(item)));
          }
          return absl::StrCat("{", absl::StrJoin(pairs, ", "), "}");
        }
      },
      value.value);
}

void WriteTable(std::string& out, const std::string& path, const TomlTable& table) {
  if (!path.empty()) absl::StrAppend(&out, out.empty() ? "" : "\n", "[", path, "]\n");
  for (const auto& [key, value] : table) {
    if (std::holds_alternative<TomlTable>(value.value)) continue;
    absl::StrAppend(&out, KeyText(key), " = ", ValueText(value), "\n");
  }
  for (const auto& [key, value] : table) {
    const auto* sub = std::get_if<TomlTable>(&value.value);
    if (sub == nullptr) continue;
    WriteTable(out, path.empty() ? KeyText(key) : absl::StrCat(path, ".", KeyText(key)), *sub);
  }
}

}  // namespace

absl::StatusOr<TomlTable> ParseToml(std::string_view text) { return Parser(text).Parse(); }

std::string WriteToml(const TomlTable& root) {
  std::string out;
  WriteTable(out, "", root);
  return out;
}

}  // namespace karpenter::aws
