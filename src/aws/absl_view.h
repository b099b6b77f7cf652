// Debian's Abseil is built with its own `absl::string_view`, distinct from `std::string_view`; the
// AWS code speaks `std::string_view` and converts at calls into absl string functions.
#pragma once

#include <string_view>

#include "absl/strings/string_view.h"

namespace karpenter::aws {

inline absl::string_view AbslView(std::string_view text) { return {text.data(), text.size()}; }
inline std::string_view StdView(absl::string_view text) { return {text.data(), text.size()}; }

}  // namespace karpenter::aws
