// A Logger for tests: keeps every line as "message key=value ..." in order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/logger.h"

namespace karpenter::fakes {

class FakeLogger : public Logger {
 public:
  void Info(std::string_view message, const std::vector<LogField>& fields) override {
    std::string line(message);
    for (const LogField& field : fields) line += " " + field.key + "=" + field.value;
    lines_.push_back(std::move(line));
  }

  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
};

}  // namespace karpenter::fakes
