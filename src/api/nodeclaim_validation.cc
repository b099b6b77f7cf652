// Upstream: pkg/apis/v1/nodeclaim_validation.go, pkg/apis/crds/karpenter.sh_nodeclaims.yaml
#include "src/api/nodeclaim_validation.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_join.h"
#include "src/api/duration_patterns.h"
#include "src/api/labels.h"
#include "src/api/template_validation.h"

namespace karpenter::api {
namespace {

constexpr std::string_view kQualifiedNamePattern =
    "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9][-A-Za-"
    "z0-9_.]*)?[A-Za-z0-9]$";
constexpr std::string_view kConditionTypePattern =
    "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-"
    "9_.]*)?[A-Za-z0-9])$";
constexpr std::string_view kConditionReasonPattern = "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$";
constexpr std::string_view kNodeClaimConditionReasonPattern =
    "^([A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?|)$";

constexpr std::array<std::string_view, 3> kTaintEffects = {"NoSchedule", "PreferNoSchedule",
                                                           "NoExecute"};
constexpr std::array<std::string_view, 3> kConditionStatuses = {"True", "False", "Unknown"};

constexpr size_t kMaxConditionTypeLength = 316;
constexpr size_t kMaxConditionReasonLength = 1024;
constexpr size_t kMaxConditionMessageLength = 32768;
constexpr size_t kMaxAnnotationsBytes = 256 * 1024;

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])? joined by '.', no length limit.
bool MatchesDnsSubdomainChars(std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty() || !IsLowerAlnum(label.front()) || !IsLowerAlnum(label.back())) return false;
    for (char c : label) {
      if (!IsLowerAlnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool MatchesNameChars(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

bool IsOneOf(std::string_view value, std::span<const std::string_view> allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

std::vector<std::string_view> AsVector(std::span<const std::string_view> values) {
  return {values.begin(), values.end()};
}

// One taint's syntax. `runtime` swaps the CRD pattern for IsQualifiedName (which adds the
// length limits) and is what upstream's runtime check uses for both key and value.
void ValidateTaint(const Taint& taint, const std::string& path, const ValidationLayers& layers,
                   FieldErrors* errors) {
  const std::string key_path = ChildPath(path, "key");
  if (taint.key.empty()) {
    errors->Required(key_path);
  } else {
    CheckQualifiedName(taint.key, key_path, layers, errors);
  }
  if (!taint.value.empty())
    CheckQualifiedName(taint.value, ChildPath(path, "value"), layers, errors);
  const std::string effect_path = ChildPath(path, "effect");
  if (taint.effect.empty()) {
    // Required by the CRD; upstream's runtime check lets an empty effect through.
    if (layers.admission) errors->Required(effect_path);
  } else if (!IsOneOf(taint.effect, kTaintEffects)) {
    errors->NotSupported(effect_path, taint.effect, AsVector(kTaintEffects));
  }
}

void ValidateConditionReason(const Condition& condition, const std::string& path,
                             bool reason_required, FieldErrors* errors) {
  const std::string reason_path = ChildPath(path, "reason");
  if (condition.reason.empty()) {
    if (reason_required) errors->Required(reason_path);
    return;
  }
  if (condition.reason.size() > kMaxConditionReasonLength) {
    errors->TooLong(reason_path, kMaxConditionReasonLength);
  }
  if (!MatchesConditionReasonPattern(condition.reason)) {
    errors->Invalid(reason_path, Quote(condition.reason),
                    PatternDetail(reason_required ? kConditionReasonPattern
                                                  : kNodeClaimConditionReasonPattern));
  }
}

void ValidateCondition(const Condition& condition, const std::string& path, bool reason_required,
                       FieldErrors* errors) {
  const std::string type_path = ChildPath(path, "type");
  if (condition.type.empty()) {
    errors->Required(type_path);
  } else {
    if (condition.type.size() > kMaxConditionTypeLength) {
      errors->TooLong(type_path, kMaxConditionTypeLength);
    }
    if (!MatchesQualifiedNamePattern(condition.type)) {
      errors->Invalid(type_path, Quote(condition.type), PatternDetail(kConditionTypePattern));
    }
  }
  const std::string status_path = ChildPath(path, "status");
  if (condition.status.empty()) {
    errors->Required(status_path);
  } else if (!IsOneOf(condition.status, kConditionStatuses)) {
    errors->NotSupported(status_path, condition.status, AsVector(kConditionStatuses));
  }
  if (!condition.last_transition_time) errors->Required(ChildPath(path, "lastTransitionTime"));
  ValidateConditionReason(condition, path, reason_required, errors);
  if (condition.message.size() > kMaxConditionMessageLength) {
    errors->TooLong(ChildPath(path, "message"), kMaxConditionMessageLength);
  }
  if (condition.observed_generation < 0) {
    errors->Invalid(ChildPath(path, "observedGeneration"),
                    std::to_string(condition.observed_generation),
                    "should be greater than or equal to 0");
  }
}

std::string JoinProblems(const std::vector<std::string>& problems) {
  return absl::StrJoin(problems, "; ");
}

// NameIsDNSSubdomain in prefix mode: a trailing '-' is allowed (a suffix is appended later).
std::string MaskTrailingDash(std::string_view name) {
  std::string masked(name);
  if (masked.size() > 1 && masked.back() == '-') masked.back() = 'a';
  return masked;
}

}  // namespace

std::string PatternDetail(std::string_view pattern) {
  return "should match '" + std::string(pattern) + "'";
}

bool MatchesQualifiedNamePattern(std::string_view value) {
  size_t slash = value.find('/');
  if (slash == std::string_view::npos) return MatchesNameChars(value);
  return MatchesDnsSubdomainChars(value.substr(0, slash)) &&
         MatchesNameChars(value.substr(slash + 1));
}

bool MatchesLabelValuePattern(std::string_view value) {
  return value.empty() || MatchesNameChars(value);
}

bool MatchesConditionReasonPattern(std::string_view value) {
  if (value.empty() || !std::isalpha(static_cast<unsigned char>(value.front()))) return false;
  const char last = value.back();
  if (value.size() > 1 && !(IsAlnum(last) || last == '_')) return false;
  return std::all_of(value.begin(), value.end(),
                     [](char c) { return IsAlnum(c) || c == '_' || c == ',' || c == ':'; });
}

void CheckQualifiedName(std::string_view value, const std::string& path,
                        const ValidationLayers& layers, FieldErrors* errors) {
  if (layers.runtime) {
    std::vector<std::string> problems = IsQualifiedName(value);
    if (!problems.empty()) errors->Invalid(path, Quote(value), JoinProblems(problems));
    return;
  }
  if (!MatchesQualifiedNamePattern(value)) {
    errors->Invalid(path, Quote(value), PatternDetail(kQualifiedNamePattern));
  }
}

void ValidateTaintLists(const std::vector<Taint>& taints, std::string_view taints_path,
                        const std::vector<Taint>& startup_taints, std::string_view startup_path,
                        const ValidationLayers& layers, FieldErrors* errors) {
  // Upstream's runtime check refuses a key+effect pair seen before in either list.
  std::set<std::pair<std::string_view, std::string_view>> seen;
  auto check_list = [&](const std::vector<Taint>& list, std::string_view list_path) {
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = IndexPath(list_path, i);
      ValidateTaint(list[i], path, layers, errors);
      if (!layers.runtime || seen.emplace(list[i].key, list[i].effect).second) continue;
      errors->Duplicate(path, "taint key/effect pair " + Quote(list[i].key + "=" + list[i].effect));
    }
  };
  check_list(taints, taints_path);
  check_list(startup_taints, startup_path);
}

void ValidateTaints(const std::vector<Taint>& taints, std::string_view taints_path,
                    const std::vector<Taint>& startup_taints, std::string_view startup_path,
                    bool runtime, FieldErrors* errors) {
  ValidateTaintLists(taints, taints_path, startup_taints, startup_path,
                     ValidationLayers{.admission = true, .runtime = runtime}, errors);
}

void ValidateNodeClassReference(const std::optional<NodeClassReference>& ref, std::string_view path,
                                FieldErrors* errors) {
  if (!ref) {
    errors->Required(std::string(path));
    return;
  }
  const std::string group_path = ChildPath(path, "group");
  if (ref->group.empty()) {
    errors->Required(group_path, "group may not be empty");
  } else if (ref->group.find('/') != std::string::npos) {
    errors->Invalid(group_path, Quote(ref->group), PatternDetail("^[^/]*$"));
  }
  if (ref->kind.empty()) errors->Required(ChildPath(path, "kind"), "kind may not be empty");
  if (ref->name.empty()) errors->Required(ChildPath(path, "name"), "name may not be empty");
}

void ValidateExpireAfter(const std::optional<NillableDuration>& expire_after, std::string_view path,
                         FieldErrors* errors) {
  if (!expire_after) return;  // defaulting fills it in
  const std::string text = PatternText(*expire_after);
  if (MatchesKarpenterDurationPattern(text)) return;
  errors->Invalid(std::string(path), Quote(text), PatternDetail(kKarpenterDurationPattern));
}

void ValidateTerminationGracePeriod(const std::optional<WrittenDuration>& grace_period,
                                    std::string_view path, FieldErrors* errors) {
  if (!grace_period) return;
  const std::string text = PatternText(*grace_period);
  if (MatchesTgpPattern(text)) return;
  errors->Invalid(std::string(path), Quote(text), PatternDetail(kTerminationGracePeriodPattern));
}

void ValidateConditions(const std::vector<Condition>& conditions, std::string_view path,
                        bool reason_required, FieldErrors* errors) {
  std::set<std::string_view> types;
  for (size_t i = 0; i < conditions.size(); ++i) {
    const std::string item_path = IndexPath(path, i);
    ValidateCondition(conditions[i], item_path, reason_required, errors);
    // x-kubernetes-list-type: map keyed by type.
    if (!conditions[i].type.empty() && !types.insert(conditions[i].type).second) {
      errors->Duplicate(ChildPath(item_path, "type"), Quote(conditions[i].type));
    }
  }
}

void ValidateKarpenterObjectMeta(const ObjectMeta& metadata, FieldErrors* errors) {
  if (metadata.name.empty() && metadata.generate_name.empty()) {
    errors->Required("metadata.name", "name or generateName is required");
  }
  if (!metadata.name.empty()) {
    std::vector<std::string> problems = IsDns1123Subdomain(metadata.name);
    if (!problems.empty()) {
      errors->Invalid("metadata.name", Quote(metadata.name), JoinProblems(problems));
    }
  }
  if (!metadata.generate_name.empty()) {
    std::vector<std::string> problems =
        IsDns1123Subdomain(MaskTrailingDash(metadata.generate_name));
    if (!problems.empty()) {
      errors->Invalid("metadata.generateName", Quote(metadata.generate_name),
                      JoinProblems(problems));
    }
  }
  for (const auto& [key, value] : metadata.labels) {
    const std::string path = KeyPath("metadata.labels", key);
    std::vector<std::string> key_problems = IsQualifiedName(key);
    if (!key_problems.empty()) errors->Invalid(path, Quote(key), JoinProblems(key_problems));
    std::vector<std::string> value_problems = IsValidLabelValue(value);
    if (!value_problems.empty()) errors->Invalid(path, Quote(value), JoinProblems(value_problems));
  }
  size_t annotation_bytes = 0;
  for (const auto& [key, value] : metadata.annotations) {
    annotation_bytes += key.size() + value.size();
    std::vector<std::string> problems = IsQualifiedName(key);
    if (!problems.empty()) {
      errors->Invalid(KeyPath("metadata.annotations", key), Quote(key), JoinProblems(problems));
    }
  }
  if (annotation_bytes > kMaxAnnotationsBytes) {
    errors->TooLong("metadata.annotations", kMaxAnnotationsBytes);
  }
}

std::string PatternText(const NillableDuration& value) { return value.ToString(); }

std::string PatternText(const WrittenDuration& value) { return value.PatternText(); }

void ValidateTypeMeta(std::string_view api_version, std::string_view kind,
                      std::string_view expected_kind, FieldErrors* errors) {
  if (api_version != kKarpenterApiVersion) {
    errors->NotSupported("apiVersion", api_version, {kKarpenterApiVersion});
  }
  if (kind != expected_kind) errors->NotSupported("kind", kind, {expected_kind});
}

void ValidateNodeClaim(const NodeClaim& node_claim, FieldErrors* errors) {
  ValidateTypeMeta(node_claim.api_version, node_claim.kind, "NodeClaim", errors);
  ValidateKarpenterObjectMeta(node_claim.metadata, errors);
  const NodeClaimSpec& spec = node_claim.spec;
  const ValidationLayers admission{.admission = true, .runtime = false};
  ValidateTaintLists(spec.taints, "spec.taints", spec.startup_taints, "spec.startupTaints",
                     admission, errors);
  ValidateRequirements(spec.requirements, "spec.requirements",
                       RequirementRules{.scope = LabelKeyScope::kNodeClaim, .runtime = false},
                       errors);
  ValidateNodeClassReference(spec.node_class_ref, "spec.nodeClassRef", errors);
  ValidateTerminationGracePeriod(spec.termination_grace_period, "spec.terminationGracePeriod",
                                 errors);
  ValidateExpireAfter(spec.expire_after, "spec.expireAfter", errors);
  ValidateConditions(node_claim.status.conditions, "status.conditions",
                     /*reason_required=*/false, errors);
}

}  // namespace karpenter::api
