// Test helpers for src/state: snapshots from YAML text (strict: a decode error or unknown field in
// a fixture fails the build of the snapshot, so typos cannot silently weaken a test) and small
// accessors for assertions.
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fmt/format.h"
#include "src/api/manifest.h"
#include "src/state/snapshot.h"

namespace karpenter::state::testing_util {

inline absl::StatusOr<std::vector<api::Manifest>> StrictManifests(std::string_view yaml) {
  KP_ASSIGN_OR_RETURN(std::vector<api::Manifest> manifests,
                      api::DecodeManifests(yaml, "test.yaml"));
  for (const api::Manifest& manifest : manifests) {
    if (!manifest.report.errors.empty()) {
      return absl::InvalidArgumentError(
          fmt::format("{}: {}", manifest.Ref(), manifest.report.errors.errors()[0].ToString()));
    }
    if (!manifest.report.unknown_fields.empty()) {
      return absl::InvalidArgumentError(
          fmt::format("{}: unknown field {}", manifest.Ref(), manifest.report.unknown_fields[0]));
    }
  }
  return manifests;
}

inline absl::StatusOr<ClusterSnapshot> SnapshotFromYaml(std::string_view yaml,
                                                        const SnapshotOptions& options = {}) {
  KP_ASSIGN_OR_RETURN(std::vector<api::Manifest> manifests, StrictManifests(yaml));
  return ClusterSnapshot::FromManifests(std::move(manifests), options);
}

inline std::string ReadSourceFile(std::string_view relative_path) {
  std::ifstream in(std::string(KP_SOURCE_DIR) + "/" + std::string(relative_path));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// "namespace/name" of each pod, in the given order.
inline std::vector<std::string> PodKeys(const std::vector<const api::Pod*>& pods) {
  std::vector<std::string> keys;
  for (const api::Pod* pod : pods) {
    keys.push_back(pod->metadata.namespace_ + "/" + pod->metadata.name);
  }
  return keys;
}

inline std::vector<std::string> PodKeys(const std::vector<api::Pod>& pods) {
  std::vector<std::string> keys;
  for (const api::Pod& pod : pods)
    keys.push_back(pod.metadata.namespace_ + "/" + pod.metadata.name);
  return keys;
}

// Names of the pods `snapshot` added by expansion, sorted.
inline std::vector<std::string> ExpandedPodNames(const ClusterSnapshot& snapshot) {
  std::vector<std::string> names;
  for (const api::Pod& pod : snapshot.pods()) {
    if (snapshot.IsExpanded(pod)) names.push_back(pod.metadata.name);
  }
  return names;
}

}  // namespace karpenter::state::testing_util
