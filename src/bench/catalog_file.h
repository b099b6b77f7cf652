// Any instance-type list as JSON, for differential runs against another scheduler on the same
// types (docs/differential.md has the format). Upstream's fake cloud provider declares its own
// label keys (size, special, integer) well-known; a file declares its extra keys the same way, so
// pods may select on them while a NodePool leaves them undefined.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "src/bench/fake_catalog.h"

namespace karpenter::bench {

struct CatalogFile {
  std::vector<FakeInstanceType> instance_types;  // File order.
  std::vector<std::string> well_known_labels;    // Beyond the core and AWS keys.
};

// Parses a catalog document. Each type gets node.kubernetes.io/instance-type = its name, and the
// zones and capacity types of its available offerings as requirements unless it states them.
// InvalidArgument naming the field path (e.g. "instanceTypes[3].offerings[0].price") on any
// malformed or missing field; nothing is returned partially.
absl::StatusOr<CatalogFile> ParseCatalogFile(std::string_view json);

// The catalog behind `--catalog fake400`: upstream's fake.InstanceTypes(400) with its three
// well-known keys.
CatalogFile Fake400CatalogFile();

// The document ParseCatalogFile reads back as `catalog` (used to publish fake400 for other
// tools, and by tests).
std::string EncodeCatalogFile(const CatalogFile& catalog);

}  // namespace karpenter::bench
