// ParseSelector: the kubectl `-l` selector syntax. The lexer and the recursive-descent parser
// follow k8s.io/apimachinery/pkg/labels (Parse) token for token, so the same strings are
// accepted and rejected with the same explanations; the result is then converted the way
// metav1.ParseToLabelSelector does. One deliberate difference: key and value errors name the
// offending part ("key: ..." / "values[0]: ...") where Kubernetes prints "<nil>".
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/decimal.h"
#include "src/api/labels.h"
#include "src/api/selector_match.h"

namespace karpenter::api {
namespace {

enum class Token {
  kEndOfString,
  kClosedPar,
  kComma,
  kDoesNotExist,
  kDoubleEquals,
  kEquals,
  kGreaterThan,
  kIdentifier,
  kIn,
  kLessThan,
  kNotEquals,
  kNotIn,
  kOpenPar,
};

// Parsed operators, spelled as k8s selection.Operator values (they appear in messages).
constexpr std::string_view kParsedIn = "in";
constexpr std::string_view kParsedNotIn = "notin";
constexpr std::string_view kParsedEquals = "=";
constexpr std::string_view kParsedDoubleEquals = "==";
constexpr std::string_view kParsedNotEquals = "!=";
constexpr std::string_view kParsedGreaterThan = "gt";
constexpr std::string_view kParsedLessThan = "lt";
constexpr std::string_view kParsedExists = "exists";
constexpr std::string_view kParsedDoesNotExist = "!";

std::optional<Token> LiteralToken(std::string_view s) {
  if (s == ")") return Token::kClosedPar;
  if (s == ",") return Token::kComma;
  if (s == "!") return Token::kDoesNotExist;
  if (s == "==") return Token::kDoubleEquals;
  if (s == "=") return Token::kEquals;
  if (s == ">") return Token::kGreaterThan;
  if (s == "in") return Token::kIn;
  if (s == "<") return Token::kLessThan;
  if (s == "!=") return Token::kNotEquals;
  if (s == "notin") return Token::kNotIn;
  if (s == "(") return Token::kOpenPar;
  return std::nullopt;
}

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool IsSpecialSymbol(char c) {
  switch (c) {
    case '=':
    case '!':
    case '(':
    case ')':
    case ',':
    case '>':
    case '<':
      return true;
    default:
      return false;
  }
}

struct Item {
  Token token;
  std::string literal;
};

class Lexer {
 public:
  explicit Lexer(std::string_view input) : input_(input) {}

  Item Lex() {
    char c = Read();
    while (IsWhitespace(c)) c = Read();
    if (c == '\0') return {Token::kEndOfString, ""};
    Unread();
    return IsSpecialSymbol(c) ? ScanSpecialSymbol() : ScanIdentifierOrKeyword();
  }

 private:
  // Past the end reads as NUL. As in the Go lexer, a NUL byte in the input therefore ends an
  // identifier, and at the start of a token ends the input.
  char Read() { return pos_ < input_.size() ? input_[pos_++] : '\0'; }
  void Unread() { --pos_; }

  Item ScanIdentifierOrKeyword() {
    std::string buffer;
    while (true) {
      char c = Read();
      if (c == '\0') break;
      if (IsSpecialSymbol(c) || IsWhitespace(c)) {
        Unread();
        break;
      }
      buffer += c;
    }
    if (std::optional<Token> token = LiteralToken(buffer)) return {*token, buffer};
    return {Token::kIdentifier, buffer};
  }

  // The longest run of symbol characters that still spells an operator ("!=" over "!").
  // Every single symbol character is a token of its own, so this always yields one.
  Item ScanSpecialSymbol() {
    std::string buffer(1, Read());
    Item last{*LiteralToken(buffer), buffer};
    while (true) {
      char c = Read();
      if (c == '\0') break;
      if (!IsSpecialSymbol(c)) {
        Unread();
        break;
      }
      buffer += c;
      std::optional<Token> token = LiteralToken(buffer);
      if (!token) {
        Unread();
        break;
      }
      last = Item{*token, buffer};
    }
    return last;
  }

  std::string_view input_;
  size_t pos_ = 0;
};

struct Requirement {
  std::string key;
  std::string_view op;
  std::vector<std::string> values;  // sorted, unique
};

absl::Status Found(std::string_view literal, std::string_view expected) {
  return absl::InvalidArgumentError("found '" + std::string(literal) +
                                    "', expected: " + std::string(expected));
}

// Renders a list of field errors the way utilerrors.Aggregate does.
std::string AggregateMessage(const FieldErrors& errors) {
  if (errors.size() == 1) return errors.errors().front().ToString();
  std::string out = "[";
  for (size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) out += ", ";
    out += errors.errors()[i].ToString();
  }
  return out + "]";
}

std::string JoinMessages(const std::vector<std::string>& msgs) {
  std::string out;
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (i > 0) out += "; ";
    out += msgs[i];
  }
  return out;
}

