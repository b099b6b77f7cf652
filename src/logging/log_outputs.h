// Where log lines go, as zap's OutputPaths and ErrorOutputPaths (LOG_OUTPUT_PATHS,
// LOG_ERROR_OUTPUT_PATHS, the chart's logOutputPaths / logErrorOutputPaths): a comma-separated
// list whose entries are "stdout", "stderr", a file path or a file:// URL. Files are created if
// missing and appended to, as zap opens them. Every line goes to every output.
#pragma once

#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace karpenter::logging {

class LogOutputs {
 public:
  // The given streams, not owned (tests, or a host's own stdout).
  explicit LogOutputs(std::vector<std::ostream*> streams = {});

  // Opens every entry of `paths`; "stdout" and "stderr" are the streams given. Fails naming
  // `setting` and the entry when one is empty or cannot be opened for writing: nothing is kept
  // open then.
  static absl::StatusOr<LogOutputs> Open(std::string_view setting, std::string_view paths,
                                         std::ostream& standard_out, std::ostream& standard_err);

  // Writes `line` and a newline to every output and flushes it. Returns the names of the outputs
  // that failed (and recovers them for the next line).
  std::vector<std::string> WriteLine(std::string_view line);

  size_t size() const { return streams_.size(); }

 private:
  std::vector<std::unique_ptr<std::ofstream>> files_;
  std::vector<std::ostream*> streams_;
  std::vector<std::string> names_;
};

}  // namespace karpenter::logging
