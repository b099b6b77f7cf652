#include "src/api/ec2nodeclass.h"

#include <array>

#include "absl/strings/ascii.h"

namespace karpenter::api {

void ApplyDefaults(EC2NodeClass& node_class) {
  // The CRD defaults the whole object when absent and each property when the object is
  // present; defaulting the (possibly just created) empty object field by field covers both.
  if (!node_class.spec.metadata_options) node_class.spec.metadata_options.emplace();
  MetadataOptions& options = *node_class.spec.metadata_options;
  if (!options.http_endpoint) options.http_endpoint = "enabled";
  if (!options.http_protocol_ipv6) options.http_protocol_ipv6 = "disabled";
  if (!options.http_put_response_hop_limit) options.http_put_response_hop_limit = 1;
  if (!options.http_tokens) options.http_tokens = "required";

  for (CapacityReservation& reservation : node_class.status.capacity_reservations) {
    if (reservation.reservation_type.empty()) reservation.reservation_type = "default";
    if (reservation.state.empty()) reservation.state = "active";
  }
}

std::string ResolvedAMIFamily(const EC2NodeClassSpec& spec) {
  if (spec.ami_family) return *spec.ami_family;
  static constexpr std::array<std::string_view, 6> kAliasFamilies = {
      kAMIFamilyAL2,         kAMIFamilyAL2023,      kAMIFamilyBottlerocket,
      kAMIFamilyWindows2019, kAMIFamilyWindows2022, kAMIFamilyWindows2025};
  for (const AMISelectorTerm& term : spec.ami_selector_terms) {
    if (term.alias.empty()) continue;
    std::string_view alias_family = std::string_view(term.alias).substr(0, term.alias.find('@'));
    for (std::string_view family : kAliasFamilies) {
      if (absl::AsciiStrToLower(std::string(family)) == alias_family) return std::string(family);
    }
    break;  // Validation rejects unknown alias families; only the first alias term counts.
  }
  return std::string(kAMIFamilyCustom);
}

}  // namespace karpenter::api
