// Go's quoting of values inside time-package error messages, so errors read exactly like the
// ones the Kubernetes API server and Karpenter report ("time: invalid duration \"1x\"").
#pragma once

#include <string>
#include <string_view>

namespace karpenter::api {

// Double-quotes `s` the way Go's time package does: '"' and '\' are backslash-escaped and every
// byte outside printable ASCII is written as \xNN.
std::string GoQuote(std::string_view s);

}  // namespace karpenter::api
