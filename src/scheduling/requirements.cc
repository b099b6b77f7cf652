// Upstream: pkg/scheduling/requirements.go
#include "src/scheduling/requirements.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>
#include <utility>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"

namespace karpenter::scheduling {
namespace {

bool KeyLess(const Requirement& requirement, std::string_view key) {
  return requirement.key() < key;
}

// NotIn and DoesNotExist are satisfied by a node that lacks the label altogether.
bool AllowsAbsence(NodeSelectorOperator op) {
  return op == NodeSelectorOperator::kNotIn || op == NodeSelectorOperator::kDoesNotExist;
}

// Go's %q for the label keys that appear in messages: quotes, backslash escapes for quotes,
// backslashes and control characters.
std::string GoQuote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
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
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char escaped[5];
          std::snprintf(escaped, sizeof(escaped), "\\x%02x", static_cast<unsigned char>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

// The part of a label key after its domain ("zone" for "topology.kubernetes.io/zone").
std::string_view LabelName(std::string_view key) {
  const size_t slash = key.find('/');
  return slash == std::string_view::npos ? key : key.substr(slash + 1);
}

// Picks the candidate a mistyped `key` most likely meant, in a fixed order so the hint is
// stable: first a candidate with exactly the same name part, then upstream's looser rule (the
// candidate contains the whole key, or ends with its name part).
template <class Range, class KeyOf>
std::optional<std::string_view> FindTypoOf(std::string_view key, const Range& candidates,
                                           KeyOf key_of) {
  const std::string_view name = LabelName(key);
  for (const auto& candidate : candidates) {
    if (LabelName(key_of(candidate)) == name) return key_of(candidate);
  }
  for (const auto& candidate : candidates) {
    std::string_view text = key_of(candidate);
    const bool ends_with_name =
        text.size() >= name.size() && text.substr(text.size() - name.size()) == name;
    if (text.find(key) != std::string_view::npos || ends_with_name) return text;
  }
  return std::nullopt;
}

// The per-key rule of Intersects.
bool KeyIntersects(const Requirement& existing, const Requirement& incoming) {
  return existing.HasIntersection(incoming) ||
         (AllowsAbsence(incoming.Operator()) && AllowsAbsence(existing.Operator()));
}

}  // namespace

Requirements::Requirements(std::initializer_list<Requirement> requirements) {
  for (const Requirement& requirement : requirements) Add(requirement);
}

std::vector<Requirement>::iterator Requirements::LowerBound(std::string_view key) {
  return std::lower_bound(items_.begin(), items_.end(), key, KeyLess);
}

void Requirements::Add(Requirement requirement) {
  auto it = LowerBound(requirement.key());
  if (it != items_.end() && it->key() == requirement.key()) {
    *it = requirement.Intersection(*it);
    return;
  }
  items_.insert(it, std::move(requirement));
}

void Requirements::Add(const Requirements& other) {
  // Intersecting a set with itself changes nothing, and would read what it writes.
  if (&other == this) return;
  for (const Requirement& requirement : other.items_) Add(requirement);
}

bool Requirements::Remove(std::string_view key) {
  auto it = LowerBound(key);
  if (it == items_.end() || it->key() != key) return false;
  items_.erase(it);
  return true;
}

const Requirement* Requirements::Find(std::string_view key) const {
  auto it = std::lower_bound(items_.begin(), items_.end(), key, KeyLess);
  if (it == items_.end() || it->key() != key) return nullptr;
  return &*it;
}

Requirement Requirements::Get(std::string_view key) const {
  const Requirement* found = Find(key);
  if (found != nullptr) return *found;
  return Requirement::Exists(key);
}

std::vector<std::string> Requirements::Keys() const {
  std::vector<std::string> keys;
  keys.reserve(items_.size());
  for (const Requirement& requirement : items_) keys.emplace_back(requirement.key());
  return keys;
}

std::string Requirements::LabelHint(std::string_view key,
                                    const WellKnownLabels* allow_undefined) const {
  std::optional<std::string_view> typo_of;
  if (allow_undefined != nullptr) {
    typo_of =
        FindTypoOf(key, allow_undefined->Sorted(),
                   [](const std::string& candidate) -> std::string_view { return candidate; });
  }
  if (!typo_of) {
    typo_of = FindTypoOf(key, items_, [](const Requirement& candidate) -> std::string_view {
      return candidate.key();
    });
  }
  if (!typo_of) return {};
  return fmt::format(" (typo of {}?)", GoQuote(*typo_of));
}

bool Requirements::UndefinedKeysAllowed(const Requirements& incoming,
                                        const WellKnownLabels* allow_undefined,
                                        std::string* error) const {
  auto defined = items_.begin();
  for (const Requirement& requirement : incoming.items_) {
    const std::string_view key = requirement.key();
    while (defined != items_.end() && defined->key() < key) ++defined;
    if (defined != items_.end() && defined->key() == key) continue;
    if (allow_undefined != nullptr && allow_undefined->Contains(key)) continue;
    if (AllowsAbsence(requirement.Operator())) continue;
    if (error != nullptr) {
      *error = fmt::format("label {} does not have known values{}", GoQuote(key),
                           LabelHint(key, allow_undefined));
    }
    return false;
  }
  return true;
}

bool Requirements::HasIntersectionImpl(const Requirements& incoming, std::string* errors) const {
  bool ok = true;
  auto existing = items_.begin();
  auto other = incoming.items_.begin();
  while (existing != items_.end() && other != incoming.items_.end()) {
    const int order = existing->key().compare(other->key());
    if (order < 0) {
      ++existing;
      continue;
    }
    if (order > 0) {
      ++other;
      continue;
    }
    if (!KeyIntersects(*existing, *other)) {
      if (errors == nullptr) return false;
      ok = false;
      if (!errors->empty()) *errors += "; ";
      fmt::format_to(std::back_inserter(*errors), "key {}, {} not in {}", other->key(),
                     other->ToString(), existing->ToString());
    }
    ++existing;
    ++other;
  }
  return ok;
}

absl::Status Requirements::Compatible(const Requirements& incoming,
                                      const WellKnownLabels& allow_undefined) const {
  std::string error;
  if (!UndefinedKeysAllowed(incoming, &allow_undefined, &error)) {
    return absl::FailedPreconditionError(error);
  }
  return Intersects(incoming);
}

absl::Status Requirements::Compatible(const Requirements& incoming) const {
  std::string error;
  if (!UndefinedKeysAllowed(incoming, nullptr, &error)) {
    return absl::FailedPreconditionError(error);
  }
  return Intersects(incoming);
}

bool Requirements::IsCompatible(const Requirements& incoming,
                                const WellKnownLabels& allow_undefined) const {
  return UndefinedKeysAllowed(incoming, &allow_undefined, nullptr) &&
         HasIntersectionImpl(incoming, nullptr);
}

bool Requirements::IsCompatible(const Requirements& incoming) const {
  return UndefinedKeysAllowed(incoming, nullptr, nullptr) && HasIntersectionImpl(incoming, nullptr);
}

absl::Status Requirements::Intersects(const Requirements& incoming) const {
  std::string errors;
  if (HasIntersectionImpl(incoming, &errors)) return absl::OkStatus();
  return absl::FailedPreconditionError(errors);
}

bool Requirements::HasIntersection(const Requirements& incoming) const {
  return HasIntersectionImpl(incoming, nullptr);
}

bool Requirements::HasIntersection(const Requirement& incoming) const {
  const Requirement* existing = Find(incoming.key());
  return existing == nullptr || KeyIntersects(*existing, incoming);
}

std::map<std::string, std::string> Requirements::Labels(
    absl::FunctionRef<bool(std::string_view)> skip) const {
  std::map<std::string, std::string> labels;
  for (const Requirement& requirement : items_) {
    if (skip(requirement.key())) continue;
    std::string value = requirement.Any();
    if (!value.empty()) labels.emplace(std::string(requirement.key()), std::move(value));
  }
  return labels;
}

std::map<std::string, std::string> Requirements::Labels() const {
  return Labels([](std::string_view) { return false; });
}

bool Requirements::HasMinValues() const {
  return std::any_of(items_.begin(), items_.end(), [](const Requirement& requirement) {
    return requirement.min_values().has_value();
  });
}

std::string Requirements::ToString() const {
  std::vector<std::string> parts;
  parts.reserve(items_.size());
  for (const Requirement& requirement : items_) {
    if (requirement.key() == api::kLabelHostname) continue;
    parts.push_back(requirement.ToString());
  }
  std::sort(parts.begin(), parts.end());
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace karpenter::scheduling