// labels.NewRequirement's checks on the values the parser produced (the key was checked
// already, and the parser always supplies the number of values each operator needs).
absl::Status CheckValues(const Requirement& r) {
  FieldErrors errors;
  if (r.op == kParsedGreaterThan || r.op == kParsedLessThan) {
    for (size_t i = 0; i < r.values.size(); ++i) {
      if (!ParseDecimalInt64(r.values[i])) {
        errors.Invalid(IndexPath("values", i), Quote(r.values[i]),
                       "for 'Gt', 'Lt' operators, the value must be an integer");
      }
    }
  }
  for (size_t i = 0; i < r.values.size(); ++i) {
    if (std::vector<std::string> msgs = IsValidLabelValue(r.values[i]); !msgs.empty()) {
      errors.Invalid(IndexPath("values", i), Quote(r.values[i]), JoinMessages(msgs));
    }
  }
  if (errors.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(AggregateMessage(errors));
}

class Parser {
 public:
  explicit Parser(std::string_view input) {
    Lexer lexer(input);
    while (true) {
      items_.push_back(lexer.Lex());
      if (items_.back().token == Token::kEndOfString) break;
    }
  }

  absl::StatusOr<std::vector<Requirement>> Parse() {
    std::vector<Requirement> requirements;
    while (true) {
      const Item& next = Lookahead();
      switch (ValueKind(next)) {
        case Token::kIdentifier:
        case Token::kDoesNotExist: {
          absl::StatusOr<Requirement> r = ParseRequirement();
          if (!r.ok()) {
            return absl::InvalidArgumentError("unable to parse requirement: " +
                                              std::string(r.status().message()));
          }
          requirements.push_back(*std::move(r));
          const Item& sep = Consume();
          Token sep_kind = ValueKind(sep);
          if (sep_kind == Token::kEndOfString) return requirements;
          if (sep_kind != Token::kComma) return Found(sep.literal, "',' or 'end of string'");
          const Item& after = Lookahead();
          Token after_kind = ValueKind(after);
          if (after_kind != Token::kIdentifier && after_kind != Token::kDoesNotExist) {
            return Found(after.literal, "identifier after ','");
          }
          break;
        }
        case Token::kEndOfString:
          return requirements;
        default:
          return Found(next.literal, "!, identifier, or 'end of string'");
      }
    }
  }

 private:
  // Everywhere but operator position the keywords `in` and `notin` are ordinary identifiers
  // ("in in (in)" is a valid requirement).
  static Token ValueKind(const Item& item) {
    if (item.token == Token::kIn || item.token == Token::kNotIn) return Token::kIdentifier;
    return item.token;
  }
  const Item& Lookahead() const { return items_[position_]; }
  // Never steps past the final end-of-string item, so lookahead stays in bounds.
  const Item& Consume() {
    const Item& item = items_[position_];
    if (position_ + 1 < items_.size()) ++position_;
    return item;
  }

  absl::StatusOr<Requirement> ParseRequirement() {
    Requirement r;
    const Item* item = &Consume();
    if (ValueKind(*item) == Token::kDoesNotExist) {
      r.op = kParsedDoesNotExist;
      item = &Consume();
    }
    if (ValueKind(*item) != Token::kIdentifier) return Found(item->literal, "identifier");
    r.key = item->literal;
    if (std::vector<std::string> msgs = IsQualifiedName(r.key); !msgs.empty()) {
      FieldErrors errors;
      errors.Invalid("key", Quote(r.key), JoinMessages(msgs));
      return absl::InvalidArgumentError(AggregateMessage(errors));
    }
    Token next = ValueKind(Lookahead());
    if (next == Token::kEndOfString || next == Token::kComma) {
      if (r.op != kParsedDoesNotExist) r.op = kParsedExists;
    }
    if (r.op == kParsedExists || r.op == kParsedDoesNotExist) return r;

    const Item& op = Consume();
    switch (op.token) {
      case Token::kIn:
        r.op = kParsedIn;
        break;
      case Token::kEquals:
        r.op = kParsedEquals;
        break;
      case Token::kDoubleEquals:
        r.op = kParsedDoubleEquals;
        break;
      case Token::kGreaterThan:
        r.op = kParsedGreaterThan;
        break;
      case Token::kLessThan:
        r.op = kParsedLessThan;
        break;
      case Token::kNotIn:
        r.op = kParsedNotIn;
        break;
      case Token::kNotEquals:
        r.op = kParsedNotEquals;
        break;
      default:
        return Found(op.literal, "in, notin, =, ==, !=, gt, lt");
    }
    std::set<std::string> values;
    absl::Status status = (r.op == kParsedIn || r.op == kParsedNotIn) ? ParseValueSet(&values)
                                                                      : ParseExactValue(&values);
    if (!status.ok()) return status;
    r.values.assign(values.begin(), values.end());
    KP_RETURN_IF_ERROR(CheckValues(r));
    return r;
  }

  // "(" values ")"; "()" is the single empty value.
  absl::Status ParseValueSet(std::set<std::string>* values) {
    const Item& open = Consume();
    if (ValueKind(open) != Token::kOpenPar) {
      return absl::InvalidArgumentError("found '" + open.literal + "' expected: '('");
    }
    const Item& next = Lookahead();
    switch (ValueKind(next)) {
      case Token::kIdentifier:
      case Token::kComma:
        KP_RETURN_IF_ERROR(ParseIdentifierList(values));
        Consume();  // The list stops only in front of ')'.
        return absl::OkStatus();
      case Token::kClosedPar:
        Consume();
        values->insert("");
        return absl::OkStatus();
      default:
        return Found(next.literal, "',', ')' or identifier");
    }
  }

  // Comma-separated, possibly empty identifiers: "(a,,b)" and "(,a)" include "".
  absl::Status ParseIdentifierList(std::set<std::string>* values) {
    while (true) {
      const Item& item = Consume();
      switch (ValueKind(item)) {
        case Token::kIdentifier: {
          values->insert(item.literal);
          const Item& next = Lookahead();
          Token kind = ValueKind(next);
          if (kind == Token::kComma) continue;
          if (kind == Token::kClosedPar) return absl::OkStatus();
          return Found(next.literal, "',' or ')'");
        }
        case Token::kComma: {
          if (values->empty()) values->insert("");
          Token kind = ValueKind(Lookahead());
          if (kind == Token::kClosedPar) {
            values->insert("");
            return absl::OkStatus();
          }
          if (kind == Token::kComma) values->insert("");
          break;
        }
        default:
          return Found(item.literal, "',', or identifier");
      }
    }
  }

  // The single value after =, ==, !=, > or <; nothing before ',' or the end means "".
  absl::Status ParseExactValue(std::set<std::string>* values) {
    Token kind = ValueKind(Lookahead());
    if (kind == Token::kEndOfString || kind == Token::kComma) {
      values->insert("");
      return absl::OkStatus();
    }
    const Item& item = Consume();
    if (ValueKind(item) != Token::kIdentifier) return Found(item.literal, "identifier");
    values->insert(item.literal);
    return absl::OkStatus();
  }

  std::vector<Item> items_;
  size_t position_ = 0;
};

}  // namespace

