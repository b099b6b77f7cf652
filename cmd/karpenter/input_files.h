// `-f` as kubectl reads it: values split on commas, a directory stands for its .json, .yaml and
// .yml files in name order (with `-R`, those of its subdirectories too), "-" for standard input.
#pragma once

#include <string>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::cli {

// The files `values` name, in order. NotFound for a directory with no manifest file; a path that
// does not exist is passed through, for the reader to report.
absl::StatusOr<std::vector<std::string>> ExpandFilenames(const std::vector<std::string>& values,
                                                         bool recursive);

}  // namespace karpenter::cli
