// Rules on the four selector-term lists (subnets, security groups, capacity reservations,
// AMIs).
//
// The subnet, security-group and capacity-reservation "mutually exclusive" rules are written
// in the CRD as `!self.all(x, <term mixes id with other fields>)`: they reject a list only when
// EVERY term mixes fields, so [{id, tags}, {tags}] is accepted. That quirk is reproduced here on
// purpose, because stricter checks would reject manifests the API server admits. The AMI rules
// use `exists` and so reject any single offending term.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/ec2nodeclass_validation_internal.h"

namespace karpenter::api::ec2nodeclass_internal {
namespace {

// CEL `s.split('@')[n]`; nullopt where CEL would fail with an index error.
std::optional<std::string_view> SplitAt(std::string_view s, size_t n) {
  size_t start = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t at = s.find('@', start);
    if (at == std::string_view::npos) return std::nullopt;
    start = at + 1;
  }
  size_t end = s.find('@', start);
  return s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

void ValidateAlias(const std::string& path, std::string_view alias, FieldErrors* errors) {
  if (alias.size() > 30) errors->TooLong(path, 30);
  if (!kAliasFormatPattern.Matches(alias)) {
    CelFailure(path, kString,
               "'alias' is improperly formatted, must match the format 'family@version'", errors);
  }
  static constexpr std::array<std::string_view, 6> kFamilies = {
      "al2", "al2023", "bottlerocket", "windows2019", "windows2022", "windows2025"};
  std::string_view family = *SplitAt(alias, 0);
  if (std::find(kFamilies.begin(), kFamilies.end(), family) == kFamilies.end()) {
    CelFailure(path, kString,
               "family is not supported, must be one of the following: 'al2', 'al2023', "
               "'bottlerocket', 'windows2019', 'windows2022', 'windows2025'",
               errors);
  }
  if (family == "windows2019" || family == "windows2022" || family == "windows2025") {
    std::optional<std::string_view> version = SplitAt(alias, 1);
    if (!version || *version != "latest") {
      CelFailure(path, kString, "windows families may only specify version 'latest'", errors);
    }
  }
}

}  // namespace

void ValidateSubnetSelectorTerms(const std::vector<SubnetSelectorTerm>& terms,
                                 const std::string& path, FieldErrors* errors) {
  if (terms.empty()) {
    errors->Required(path, "subnetSelectorTerms cannot be empty");
    return;
  }
  CheckMaxItems(path, terms.size(), 30, errors);
  bool every_term_mixes_id = true;
  for (size_t i = 0; i < terms.size(); ++i) {
    const SubnetSelectorTerm& term = terms[i];
    const std::string term_path = IndexPath(path, i);
    if (term.tags.empty() && term.id.empty()) {
      CelFailure(term_path, kObject, "expected at least one, got none, ['tags', 'id']", errors);
    }
    if (term.id.empty() || term.tags.empty()) every_term_mixes_id = false;
    if (!term.id.empty())
      CheckPattern(ChildPath(term_path, "id"), term.id, kSubnetIdPattern, errors);
    ValidateSelectorTags(ChildPath(term_path, "tags"), term.tags, errors);
  }
  if (every_term_mixes_id) {
    CelFailure(path, kArray,
               "'id' is mutually exclusive, cannot be set with a combination of other fields in a "
               "subnet selector term",
               errors);
  }
}

void ValidateSecurityGroupSelectorTerms(const std::vector<SecurityGroupSelectorTerm>& terms,
                                        const std::string& path, FieldErrors* errors) {
  if (terms.empty()) {
    errors->Required(path, "securityGroupSelectorTerms cannot be empty");
    return;
  }
  CheckMaxItems(path, terms.size(), 30, errors);
  bool every_term_mixes_id = true;
  bool every_term_mixes_name = true;
  for (size_t i = 0; i < terms.size(); ++i) {
    const SecurityGroupSelectorTerm& term = terms[i];
    const std::string term_path = IndexPath(path, i);
    const bool has_tags = !term.tags.empty();
    const bool has_id = !term.id.empty();
    const bool has_name = !term.name.empty();
    if (!has_tags && !has_id && !has_name) {
      CelFailure(term_path, kObject, "expected at least one, got none, ['tags', 'id', 'name']",
                 errors);
    }
    if (!(has_id && (has_tags || has_name))) every_term_mixes_id = false;
    if (!(has_name && (has_tags || has_id))) every_term_mixes_name = false;
    if (has_id) CheckPattern(ChildPath(term_path, "id"), term.id, kSecurityGroupIdPattern, errors);
    ValidateSelectorTags(ChildPath(term_path, "tags"), term.tags, errors);
  }
  if (every_term_mixes_id) {
    CelFailure(path, kArray,
               "'id' is mutually exclusive, cannot be set with a combination of other fields in a "
               "security group selector term",
               errors);
  }
  if (every_term_mixes_name) {
    CelFailure(path, kArray,
               "'name' is mutually exclusive, cannot be set with a combination of other fields in "
               "a security group selector term",
               errors);
  }
}

void ValidateCapacityReservationSelectorTerms(
    const std::vector<CapacityReservationSelectorTerm>& terms, const std::string& path,
    FieldErrors* errors) {
  // Optional list: absent (or empty, which cannot be told apart here) means "none".
  if (terms.empty()) return;
  CheckMaxItems(path, terms.size(), 30, errors);
  bool every_term_mixes_id = true;
  for (size_t i = 0; i < terms.size(); ++i) {
    const CapacityReservationSelectorTerm& term = terms[i];
    const std::string term_path = IndexPath(path, i);
    const bool has_tags = !term.tags.empty();
    const bool has_id = !term.id.empty();
    const bool has_owner = !term.owner_id.empty();
    const bool has_criteria = !term.instance_match_criteria.empty();
    // ownerID alone does not select anything, so it does not count here.
    if (!has_tags && !has_id && !has_criteria) {
      CelFailure(term_path, kObject,
                 "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']",
                 errors);
    }
    if (!(has_id && (has_tags || has_owner || has_criteria))) every_term_mixes_id = false;
    if (has_id)
      CheckPattern(ChildPath(term_path, "id"), term.id, kCapacityReservationIdPattern, errors);
    if (has_owner)
      CheckPattern(ChildPath(term_path, "ownerID"), term.owner_id, kOwnerIdPattern, errors);
    if (has_criteria) {
      CheckEnum(ChildPath(term_path, "instanceMatchCriteria"), term.instance_match_criteria,
                {"open", "targeted"}, errors);
    }
    ValidateSelectorTags(ChildPath(term_path, "tags"), term.tags, errors);
  }
  if (every_term_mixes_id) {
    CelFailure(path, kArray,
               "'id' is mutually exclusive, cannot be set along with other fields in a capacity "
               "reservation selector term",
               errors);
  }
}

void ValidateAMISelectorTerms(const std::vector<AMISelectorTerm>& terms, const std::string& path,
                              FieldErrors* errors) {
  if (terms.empty()) {
    errors->Required(path, "should have at least 1 items");
    return;
  }
  CheckMaxItems(path, terms.size(), 30, errors);
  bool any_alias = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    const AMISelectorTerm& term = terms[i];
    const std::string term_path = IndexPath(path, i);
    const bool has_alias = !term.alias.empty();
    const bool has_tags = !term.tags.empty();
    const bool has_id = !term.id.empty();
    const bool has_name = !term.name.empty();
    const bool has_owner = !term.owner.empty();
    any_alias = any_alias || has_alias;
    if (!has_tags && !has_id && !has_name && !has_alias && term.ssm_parameter.empty()) {
      CelFailure(term_path, kObject,
                 "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']",
                 errors);
    }
    if (has_id && (has_alias || has_tags || has_name || has_owner)) {
      CelFailure(term_path, kObject,
                 "'id' is mutually exclusive, cannot be set with a combination of other fields in "
                 "amiSelectorTerms",
                 errors);
    }
    if (has_alias && (has_id || has_tags || has_name || has_owner)) {
      CelFailure(term_path, kObject,
                 "'alias' is mutually exclusive, cannot be set with a combination of other fields "
                 "in amiSelectorTerms",
                 errors);
    }
    if (has_alias) ValidateAlias(ChildPath(term_path, "alias"), term.alias, errors);
    if (has_id) CheckPattern(ChildPath(term_path, "id"), term.id, kAmiIdPattern, errors);
    ValidateSelectorTags(ChildPath(term_path, "tags"), term.tags, errors);
  }
  if (any_alias && terms.size() != 1) {
    CelFailure(path, kArray,
               "'alias' is mutually exclusive, cannot be set with a combination of other "
               "amiSelectorTerms",
               errors);
  }
}

}  // namespace karpenter::api::ec2nodeclass_internal
