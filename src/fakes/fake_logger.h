// A Logger for tests: keeps every line as "message key=value ..." in order, debug lines apart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/logger.h"

namespace karpenter::fakes {

class FakeLogger : public Logger {
 public:
  const std::vector<std::string>& lines() const { return lines_; }
  const std::vector<std::string>& debug_lines() const { return debug_lines_; }

 protected:
  void Log(LogLevel level, std::string_view message, const std::vector<LogField>& fields,
           SourceLocation /*where*/) override {
    (level == LogLevel::kDebug ? debug_lines_ : lines_).push_back(Line(message, fields));
  }

 private:
  static std::string Line(std::string_view message, const std::vector<LogField>& fields) {
    std::string line(message);
    for (const LogField& field : fields) line += " " + field.key + "=" + field.value;
    return line;
  }

  std::vector<std::string> lines_;
  std::vector<std::string> debug_lines_;
};

}  // namespace karpenter::fakes