absl::StatusOr<LabelSelector> ParseSelector(std::string_view selector) {
  absl::StatusOr<std::vector<Requirement>> parsed = Parser(selector).Parse();
  if (!parsed.ok()) {
    return absl::InvalidArgumentError("couldn't parse the selector string \"" +
                                      std::string(selector) +
                                      "\": " + std::string(parsed.status().message()));
  }
  std::vector<Requirement>& requirements = *parsed;
  // Kubernetes sorts requirements by key so the result does not depend on input order.
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const Requirement& a, const Requirement& b) { return a.key < b.key; });
  LabelSelector out;
  for (Requirement& r : requirements) {
    std::string_view op;
    if (r.op == kParsedEquals || r.op == kParsedDoubleEquals) {
      out.match_labels[r.key] = r.values.front();
      continue;
    }
    if (r.op == kParsedIn) {
      op = kSelectorOpIn;
    } else if (r.op == kParsedNotIn || r.op == kParsedNotEquals) {
      op = kSelectorOpNotIn;  // "a!=b" and "a notin (b)" select the same objects.
    } else if (r.op == kParsedExists) {
      op = kSelectorOpExists;
    } else if (r.op == kParsedDoesNotExist) {
      op = kSelectorOpDoesNotExist;
    } else {
      return absl::InvalidArgumentError("\"" + std::string(r.op) +
                                        "\" isn't supported in label selectors");
    }
    out.match_expressions.push_back({std::move(r.key), std::string(op), std::move(r.values)});
  }
  return out;
}

}  // namespace karpenter::api
