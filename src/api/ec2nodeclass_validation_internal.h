// Building blocks shared by the EC2NodeClass validation files (one file per topic). Each
// helper renders one kind of schema rule the way the API server words it, so the topic files
// read as a list of rules. Not part of the public API.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/ec2nodeclass.h"
#include "src/api/field_errors.h"

namespace karpenter::api::ec2nodeclass_internal {

// An OpenAPI `pattern` of the CRD: its text (for messages) and a hand-written matcher with the
// same language. std::regex is avoided because it recurses once per input character, which a
// long hostile value turns into a stack overflow. As in the API server, an unanchored pattern
// matches anywhere in the value, so `subnet-[0-9a-z]+` accepts "xsubnet-1".
// ec2nodeclass_validation_test.cc checks every matcher against std::regex on short inputs.
struct SchemaPattern {
  std::string_view text;
  bool (*matches)(std::string_view value);
  bool Matches(std::string_view value) const { return matches(value); }
};

bool MatchesSubnetId(std::string_view value);
bool MatchesSecurityGroupId(std::string_view value);
bool MatchesAmiId(std::string_view value);
bool MatchesCapacityReservationId(std::string_view value);
bool MatchesOwnerId(std::string_view value);
bool MatchesPlacementGroupId(std::string_view value);
bool MatchesAliasFormat(std::string_view value);
bool MatchesVolumeSize(std::string_view value);
bool MatchesQuantity(std::string_view value);
bool MatchesEvictionThreshold(std::string_view value);
bool MatchesConditionType(std::string_view value);
bool MatchesConditionReason(std::string_view value);

inline constexpr SchemaPattern kSubnetIdPattern{"subnet-[0-9a-z]+", &MatchesSubnetId};
inline constexpr SchemaPattern kSecurityGroupIdPattern{"sg-[0-9a-z]+", &MatchesSecurityGroupId};
inline constexpr SchemaPattern kAmiIdPattern{"ami-[0-9a-z]+", &MatchesAmiId};
inline constexpr SchemaPattern kCapacityReservationIdPattern{"^cr-[0-9a-z]+$",
                                                             &MatchesCapacityReservationId};
inline constexpr SchemaPattern kOwnerIdPattern{"^[0-9]{12}$", &MatchesOwnerId};
inline constexpr SchemaPattern kPlacementGroupIdPattern{"^pg-[0-9a-z]+$", &MatchesPlacementGroupId};
// CEL `self.matches(...)` on an AMI alias.
inline constexpr SchemaPattern kAliasFormatPattern{"^[a-zA-Z0-9]+@.+$", &MatchesAliasFormat};
// Whole Gi/G/Ti/T amounts up to EBS's 64 TB limit, including the CRD's empty alternatives
// (a bare "Ti" or "T" matches) and its gaps (18Ti and 19Ti do not).
inline constexpr SchemaPattern kVolumeSizePattern{
    "^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]"
    "{4}|[6][0-3][0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$",
    &MatchesVolumeSize};
// kubelet systemReserved / kubeReserved values.
inline constexpr SchemaPattern kQuantityPattern{
    R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)",
    &MatchesQuantity};
// kubelet evictionHard / evictionSoft values: a percentage, a quantity, or "".
inline constexpr SchemaPattern kEvictionThresholdPattern{
    R"(^((\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?)%||(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?)$)",
    &MatchesEvictionThreshold};
inline constexpr SchemaPattern kConditionTypePattern{
    R"(^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$)",
    &MatchesConditionType};
inline constexpr SchemaPattern kConditionReasonPattern{
    R"(^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$)", &MatchesConditionReason};

// `pattern`: Invalid value: "v": should match '<pattern>'.
void CheckPattern(const std::string& path, std::string_view value, const SchemaPattern& pattern,
                  FieldErrors* errors);
// `enum`: Unsupported value: "v": supported values: ...
void CheckEnum(const std::string& path, std::string_view value,
               const std::vector<std::string_view>& allowed, FieldErrors* errors);
// `minimum` / `maximum` (inclusive).
void CheckMinimum(const std::string& path, int64_t value, int64_t minimum, FieldErrors* errors);
void CheckMaximum(const std::string& path, int64_t value, int64_t maximum, FieldErrors* errors);
void CheckRange(const std::string& path, int64_t value, int64_t minimum, int64_t maximum,
                FieldErrors* errors);
// `maxItems` / `maxProperties`.
void CheckMaxItems(const std::string& path, size_t size, size_t max, FieldErrors* errors);

// A failed CEL rule, rendered as the API server does: Invalid value: "<type>": <message>,
// where <type> is the JSON type of the node the rule is declared on.
inline constexpr std::string_view kObject = "object";
inline constexpr std::string_view kArray = "array";
inline constexpr std::string_view kString = "string";
void CelFailure(const std::string& path, std::string_view json_type, std::string_view message,
                FieldErrors* errors);

// Selector-term `tags`: maxProperties 20 and "empty tag keys or values aren't supported".
void ValidateSelectorTags(const std::string& path, const std::map<std::string, std::string>& tags,
                          FieldErrors* errors);

// Topic validators; `path` is the path of the node passed in.
void ValidateSubnetSelectorTerms(const std::vector<SubnetSelectorTerm>& terms,
                                 const std::string& path, FieldErrors* errors);
void ValidateSecurityGroupSelectorTerms(const std::vector<SecurityGroupSelectorTerm>& terms,
                                        const std::string& path, FieldErrors* errors);
void ValidateCapacityReservationSelectorTerms(
    const std::vector<CapacityReservationSelectorTerm>& terms, const std::string& path,
    FieldErrors* errors);
void ValidateAMISelectorTerms(const std::vector<AMISelectorTerm>& terms, const std::string& path,
                              FieldErrors* errors);
void ValidateKubelet(const KubeletConfiguration& kubelet, const std::string& path,
                     FieldErrors* errors);
void ValidateBlockDeviceMappings(const std::vector<BlockDeviceMapping>& mappings,
                                 const std::string& path, FieldErrors* errors);
void ValidateNetworkInterfaces(const std::vector<NetworkInterface>& interfaces,
                               const std::string& path, FieldErrors* errors);
void ValidateStatus(const EC2NodeClassStatus& status, const std::string& path, FieldErrors* errors);

}  // namespace karpenter::api::ec2nodeclass_internal
