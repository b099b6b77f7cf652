// Any instance-type list as JSON (docs/differential.md has the format): what `karpenter plan
// --catalog` and `karpenter bench scheduling --catalog` plan with instead of the embedded AWS
// catalog, so that another scheduler can be run on the very same types. Upstream's fake cloud
// provider declares its own label keys (size, special, integer) well-known; a file declares its
// extra keys the same way, so pods may select on them while a NodePool leaves them undefined.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "src/provisioning/types.h"

namespace karpenter::provisioning {

struct InstanceTypeFile {
  std::vector<InstanceTypeView> instance_types;  // File order.
  std::vector<std::string> well_known_labels;    // Beyond the core and AWS keys.
};

// Parses a catalog document. Each type gets node.kubernetes.io/instance-type = its name, and the
// zones and capacity types of its available offerings as requirements unless it states them.
// InvalidArgument naming the field path (e.g. "instanceTypes[3].offerings[0].price") on any
// malformed or missing field; nothing is returned partially.
absl::StatusOr<InstanceTypeFile> ParseInstanceTypeFile(std::string_view json);

// The document ParseInstanceTypeFile reads back as `file` (reservation fields are not written).
std::string EncodeInstanceTypeFile(const InstanceTypeFile& file);

// `file`'s well-known labels added to `labels`.
void DeclareWellKnownLabels(const InstanceTypeFile& file, scheduling::WellKnownLabels& labels);

}  // namespace karpenter::provisioning
