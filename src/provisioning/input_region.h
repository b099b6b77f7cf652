// Which AWS region a snapshot describes, so that `plan`, `validate` and `sim --from` use that
// region's catalog: the nodes' `topology.kubernetes.io/region` and zone labels, the zones of every
// EC2NodeClass's `status.subnets`, and a `--region` flag. Conflicting evidence is an error naming
// the fields; with no evidence the default region is assumed, and said so.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/node.h"

namespace karpenter::provisioning {

// One object field that names a region, directly or through a zone.
struct RegionEvidence {
  std::string region;
  std::string field;  // "Node/ip-10-0-1-5: metadata.labels[topology.kubernetes.io/zone] us-west-2a"
};

struct RegionChoice {
  std::string region;
  // Where it came from: "--region", the first field naming it, or "default: the input names no
  // region (add topology.kubernetes.io/region labels or --region)".
  std::string source;
  bool assumed = false;  // true when nothing named a region
};

// The region of an availability zone: the known region it extends ("us-east-1-bos-1a" and
// "us-east-1a" are in us-east-1), else the name without its trailing zone letters.
std::string RegionOfZone(std::string_view zone, const std::vector<std::string>& known_regions);

// Every field of `nodes` and `node_classes` that names a region, in input order.
std::vector<RegionEvidence> RegionEvidenceOf(const std::vector<api::Node>& nodes,
                                             const std::vector<api::EC2NodeClass>& node_classes,
                                             const std::vector<std::string>& known_regions);

// The one region `evidence` and `flag` (empty: not given) agree on. InvalidArgument naming both
// fields when two regions appear or the flag disagrees with the input; InvalidArgument listing
// `known_regions` for a region not among them; kDefaultRegion, marked assumed, without evidence.
absl::StatusOr<RegionChoice> ChooseRegion(const std::vector<RegionEvidence>& evidence,
                                          std::string_view flag,
                                          const std::vector<std::string>& known_regions);

}  // namespace karpenter::provisioning
