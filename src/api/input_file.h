// Opening the files a user names on the command line (manifests, snapshots, scenarios).
//
// Reading a FIFO that no one writes to blocks forever, and a device such as /dev/zero never
// ends, so only regular files are read by name; standard input is read as a stream, by "-" or
// "/dev/stdin" (which a file-size probe cannot read when it is a pipe).
#pragma once

#include <string>
#include <string_view>

#include "karpenter/common/status.h"

namespace karpenter::api {

// Whether `path` names standard input: "-" or "/dev/stdin".
bool IsStandardInput(std::string_view path);

// OK for a regular file; NotFound "cannot open PATH: REASON", or InvalidArgument "not a regular
// file (...)" for a FIFO, device, socket or directory. It never blocks: a FIFO is opened without
// waiting for a writer.
absl::Status CheckRegularFile(const std::string& path);

// The whole content of a regular file, or of standard input for IsStandardInput(path).
absl::StatusOr<std::string> ReadInputFile(const std::string& path);

}  // namespace karpenter::api
