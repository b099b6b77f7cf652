// Upstream: staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go,
// pkg/apis/core/validation/validation.go (kubernetes/kubernetes)
// Metadata, resource-list and scalar checks shared by every core kind.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/core_validation.h"
#include "src/api/core_validation_internal.h"
#include "src/api/labels.h"
#include "src/api/selector_match.h"

namespace karpenter::api {
namespace validation_internal {

void InvalidEach(FieldErrors* errors, std::string_view path, std::string_view quoted_value,
                 const std::vector<std::string>& messages) {
  for (const std::string& message : messages) {
    errors->Invalid(std::string(path), quoted_value, message);
  }
}

void ValidateDns1123Label(std::string_view value, std::string_view path, FieldErrors* errors) {
  InvalidEach(errors, path, Quote(value), IsDns1123Label(value));
}

void ValidateDns1123Subdomain(std::string_view value, std::string_view path, FieldErrors* errors) {
  InvalidEach(errors, path, Quote(value), IsDns1123Subdomain(value));
}

void ValidateQualifiedName(std::string_view value, std::string_view path, FieldErrors* errors) {
  InvalidEach(errors, path, Quote(value), IsQualifiedName(value));
}

void ValidateNonNegative(int64_t value, std::string_view path, FieldErrors* errors) {
  if (value < 0) errors->Invalid(std::string(path), std::to_string(value), kNegativeMsg);
}

void ValidatePositive(int64_t value, std::string_view path, FieldErrors* errors) {
  if (value <= 0) errors->Invalid(std::string(path), std::to_string(value), kNotPositiveMsg);
}

std::string InclusiveRangeMessage(int64_t lo, int64_t hi) {
  return absl::StrCat("must be between ", lo, " and ", hi, ", inclusive");
}

bool IsHugePageResourceName(std::string_view name) { return name.starts_with("hugepages-"); }

bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}

bool IsExtendedResourceName(std::string_view name) {
  if (IsNativeResource(name) || name.starts_with("requests.")) return false;
  // Quota uses "requests.<name>", so the prefixed form must still be a qualified name.
  return IsQualifiedName("requests." + std::string(name)).empty();
}

bool IsOvercommitAllowed(std::string_view name) {
  return IsNativeResource(name) && !IsHugePageResourceName(name);
}

void ValidateResourceQuantity(std::string_view name, const Quantity& value, std::string_view path,
                              FieldErrors* errors) {
  if (value.Sign() < 0) {
    errors->Invalid(std::string(path), Quote(value.String()), kNegativeMsg);
  }
  if (IsExtendedResourceName(name) && value.MilliValue() % 1000 != 0) {
    errors->Invalid(std::string(path), Quote(value.String()), kNotIntegerMsg);
  }
}

void ValidateContainerResourceName(std::string_view name, std::string_view path,
                                   FieldErrors* errors) {
  ValidateQualifiedName(name, path, errors);
  if (name.find('/') == std::string_view::npos) {
    const bool standard = name == "cpu" || name == "memory" || name == "ephemeral-storage" ||
                          IsHugePageResourceName(name);
    if (!standard) {
      errors->Invalid(std::string(path), Quote(name), "must be a standard resource for containers");
    }
  } else if (!IsNativeResource(name) && !IsExtendedResourceName(name)) {
    errors->Invalid(std::string(path), Quote(name),
                    "doesn't follow extended resource name standard");
  }
}

void ValidateRequirementsWith(const ResourceList& limits, const ResourceList& requests,
                              ResourceNameCheck check_name, std::string_view path,
                              FieldErrors* errors) {
  const std::string limits_path = ChildPath(path, "limits");
  const std::string requests_path = ChildPath(path, "requests");
  bool has_cpu_or_memory = false;
  bool has_hugepages = false;
  for (const auto& [name, quantity] : limits) {
    const std::string key_path = KeyPath(limits_path, name);
    check_name(name, key_path, errors);
    ValidateResourceQuantity(name, quantity, key_path, errors);
    has_cpu_or_memory |= name == "cpu" || name == "memory";
    has_hugepages |= IsHugePageResourceName(name);
  }
  for (const auto& [name, quantity] : requests) {
    const std::string key_path = KeyPath(requests_path, name);
    check_name(name, key_path, errors);
    ValidateResourceQuantity(name, quantity, key_path, errors);
    auto limit = limits.find(name);
    if (limit != limits.end()) {
      // Kubernetes reports these at the un-keyed requests path.
      if (quantity.Cmp(limit->second) != 0 && !IsOvercommitAllowed(name)) {
        errors->Invalid(
            requests_path, Quote(quantity.String()),
            absl::StrCat("must be equal to ", name, " limit of ", limit->second.String()));
      } else if (quantity.Cmp(limit->second) > 0) {
        errors->Invalid(requests_path, Quote(quantity.String()),
                        absl::StrCat("must be less than or equal to ", name, " limit of ",
                                     limit->second.String()));
      }
    } else if (!IsOvercommitAllowed(name)) {
      errors->Required(limits_path, "Limit must be set for non overcommitable resources");
    }
    has_cpu_or_memory |= name == "cpu" || name == "memory";
    has_hugepages |= IsHugePageResourceName(name);
  }
  if (has_hugepages && !has_cpu_or_memory) {
    errors->Forbidden(std::string(path), "HugePages require cpu or memory");
  }
}

std::string QuoteIntOrString(const IntOrString& value) {
  return value.is_int ? std::to_string(value.int_value) : Quote(value.str_value);
}

void ValidateIntOrPercent(const IntOrString& value, std::string_view path, FieldErrors* errors) {
  if (value.is_int) {
    ValidateNonNegative(value.int_value, path, errors);
    return;
  }
  const std::string& text = value.str_value;
  bool is_percent = text.size() >= 2 && text.back() == '%';
  for (size_t i = 0; is_percent && i + 1 < text.size(); ++i) {
    is_percent = text[i] >= '0' && text[i] <= '9';
  }
  if (!is_percent) {
    errors->Invalid(std::string(path), Quote(text),
                    "a valid percent string must be a numeric string followed by an ending '%' "
                    "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')");
    return;
  }
  // Compare the digits as a decimal string so huge values cannot overflow.
  std::string_view digits(text.data(), text.size() - 1);
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  if (digits.size() > 3 || (digits.size() == 3 && digits > "100")) {
    errors->Invalid(std::string(path), Quote(text), "must not be greater than 100%");
  }
}

std::string RenderLabels(const std::map<std::string, std::string>& labels) {
  std::vector<std::string> pairs;
  pairs.reserve(labels.size());
  for (const auto& [key, value] : labels) pairs.push_back(Quote(key) + ":" + Quote(value));
  return "{" + absl::StrJoin(pairs, ",") + "}";
}

}  // namespace validation_internal

