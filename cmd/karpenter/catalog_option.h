// `--catalog fake400|FILE`, shared by `karpenter plan` and `karpenter bench scheduling`: the
// instance types to plan with instead of the embedded AWS catalog (docs/differential.md).
#pragma once

#include <string>

#include "karpenter/common/status.h"
#include "src/provisioning/instance_type_file.h"

namespace karpenter::cli {

// "fake400" is upstream's fake.InstanceTypes(400); anything else a path to a catalog JSON file.
// The error names the flag and the file, then the field path the reader reports.
absl::StatusOr<provisioning::InstanceTypeFile> LoadCatalogOption(const std::string& name_or_path);

}  // namespace karpenter::cli
