// Go's strconv.ParseBool, which Kubernetes components and Karpenter use for boolean flags and
// environment variables: the same spellings are accepted everywhere we read one.
#pragma once

#include <optional>
#include <string_view>

namespace karpenter::api {

// "1", "t", "T", "TRUE", "true", "True" and their false counterparts; nullopt for anything else.
std::optional<bool> ParseGoBool(std::string_view text);

}  // namespace karpenter::api
