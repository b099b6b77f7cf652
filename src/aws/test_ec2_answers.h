// EC2 answers the fault proxy gives in place of moto's, for tests of what moto cannot produce:
// CreateFleet refusals and chosen free-address counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace karpenter::aws {

// One override CreateFleet refused. EC2 names the zone only sometimes (empty: left out).
struct FleetRefusal {
  std::string instance_type;
  std::string subnet_id;
  std::string zone;
  std::string code = "InsufficientInstanceCapacity";
  std::string message = "none";
  std::string lifecycle = "on-demand";
};

// A CreateFleet answer that launched nothing and refused each of `refusals`.
inline std::string RefusedFleetXml(const std::vector<FleetRefusal>& refusals) {
  std::string items;
  for (const FleetRefusal& r : refusals) {
    absl::StrAppend(&items, "<item><launchTemplateAndOverrides><overrides><instanceType>",
                    r.instance_type, "</instanceType>");
    if (!r.subnet_id.empty()) absl::StrAppend(&items, "<subnetId>", r.subnet_id, "</subnetId>");
    if (!r.zone.empty()) {
      absl::StrAppend(&items, "<availabilityZone>", r.zone, "</availabilityZone>");
    }
    absl::StrAppend(&items, "</overrides></launchTemplateAndOverrides><lifecycle>", r.lifecycle,
                    "</lifecycle><errorCode>", r.code, "</errorCode><errorMessage>", r.message,
                    "</errorMessage></item>");
  }
  return absl::StrCat("<CreateFleetResponse><fleetId>fleet-refused</fleetId><errorSet>", items,
                      "</errorSet></CreateFleetResponse>");
}

struct DescribedSubnet {
  std::string id;
  std::string zone;
  int64_t available_ips = 0;
};

// A DescribeSubnets answer with these subnets of `vpc`.
inline std::string SubnetsXml(const std::string& vpc, const std::vector<DescribedSubnet>& subnets) {
  std::string items;
  for (const DescribedSubnet& s : subnets) {
    absl::StrAppend(&items, "<item><subnetId>", s.id, "</subnetId><vpcId>", vpc,
                    "</vpcId><availabilityZone>", s.zone,
                    "</availabilityZone><availableIpAddressCount>", s.available_ips,
                    "</availableIpAddressCount></item>");
  }
  return absl::StrCat("<DescribeSubnetsResponse><subnetSet>", items,
                      "</subnetSet></DescribeSubnetsResponse>");
}

}  // namespace karpenter::aws
