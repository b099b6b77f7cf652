#include "src/logging/log_outputs.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace karpenter::logging {

LogOutputs::LogOutputs(std::vector<std::ostream*> streams) : streams_(std::move(streams)) {
  for (size_t i = 0; i < streams_.size(); ++i) names_.push_back(absl::StrCat("output ", i));
}

absl::StatusOr<LogOutputs> LogOutputs::Open(std::string_view setting, std::string_view paths,
                                            std::ostream& standard_out,
                                            std::ostream& standard_err) {
  LogOutputs outputs;
  const std::string name(setting);
  const std::string all(paths);
  for (const std::string& entry : std::vector<std::string>(absl::StrSplit(all, ','))) {
    if (entry == "stdout" || entry == "stderr") {
      outputs.streams_.push_back(entry == "stdout" ? &standard_out : &standard_err);
      outputs.names_.emplace_back(entry);
      continue;
    }
    std::string path = entry;
    constexpr std::string_view kFileScheme = "file://";
    if (path.rfind(kFileScheme, 0) == 0) path = path.substr(kFileScheme.size());
    if (path.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": empty output path in \"", all, "\""));
    }
    auto file = std::make_unique<std::ofstream>(path, std::ios::out | std::ios::app);
    if (!file->is_open()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": cannot open \"", path, "\" for writing"));
    }
    outputs.streams_.push_back(file.get());
    outputs.names_.push_back(path);
    outputs.files_.push_back(std::move(file));
  }
  return outputs;
}

std::vector<std::string> LogOutputs::WriteLine(std::string_view line) {
  std::vector<std::string> failed;
  for (size_t i = 0; i < streams_.size(); ++i) {
    std::ostream& stream = *streams_[i];
    stream << line << '\n';
    stream.flush();
    if (stream.good()) continue;
    failed.push_back(names_[i]);
    stream.clear();
  }
  return failed;
}

}  // namespace karpenter::logging
