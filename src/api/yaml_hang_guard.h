// A guard in front of yaml-cpp 0.7: a `,` at a document's top level (`,` alone, or after a
// root flow collection or quoted scalar, as in `[x],` or `{"a":1},`) sends its parser into an
// endless loop, and a control character (a NUL before a comma) can make it exhaust memory. Such
// input is invalid YAML anyway, so it is refused before yaml-cpp sees it.
#pragma once

#include <string_view>

#include "karpenter/common/status.h"

namespace karpenter::api {

// InvalidArgument "line N, column M: control characters are not allowed" for the first C0
// control character other than tab, LF and CR (or DEL), else "line N, column M: unexpected ','
// at the top level of a document" for the first such comma; OK otherwise (other syntax errors
// are left to the parser).
absl::Status CheckNoTopLevelFlowEntry(std::string_view yaml);

}  // namespace karpenter::api
