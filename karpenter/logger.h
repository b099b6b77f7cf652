// The log seam: upstream's structured log lines, the ones operators grep `kubectl logs` for
// ("launched nodeclaim", "tainted node", "disrupting node(s)", ...). Controllers say what
// happened in upstream's words and keys; the host chooses the encoding (the controller writes
// zap-style JSON lines, and drops what LOG_LEVEL leaves out). What upstream logs at info level
// and the V(1) lines it logs at debug level go through here: failures are reconcile errors, and
// what the cluster should see are Events.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace karpenter {

struct LogField {
  // Upstream's key. A Kubernetes kind ("NodeClaim", "Node", "NodePool") names that object, as
  // upstream's klog.KObj does; hosts may render it as upstream's {"name": ...}.
  std::string key;
  std::string value;
  // `value` is a JSON document (a count, a resource list as an object) that hosts may embed as
  // it is, where upstream logs a number or a map; otherwise it is text.
  bool json = false;
  friend bool operator==(const LogField&, const LogField&) = default;
};

// The line of code that logged, as std::source_location gives it. Not std::source_location
// itself: the fuzz build's clang 14 cannot compile libstdc++ 12's <source_location>, while both
// compilers evaluate these builtins at the caller when they are default arguments.
class SourceLocation {
 public:
  static constexpr SourceLocation Current(const char* file = __builtin_FILE(),
                                          unsigned line = __builtin_LINE()) {
    return SourceLocation(file, line);
  }
  constexpr const char* file_name() const { return file_; }
  constexpr unsigned line() const { return line_; }

 private:
  constexpr SourceLocation(const char* file, unsigned line) : file_(file), line_(line) {}
  const char* file_;
  unsigned line_;
};

// Upstream logs at info level, or at V(1), which the controller shows only with LOG_LEVEL=debug.
enum class LogLevel { kDebug, kInfo };

class Logger {
 public:
  virtual ~Logger() = default;
  // One informational line. Called on the controllers' thread.
  void Info(std::string_view message, const std::vector<LogField>& fields,
            SourceLocation where = SourceLocation::Current()) {
    Log(LogLevel::kInfo, message, fields, where);
  }
  // One line upstream logs at V(1): shown only with LOG_LEVEL=debug.
  void Debug(std::string_view message, const std::vector<LogField>& fields,
             SourceLocation where = SourceLocation::Current()) {
    Log(LogLevel::kDebug, message, fields, where);
  }

 protected:
  // Writes one line. `where` is the line of code that logged it, which zap writes as `caller`
  // in debug mode; implementations may ignore it.
  virtual void Log(LogLevel level, std::string_view message, const std::vector<LogField>& fields,
                   SourceLocation where) = 0;
};

}  // namespace karpenter
