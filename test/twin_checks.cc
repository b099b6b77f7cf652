#include "test/twin_checks.h"

#include <cmath>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace karpenter::scenario {
namespace {

// Keys of an event pattern that say where or how often it matches rather than naming a field.
constexpr const char* kAt = "at";
constexpr const char* kAfterPrevious = "secondsAfterPrevious";
constexpr const char* kCount = "count";

bool IsControlKey(const std::string& key) {
  return key == kAt || key == kAfterPrevious || key == kCount;
}

std::optional<double> AsNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::istringstream in(text);
  double value = 0;
  in >> value;
  if (in.fail() || !in.eof()) return std::nullopt;
  return value;
}

// A pattern's value against an event's: strings exactly, or as a prefix when the pattern ends in
// `*`; numbers to a thousandth (events print three decimals).
bool ValueMatches(const std::string& want, const nlohmann::json& have) {
  if (have.is_number()) {
    std::optional<double> number = AsNumber(want);
    return number && std::fabs(*number - have.get<double>()) < 1e-3;
  }
  if (!have.is_string()) return false;
  const std::string& text = have.get_ref<const std::string&>();
  if (!want.empty() && want.back() == '*') {
    return text.rfind(want.substr(0, want.size() - 1), 0) == 0;
  }
  return text == want;
}

double TimeOf(const nlohmann::json& event) {
  auto t = event.find("t");
  return t != event.end() && t->is_number() ? t->get<double>() : -1;
}

// The pattern's fields (`event` names the event's type) and `at` against one event.
bool Matches(const YAML::Node& pattern, const nlohmann::json& event) {
  for (const auto& entry : pattern) {
    const std::string key = entry.first.Scalar();
    if (key == kAt) {
      std::optional<double> at = AsNumber(entry.second.Scalar());
      if (!at || std::fabs(*at - TimeOf(event)) >= 1e-3) return false;
      continue;
    }
    if (IsControlKey(key)) continue;
    auto field = event.find(key);
    if (field == event.end() || !ValueMatches(entry.second.Scalar(), *field)) return false;
  }
  return true;
}

std::string Describe(const YAML::Node& pattern) {
  YAML::Emitter out;
  out << YAML::Flow << pattern;
  return out.c_str();
}

// A pattern must be a map naming `event`, with scalar values.
std::optional<std::string> PatternProblem(const YAML::Node& pattern, const std::string& where) {
  if (!pattern.IsMap()) return absl::StrCat(where, ": want a map such as {event: NodeReady}");
  if (!pattern["event"]) return absl::StrCat(where, ": names no `event`");
  for (const auto& entry : pattern) {
    if (!entry.second.IsScalar()) {
      return absl::StrCat(where, ".", entry.first.Scalar(), ": want a scalar");
    }
  }
  return std::nullopt;
}

// `events`: a subsequence of the log, in order; `secondsAfterPrevious` ties an entry to the time
// of the one matched before it.
void CheckSequence(const YAML::Node& patterns, const std::vector<nlohmann::json>& events,
                   std::vector<std::string>& failures) {
  size_t next = 0;
  double previous_time = 0;
  for (size_t i = 0; i < patterns.size(); ++i) {
    const YAML::Node& pattern = patterns[i];
    const std::string where = absl::StrCat("expect.events[", i, "]");
    if (std::optional<std::string> problem = PatternProblem(pattern, where)) {
      failures.push_back(*problem);
      return;
    }
    std::optional<double> after;
    if (pattern[kAfterPrevious]) {
      after = AsNumber(pattern[kAfterPrevious].Scalar());
      if (!after || i == 0) {
        failures.push_back(absl::StrCat(where, ".", kAfterPrevious,
                                        ": want a number, on an entry after the first"));
        return;
      }
    }
    size_t found = next;
    while (found < events.size() &&
           !(Matches(pattern, events[found]) &&
             (!after || std::fabs(TimeOf(events[found]) - previous_time - *after) < 1e-3))) {
      ++found;
    }
    if (found == events.size()) {
      failures.push_back(absl::StrCat(where, ": no event ", Describe(pattern),
                                      next > 0 ? " after the one matched before it" : "",
                                      " in the run's ", events.size(), " events"));
      return;  // later entries are ordered after this one, so they cannot be judged
    }
    previous_time = TimeOf(events[found]);
    next = found + 1;
  }
}

// The well-formed patterns of `expect.<list>`, each with where it stands; the others are failures.
std::vector<std::pair<std::string, YAML::Node>> WellFormedPatterns(
    const YAML::Node& patterns, const char* list, std::vector<std::string>& failures) {
  std::vector<std::pair<std::string, YAML::Node>> out;
  for (size_t i = 0; i < patterns.size(); ++i) {
    std::string where = absl::StrCat("expect.", list, "[", i, "]");
    if (std::optional<std::string> problem = PatternProblem(patterns[i], where)) {
      failures.push_back(*problem);
    } else {
      out.emplace_back(std::move(where), patterns[i]);
    }
  }
  return out;
}

void CheckAbsent(const YAML::Node& patterns, const std::vector<nlohmann::json>& events,
                 std::vector<std::string>& failures) {
  for (const auto& [where, pattern] : WellFormedPatterns(patterns, "absent", failures)) {
    for (const nlohmann::json& event : events) {
      if (Matches(pattern, event)) {
        failures.push_back(absl::StrCat(where, ": ", Describe(pattern),
                                        " should not happen, but: ", event.dump()));
        break;
      }
    }
  }
}

void CheckCounts(const YAML::Node& patterns, const std::vector<nlohmann::json>& events,
                 std::vector<std::string>& failures) {
  for (const auto& [where, pattern] : WellFormedPatterns(patterns, "counts", failures)) {
    std::optional<double> want =
        pattern[kCount] ? AsNumber(pattern[kCount].Scalar()) : std::nullopt;
    if (!want) {
      failures.push_back(absl::StrCat(where, ".count: want a number"));
      continue;
    }
    int have = 0;
    for (const nlohmann::json& event : events) have += Matches(pattern, event) ? 1 : 0;
    if (have != static_cast<int>(*want)) {
      failures.push_back(
          absl::StrCat(where, ": ", have, " events match ", Describe(pattern), ", want ", *want));
    }
  }
}

}  // namespace

std::vector<nlohmann::json> ParseEventLines(const std::string& text,
                                            std::vector<std::string>& problems) {
  std::vector<nlohmann::json> events;
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    nlohmann::json event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!event.is_object()) {
      problems.push_back(absl::StrCat("events line ", number, " is not a JSON object: ", line));
      continue;
    }
    events.push_back(std::move(event));
  }
  return events;
}

std::vector<std::string> CheckTwinEvents(const YAML::Node& expect,
                                         const std::vector<nlohmann::json>& events) {
  std::vector<std::string> failures;
  if (!expect || !expect.IsMap()) return {"expect: want a map with events, absent or counts"};
  for (const auto& entry : expect) {
    const std::string key = entry.first.Scalar();
    if (!entry.second.IsSequence()) {
      failures.push_back(absl::StrCat("expect.", key, ": want a list"));
    } else if (key == "events") {
      CheckSequence(entry.second, events, failures);
    } else if (key == "absent") {
      CheckAbsent(entry.second, events, failures);
    } else if (key == "counts") {
      CheckCounts(entry.second, events, failures);
    } else {
      failures.push_back(absl::StrCat("expect.", key, ": unknown (events, absent, counts)"));
    }
  }
  return failures;
}

}  // namespace karpenter::scenario
