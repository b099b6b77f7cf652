// Small shared pieces of the core-kind validators (core_validation_*.cc): the recurring
// Kubernetes error texts and the checks every kind reuses. Not part of the public API.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/field_errors.h"
#include "src/api/meta.h"
#include "src/api/quantity.h"
#include "src/api/resource_list.h"

namespace karpenter::api::validation_internal {

// apimachinery's shared messages.
inline constexpr char kNegativeMsg[] = "must be greater than or equal to 0";
inline constexpr char kNotPositiveMsg[] = "must be greater than zero";
inline constexpr char kNotIntegerMsg[] = "must be an integer";
inline constexpr char kSelectorMismatchMsg[] = "`selector` does not match template `labels`";

// One Invalid error per message (the shape of `for _, msg := range IsX(v)`).
void InvalidEach(FieldErrors* errors, std::string_view path, std::string_view quoted_value,
                 const std::vector<std::string>& messages);
// Name checks reported as Invalid at `path` with the value quoted.
void ValidateDns1123Label(std::string_view value, std::string_view path, FieldErrors* errors);
void ValidateDns1123Subdomain(std::string_view value, std::string_view path, FieldErrors* errors);
// A label key / qualified name (ValidateLabelName, ValidateQualifiedName).
void ValidateQualifiedName(std::string_view value, std::string_view path, FieldErrors* errors);

void ValidateNonNegative(int64_t value, std::string_view path, FieldErrors* errors);
void ValidatePositive(int64_t value, std::string_view path, FieldErrors* errors);

// "must be between <lo> and <hi>, inclusive".
std::string InclusiveRangeMessage(int64_t lo, int64_t hi);

// Resource-name classes of k8s.io/kubernetes/pkg/apis/core/helper.
bool IsHugePageResourceName(std::string_view name);
bool IsNativeResource(std::string_view name);
bool IsExtendedResourceName(std::string_view name);
bool IsOvercommitAllowed(std::string_view name);

// ValidateResourceQuantityValue: non-negative, and whole for integer (extended) resources.
void ValidateResourceQuantity(std::string_view name, const Quantity& value, std::string_view path,
                              FieldErrors* errors);
// ValidateResourceRequirements' core with a pluggable resource-name check.
using ResourceNameCheck = void (*)(std::string_view name, std::string_view path,
                                   FieldErrors* errors);
void ValidateRequirementsWith(const ResourceList& limits, const ResourceList& requests,
                              ResourceNameCheck check_name, std::string_view path,
                              FieldErrors* errors);
void ValidateContainerResourceName(std::string_view name, std::string_view path,
                                   FieldErrors* errors);

// ValidatePositiveIntOrPercent plus IsNotMoreThan100Percent.
void ValidateIntOrPercent(const IntOrString& value, std::string_view path, FieldErrors* errors);
std::string QuoteIntOrString(const IntOrString& value);

// Renders a label map the way the error shows the offending value: {"app":"web"}.
std::string RenderLabels(const std::map<std::string, std::string>& labels);

}  // namespace karpenter::api::validation_internal
