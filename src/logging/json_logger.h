// Upstream: kubernetes-sigs/karpenter pkg/operator/logging (zap's production JSON encoder as
// Karpenter configures it; reference: ecosystem.md §1.3). One JSON object per line:
// `level` (DEBUG, INFO, WARN, ERROR), `time` (ISO 8601 UTC with milliseconds), `logger`
// ("controller"), `message`, `commit`, then the line's fields. An object reference field (its key
// is a kind: "NodeClaim", "Node", "NodePool", "Pod", "EC2NodeClass") is written {"name": ...}
// as klog.KObj is.
//
// LOG_LEVEL decides what is written: debug shows everything, info hides DEBUG, error shows ERROR
// only. At debug level each line also names the code that wrote it, `caller`
// ("controllers/provisioner.cc:212", the last directory and the file as zap's short caller), as
// upstream enables zap's caller only then. Lines go to every output of LOG_OUTPUT_PATHS; a line an
// output fails to take is reported on LOG_ERROR_OUTPUT_PATHS, as zap reports write errors. As zap's
// sampler does, each second the first 100 lines of one level and message are written and after that
// every 100th, so a controller stuck in a loop cannot flood the log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "karpenter/logger.h"
#include "src/api/time.h"
#include "src/logging/log_outputs.h"

namespace karpenter::logging {

enum class Level { kDebug, kInfo, kWarn, kError };

// "debug", "info", "warn" or "error"; anything else is an error naming LOG_LEVEL.
absl::StatusOr<Level> ParseLevel(std::string_view text);

// zap's ISO 8601 time: "2024-06-22T02:24:16.114Z".
std::string Iso8601Millis(api::Time time);

inline constexpr int kSampleFirst = 100;
inline constexpr int kSampleThereafter = 100;
inline constexpr size_t kMaxSampledMessages = 1024;

class JsonLogger : public Logger {
 public:
  using Now = std::function<api::Time()>;
  // Lines to `out`, write errors nowhere.
  JsonLogger(std::ostream& out, Level level, Now now, std::string commit);
  JsonLogger(LogOutputs outputs, LogOutputs error_outputs, Level level, Now now,
             std::string commit);

  void Error(std::string_view message, const std::vector<LogField>& fields,
             SourceLocation where = SourceLocation::Current());
  // Any level; safe from any thread (lines never interleave).
  void Write(Level level, std::string_view message, const std::vector<LogField>& fields,
             SourceLocation where = SourceLocation::Current());

  bool Enabled(Level level) const { return level >= level_; }
  // Lines the sampler dropped so far.
  uint64_t dropped() const;

 protected:
  void Log(LogLevel level, std::string_view message, const std::vector<LogField>& fields,
           SourceLocation where) override;

 private:
  // Whether the sampler lets this line through (called with the mutex held).
  bool Sample(Level level, std::string_view message, int64_t second);

  LogOutputs outputs_;
  LogOutputs error_outputs_;
  const Level level_;
  const Now now_;
  const std::string commit_;
  mutable std::mutex mutex_;
  struct Tick {
    int64_t second = 0;
    uint64_t count = 0;
  };
  std::map<std::pair<Level, std::string>, Tick, std::less<>> ticks_;
  uint64_t dropped_ = 0;
};

}  // namespace karpenter::logging
