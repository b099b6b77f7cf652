// Loading manifests and cluster snapshots: multi-document YAML or JSON (including the
// `kind: List` output of `kubectl get -o json`) decoded into typed objects.
//
// Nothing is half-processed: a syntax error fails the whole input with its line; field-level
// problems are attached to the object they belong to, so callers can report every one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/json_codec.h"
#include "src/api/node.h"
#include "src/api/nodeclaim.h"
#include "src/api/nodepool.h"
#include "src/api/pod.h"
#include "src/api/policy.h"
#include "src/api/storage.h"
#include "src/api/workloads.h"

namespace karpenter::api {

using Object = std::variant<NodePool, NodeClaim, EC2NodeClass, Pod, Node, DaemonSet, Deployment,
                            ReplicaSet, StatefulSet, Job, PodDisruptionBudget, PersistentVolume,
                            PersistentVolumeClaim, StorageClass, CSINode, VolumeAttachment>;

struct Manifest {
  std::string source;  // file name, or "<stdin>"
  int line = 0;        // 1-based line of the YAML document (0 for JSON input)
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_;
  std::optional<Object> object;  // empty for kinds the engine does not model
  DecodeReport report;           // decode errors and unknown fields of this object

  // "Kind/name", or "Kind/namespace/name" for namespaced objects.
  std::string Ref() const;
};

// The kinds this build models, as "apiVersion kind" pairs, for messages and docs.
std::vector<std::string_view> SupportedKinds();

// Decodes every object in `content`. `source` only labels the results.
absl::StatusOr<std::vector<Manifest>> DecodeManifests(std::string_view content,
                                                      std::string_view source);
// The same without copying: `content` must carry simdjson's padding.
absl::StatusOr<std::vector<Manifest>> DecodeManifests(simdjson::padded_string_view content,
                                                      std::string_view source);

// Reads and decodes a file ("-" reads standard input).
absl::StatusOr<std::vector<Manifest>> LoadManifestFile(const std::string& path);

// Encodes any modelled object back to JSON.
std::string EncodeObject(const Object& object);

}  // namespace karpenter::api
