// Entry point of EC2NodeClass validation, the shared rule renderers, and the rules on the
// spec's scalar and small-object fields. Selector terms, kubelet, block devices and status have
// their own files.
#include "src/api/ec2nodeclass_validation.h"

#include <array>
#include <utility>

#include "absl/strings/match.h"
#include "src/api/ec2nodeclass_validation_internal.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim_validation.h"

namespace karpenter::api {
namespace ec2nodeclass_internal {

void CheckPattern(const std::string& path, std::string_view value, const SchemaPattern& pattern,
                  FieldErrors* errors) {
  if (pattern.Matches(value)) return;
  errors->Invalid(path, Quote(value), "should match '" + std::string(pattern.text) + "'");
}

void CheckEnum(const std::string& path, std::string_view value,
               const std::vector<std::string_view>& allowed, FieldErrors* errors) {
  for (std::string_view candidate : allowed) {
    if (candidate == value) return;
  }
  errors->NotSupported(path, value, allowed);
}

void CheckMinimum(const std::string& path, int64_t value, int64_t minimum, FieldErrors* errors) {
  if (value >= minimum) return;
  errors->Invalid(path, std::to_string(value),
                  "should be greater than or equal to " + std::to_string(minimum));
}

void CheckMaximum(const std::string& path, int64_t value, int64_t maximum, FieldErrors* errors) {
  if (value <= maximum) return;
  errors->Invalid(path, std::to_string(value),
                  "should be less than or equal to " + std::to_string(maximum));
}

void CheckRange(const std::string& path, int64_t value, int64_t minimum, int64_t maximum,
                FieldErrors* errors) {
  CheckMinimum(path, value, minimum, errors);
  CheckMaximum(path, value, maximum, errors);
}

void CheckMaxItems(const std::string& path, size_t size, size_t max, FieldErrors* errors) {
  if (size > max) errors->TooMany(path, size, max);
}

void CelFailure(const std::string& path, std::string_view json_type, std::string_view message,
                FieldErrors* errors) {
  errors->Invalid(path, Quote(json_type), message);
}

void ValidateSelectorTags(const std::string& path, const std::map<std::string, std::string>& tags,
                          FieldErrors* errors) {
  CheckMaxItems(path, tags.size(), 20, errors);
  for (const auto& [key, value] : tags) {
    if (key.empty() || value.empty()) {
      CelFailure(KeyPath(path, key), kObject, "empty tag keys or values aren't supported", errors);
    }
  }
}

void ValidateNetworkInterfaces(const std::vector<NetworkInterface>& interfaces,
                               const std::string& path, FieldErrors* errors) {
  CheckMaxItems(path, interfaces.size(), 150, errors);
  for (size_t i = 0; i < interfaces.size(); ++i) {
    const NetworkInterface& nic = interfaces[i];
    const std::string nic_path = IndexPath(path, i);
    CheckMinimum(ChildPath(nic_path, "networkCardIndex"), nic.network_card_index, 0, errors);
    CheckMinimum(ChildPath(nic_path, "deviceIndex"), nic.device_index, 0, errors);
    if (nic.interface_type.empty()) {
      errors->Required(ChildPath(nic_path, "interfaceType"));
    } else {
      CheckEnum(ChildPath(nic_path, "interfaceType"), nic.interface_type, {"interface", "efa-only"},
                errors);
    }
  }
  if (interfaces.empty()) return;

  bool has_primary = false;
  bool pairs_unique_and_one_efa_per_card = true;
  for (const NetworkInterface& nic : interfaces) {
    if (nic.device_index == 0 && nic.network_card_index == 0 && nic.interface_type == "interface") {
      has_primary = true;
    }
    size_t same_slot = 0;
    size_t efa_on_card = 0;
    for (const NetworkInterface& other : interfaces) {
      if (other.network_card_index != nic.network_card_index) continue;
      if (other.device_index == nic.device_index) ++same_slot;
      if (other.interface_type == "efa-only") ++efa_on_card;
    }
    if (same_slot != 1 || (nic.interface_type == "efa-only" && efa_on_card != 1)) {
      pairs_unique_and_one_efa_per_card = false;
    }
  }
  if (!has_primary) {
    CelFailure(path, kArray,
               "networkInterfaces must include a primary interface with interfaceType='interface'",
               errors);
  }
  if (!pairs_unique_and_one_efa_per_card) {
    CelFailure(path, kArray,
               "networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, "
               "and can have at most one efa device per network card",
               errors);
  }
}

namespace {

// Exactly one of role / instanceProfile, each non-empty when present.
void ValidateIdentity(const EC2NodeClassSpec& spec, const std::string& path, FieldErrors* errors) {
  if (spec.role.has_value() == spec.instance_profile.has_value()) {
    CelFailure(path, kObject, "must specify exactly one of ['role', 'instanceProfile']", errors);
  }
  if (spec.role && spec.role->empty()) {
    CelFailure(ChildPath(path, "role"), kString, "role cannot be empty", errors);
  }
  if (spec.instance_profile && spec.instance_profile->empty()) {
    CelFailure(ChildPath(path, "instanceProfile"), kString, "instanceProfile cannot be empty",
               errors);
  }
}

// amiFamily enum, its consistency with an alias term, and its presence without one.
void ValidateAMIFamily(const EC2NodeClassSpec& spec, const std::string& path, FieldErrors* errors) {
  if (spec.ami_family) {
    CheckEnum(ChildPath(path, "amiFamily"), *spec.ami_family,
              {kAMIFamilyAL2, kAMIFamilyAL2023, kAMIFamilyBottlerocket, kAMIFamilyCustom,
               kAMIFamilyWindows2019, kAMIFamilyWindows2022, kAMIFamilyWindows2025},
              errors);
  }
  struct AliasRule {
    std::string_view alias_family;
    std::string_view ami_family;
    std::string_view message;
  };
  static constexpr std::array<AliasRule, 6> kAliasRules = {{
      {"al2", kAMIFamilyAL2, "if set, amiFamily must be 'AL2' or 'Custom' when using an AL2 alias"},
      {"al2023", kAMIFamilyAL2023,
       "if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias"},
      {"bottlerocket", kAMIFamilyBottlerocket,
       "if set, amiFamily must be 'Bottlerocket' or 'Custom' when using a Bottlerocket alias"},
      {"windows2019", kAMIFamilyWindows2019,
       "if set, amiFamily must be 'Windows2019' or 'Custom' when using a Windows2019 alias"},
      {"windows2022", kAMIFamilyWindows2022,
       "if set, amiFamily must be 'Windows2022' or 'Custom' when using a Windows2022 alias"},
      {"windows2025", kAMIFamilyWindows2025,
       "if set, amiFamily must be 'Windows2025' or 'Custom' when using a Windows2025 alias"},
  }};
  bool has_alias = false;
  for (const AMISelectorTerm& term : spec.ami_selector_terms) {
    if (!term.alias.empty()) has_alias = true;
  }
  if (!has_alias && !spec.ami_family) {
    CelFailure(path, kObject,
               "must specify amiFamily if amiSelectorTerms does not contain an alias", errors);
  }
  if (!spec.ami_family) return;
  for (const AliasRule& rule : kAliasRules) {
    bool uses_family = false;
    for (const AMISelectorTerm& term : spec.ami_selector_terms) {
      // CEL `alias.find('^[^@]+')`: the text before the first '@'.
      if (!term.alias.empty() &&
          std::string_view(term.alias).substr(0, term.alias.find('@')) == rule.alias_family) {
        uses_family = true;
      }
    }
    if (uses_family && *spec.ami_family != kAMIFamilyCustom &&
        *spec.ami_family != rule.ami_family) {
      CelFailure(path, kObject, rule.message, errors);
    }
  }
}

// Tag keys Karpenter itself writes on launched resources may not be overridden.
void ValidateTags(const std::map<std::string, std::string>& tags, const std::string& path,
                  FieldErrors* errors) {
  for (const auto& [key, value] : tags) {
    const std::string key_path = KeyPath(path, key);
    if (key.empty()) CelFailure(key_path, kObject, "empty tag keys aren't supported", errors);
    if (key == "eks:eks-cluster-name") {
      CelFailure(key_path, kObject, "tag contains a restricted tag matching eks:eks-cluster-name",
                 errors);
    }
    // The CRD tests the prefix without the trailing slash, so "kubernetes.io/clusterX" is
    // restricted too.
    if (absl::StartsWith(key, "kubernetes.io/cluster")) {
      CelFailure(key_path, kObject, "tag contains a restricted tag matching kubernetes.io/cluster/",
                 errors);
    }
    if (key == kNodePoolLabelKey) {
      CelFailure(key_path, kObject, "tag contains a restricted tag matching karpenter.sh/nodepool",
                 errors);
    }
    if (key == "karpenter.sh/nodeclaim") {
      CelFailure(key_path, kObject, "tag contains a restricted tag matching karpenter.sh/nodeclaim",
                 errors);
    }
    if (key == "karpenter.k8s.aws/ec2nodeclass") {
      CelFailure(key_path, kObject,
                 "tag contains a restricted tag matching karpenter.k8s.aws/ec2nodeclass", errors);
    }
  }
}

void ValidatePlacementGroupSelector(const PlacementGroupSelector& selector, const std::string& path,
                                    FieldErrors* errors) {
  if (!selector.name && !selector.id) {
    CelFailure(path, kObject, "expected at least one, got none, ['name', 'id']", errors);
  }
  if (selector.name && selector.id) {
    CelFailure(path, kObject, "'name' and 'id' are mutually exclusive", errors);
  }
  if (selector.name && selector.name->empty()) {
    errors->Invalid(ChildPath(path, "name"), Quote(""), "should be at least 1 chars long");
  }
  if (selector.id) {
    CheckPattern(ChildPath(path, "id"), *selector.id, kPlacementGroupIdPattern, errors);
  }
}

void ValidateMetadataOptions(const MetadataOptions& options, const std::string& path,
                             FieldErrors* errors) {
  if (options.http_endpoint) {
    CheckEnum(ChildPath(path, "httpEndpoint"), *options.http_endpoint, {"enabled", "disabled"},
              errors);
  }
  if (options.http_protocol_ipv6) {
    CheckEnum(ChildPath(path, "httpProtocolIPv6"), *options.http_protocol_ipv6,
              {"enabled", "disabled"}, errors);
  }
  if (options.http_put_response_hop_limit) {
    CheckRange(ChildPath(path, "httpPutResponseHopLimit"), *options.http_put_response_hop_limit, 1,
               64, errors);
  }
  if (options.http_tokens) {
    CheckEnum(ChildPath(path, "httpTokens"), *options.http_tokens, {"required", "optional"},
              errors);
  }
}

void ValidateConnectionTracking(const ConnectionTracking& tracking, const std::string& path,
                                FieldErrors* errors) {
  if (!tracking.tcp_established_timeout && !tracking.udp_stream_timeout && !tracking.udp_timeout) {
    CelFailure(path, kObject,
               "at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set",
               errors);
  }
  if (tracking.tcp_established_timeout) {
    CheckRange(ChildPath(path, "tcpEstablishedTimeout"), *tracking.tcp_established_timeout, 60,
               432000, errors);
  }
  if (tracking.udp_stream_timeout) {
    CheckRange(ChildPath(path, "udpStreamTimeout"), *tracking.udp_stream_timeout, 60, 180, errors);
  }
  if (tracking.udp_timeout) {
    CheckRange(ChildPath(path, "udpTimeout"), *tracking.udp_timeout, 30, 60, errors);
  }
}

void ValidateSpec(const EC2NodeClassSpec& spec, const std::string& path, FieldErrors* errors) {
  ValidateSubnetSelectorTerms(spec.subnet_selector_terms, ChildPath(path, "subnetSelectorTerms"),
                              errors);
  ValidateSecurityGroupSelectorTerms(spec.security_group_selector_terms,
                                     ChildPath(path, "securityGroupSelectorTerms"), errors);
  ValidateCapacityReservationSelectorTerms(spec.capacity_reservation_selector_terms,
                                           ChildPath(path, "capacityReservationSelectorTerms"),
                                           errors);
  if (spec.placement_group_selector) {
    ValidatePlacementGroupSelector(*spec.placement_group_selector,
                                   ChildPath(path, "placementGroupSelector"), errors);
  }
  if (spec.ip_prefix_count) {
    CheckMinimum(ChildPath(path, "ipPrefixCount"), *spec.ip_prefix_count, 0, errors);
  }
  ValidateAMISelectorTerms(spec.ami_selector_terms, ChildPath(path, "amiSelectorTerms"), errors);
  ValidateAMIFamily(spec, path, errors);
  ValidateIdentity(spec, path, errors);
  ValidateTags(spec.tags, ChildPath(path, "tags"), errors);
  if (spec.kubelet) ValidateKubelet(*spec.kubelet, ChildPath(path, "kubelet"), errors);
  ValidateBlockDeviceMappings(spec.block_device_mappings, ChildPath(path, "blockDeviceMappings"),
                              errors);
  if (spec.instance_store_policy) {
    CheckEnum(ChildPath(path, "instanceStorePolicy"), *spec.instance_store_policy, {"RAID0"},
              errors);
  }
  ValidateNetworkInterfaces(spec.network_interfaces, ChildPath(path, "networkInterfaces"), errors);
  if (spec.metadata_options) {
    ValidateMetadataOptions(*spec.metadata_options, ChildPath(path, "metadataOptions"), errors);
  }
  if (spec.connection_tracking) {
    ValidateConnectionTracking(*spec.connection_tracking, ChildPath(path, "connectionTracking"),
                               errors);
  }
  if (spec.cpu_options && spec.cpu_options->nested_virtualization) {
    CheckEnum(ChildPath(path, "cpuOptions.nestedVirtualization"),
              *spec.cpu_options->nested_virtualization, {"enabled", "disabled"}, errors);
  }
}

}  // namespace
}  // namespace ec2nodeclass_internal

void ValidateEC2NodeClass(const EC2NodeClass& node_class, FieldErrors* errors) {
  // The API server's rule for every custom resource's name (a DNS-1123 subdomain), as for
  // NodePools and NodeClaims; it was not checked at all.
  ValidateKarpenterObjectMeta(node_class.metadata, errors);
  ec2nodeclass_internal::ValidateSpec(node_class.spec, "spec", errors);
  ec2nodeclass_internal::ValidateStatus(node_class.status, "status", errors);
}

}  // namespace karpenter::api
