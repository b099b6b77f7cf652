#include "src/logging/json_logger.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace karpenter::logging {
namespace {

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kDebug:
      return "DEBUG";
    case Level::kInfo:
      return "INFO";
    case Level::kWarn:
      return "WARN";
    case Level::kError:
      return "ERROR";
  }
  return "INFO";
}

// The kinds whose fields are object references (upstream logs them with klog.KObj); "Pods" is
// not one: upstream writes that list as text.
bool IsObjectKind(std::string_view key) {
  return key == "NodeClaim" || key == "Node" || key == "NodePool" || key == "Pod" ||
         key == "EC2NodeClass";
}

// A field's JSON value: an object reference for a kind, an embedded document when the field
// says so (text when it does not parse), else the text.
nlohmann::ordered_json FieldValue(const LogField& field) {
  if (field.json) {
    nlohmann::ordered_json parsed =
        nlohmann::ordered_json::parse(field.value, nullptr, /*allow_exceptions=*/false);
    if (!parsed.is_discarded()) return parsed;
    return field.value;
  }
  if (IsObjectKind(field.key)) return nlohmann::ordered_json{{"name", field.value}};
  return field.value;
}

// zap's ShortCallerEncoder: the file's last directory and name, and the line.
std::string ShortCaller(const SourceLocation& where) {
  std::string_view file = where.file_name();
  size_t cut = file.rfind('/');
  if (cut != std::string_view::npos && cut > 0) {
    const size_t parent = file.rfind('/', cut - 1);
    file.remove_prefix(parent == std::string_view::npos ? 0 : parent + 1);
  }
  return absl::StrCat(std::string(file), ":", where.line());
}

}  // namespace

absl::StatusOr<Level> ParseLevel(std::string_view text) {
  if (text == "debug") return Level::kDebug;
  if (text == "info") return Level::kInfo;
  if (text == "warn") return Level::kWarn;
  if (text == "error") return Level::kError;
  return absl::InvalidArgumentError(absl::StrCat("invalid LOG_LEVEL \"", std::string(text), "\""));
}

std::string Iso8601Millis(api::Time time) {
  std::string text = time.Rfc3339();  // "2024-06-22T02:24:16Z"
  const int64_t nanos = time.UnixNanos();
  int64_t millis = (nanos % 1'000'000'000) / 1'000'000;
  if (millis < 0) millis += 1000;  // before the epoch: Rfc3339 rounded the second down
  char fraction[8];
  std::snprintf(fraction, sizeof(fraction), ".%03d", static_cast<int>(millis));
  text.insert(text.size() - 1, fraction);
  return text;
}

JsonLogger::JsonLogger(std::ostream& out, Level level, Now now, std::string commit)
    : JsonLogger(LogOutputs({&out}), LogOutputs(), level, std::move(now), std::move(commit)) {}

JsonLogger::JsonLogger(LogOutputs outputs, LogOutputs error_outputs, Level level, Now now,
                       std::string commit)
    : outputs_(std::move(outputs)),
      error_outputs_(std::move(error_outputs)),
      level_(level),
      now_(std::move(now)),
      commit_(std::move(commit)) {}

void JsonLogger::Log(LogLevel level, std::string_view message, const std::vector<LogField>& fields,
                     SourceLocation where) {
  Write(level == LogLevel::kDebug ? Level::kDebug : Level::kInfo, message, fields, where);
}

void JsonLogger::Error(std::string_view message, const std::vector<LogField>& fields,
                       SourceLocation where) {
  Write(Level::kError, message, fields, where);
}

uint64_t JsonLogger::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

bool JsonLogger::Sample(Level level, std::string_view message, int64_t second) {
  auto key = std::make_pair(level, std::string(message));
  auto it = ticks_.find(key);
  if (it == ticks_.end()) {
    // Messages are constant texts, so few; the bound is for a caller that builds them.
    if (ticks_.size() >= kMaxSampledMessages) ticks_.clear();
    it = ticks_.emplace(std::move(key), Tick{.second = second}).first;
  }
  if (it->second.second != second) it->second = Tick{.second = second};
  const uint64_t count = ++it->second.count;
  return count <= kSampleFirst || (count - kSampleFirst) % kSampleThereafter == 0;
}

void JsonLogger::Write(Level level, std::string_view message, const std::vector<LogField>& fields,
                       SourceLocation where) {
  if (!Enabled(level)) return;
  const api::Time now = now_();
  nlohmann::ordered_json line = {
      {"level", LevelName(level)}, {"time", Iso8601Millis(now)}, {"logger", "controller"}};
  if (level_ == Level::kDebug) line["caller"] = ShortCaller(where);
  line["message"] = std::string(message);
  line["commit"] = commit_;
  for (const LogField& field : fields) line[field.key] = FieldValue(field);
  // Invalid UTF-8 from a cluster object is replaced, never thrown on.
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!Sample(level, message, now.UnixSeconds())) {
    ++dropped_;
    return;
  }
  for (const std::string& output : outputs_.WriteLine(text)) {
    error_outputs_.WriteLine(
        absl::StrCat(Iso8601Millis(now), " write error: cannot write a log line to ", output));
  }
}

}  // namespace karpenter::logging
