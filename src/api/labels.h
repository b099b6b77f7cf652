// Kubernetes name and label syntax rules (k8s.io/apimachinery/pkg/util/validation). Each
// returns the list of problems in Kubernetes' own wording; an empty list means valid.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace karpenter::api {

// `prefix/name` with an optional DNS-subdomain prefix (≤253) and a name of ≤63 characters
// matching ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]. Used for label and annotation keys.
std::vector<std::string> IsQualifiedName(std::string_view value);
// ≤63 characters, empty or ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
std::vector<std::string> IsValidLabelValue(std::string_view value);
// RFC 1123 subdomain: ≤253, lowercase alphanumerics, '-' and '.'.
std::vector<std::string> IsDns1123Subdomain(std::string_view value);
// RFC 1123 label: ≤63, lowercase alphanumerics and '-'.
std::vector<std::string> IsDns1123Label(std::string_view value);

// The domain part of a label key ("karpenter.sh" for "karpenter.sh/nodepool"; "" if none).
std::string_view LabelDomain(std::string_view key);

}  // namespace karpenter::api