using validation_internal::InvalidEach;

namespace {

constexpr size_t kTotalAnnotationSizeLimit = size_t{256} * 1024;

// Finalizers Kubernetes itself defines may be unqualified; everything else needs a domain.
bool IsStandardFinalizer(std::string_view name) {
  return name == "kubernetes" || name == "orphan" || name == "foregroundDeletion";
}

void ValidateFinalizers(const std::vector<std::string>& finalizers, std::string_view path,
                        FieldErrors* errors) {
  for (const std::string& finalizer : finalizers) {
    std::vector<std::string> messages = IsQualifiedName(finalizer);
    if (messages.empty() && !IsStandardFinalizer(finalizer) &&
        finalizer.find('/') == std::string::npos) {
      messages.emplace_back("name is neither a standard finalizer name nor is it fully qualified");
    }
    InvalidEach(errors, path, Quote(finalizer), messages);
  }
}

// NameIsDNSSubdomain / NameIsDNSLabel; a generateName prefix may end in '-'.
std::vector<std::string> CheckName(std::string_view name, NameRule rule, bool prefix) {
  std::string masked(name);
  if (prefix && masked.size() > 1 && masked.back() == '-') masked.back() = 'a';
  return rule == NameRule::kDns1123Label ? IsDns1123Label(masked) : IsDns1123Subdomain(masked);
}

}  // namespace

void ValidateAnnotations(const std::map<std::string, std::string>& annotations,
                         std::string_view path, FieldErrors* errors) {
  size_t total = 0;
  for (const auto& [key, value] : annotations) {
    InvalidEach(errors, path, Quote(key), IsQualifiedName(absl::AsciiStrToLower(key)));
    total += key.size() + value.size();
  }
  if (total > kTotalAnnotationSizeLimit) {
    errors->TooLong(std::string(path), kTotalAnnotationSizeLimit);
  }
}

void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, NameRule rule,
                        std::string_view path, FieldErrors* errors) {
  if (!meta.generate_name.empty()) {
    InvalidEach(errors, ChildPath(path, "generateName"), Quote(meta.generate_name),
                CheckName(meta.generate_name, rule, /*prefix=*/true));
  }
  if (meta.name.empty()) {
    // The API server generates the name from generateName before validating.
    if (meta.generate_name.empty()) {
      errors->Required(ChildPath(path, "name"), "name or generateName is required");
    }
  } else {
    InvalidEach(errors, ChildPath(path, "name"), Quote(meta.name),
                CheckName(meta.name, rule, /*prefix=*/false));
  }
  if (namespaced) {
    if (!meta.namespace_.empty()) {
      InvalidEach(errors, ChildPath(path, "namespace"), Quote(meta.namespace_),
                  IsDns1123Label(meta.namespace_));
    }
  } else if (!meta.namespace_.empty()) {
    errors->Forbidden(ChildPath(path, "namespace"), "not allowed on this type");
  }
  validation_internal::ValidateNonNegative(meta.generation, ChildPath(path, "generation"), errors);
  ValidateLabels(meta.labels, ChildPath(path, "labels"), errors);
  ValidateAnnotations(meta.annotations, ChildPath(path, "annotations"), errors);
  ValidateFinalizers(meta.finalizers, ChildPath(path, "finalizers"), errors);
}

void ValidateContainerResources(const ResourceRequirements& resources, std::string_view path,
                                FieldErrors* errors) {
  validation_internal::ValidateRequirementsWith(resources.limits, resources.requests,
                                                &validation_internal::ValidateContainerResourceName,
                                                path, errors);
}

}  // namespace karpenter::api
