// Decimal integer parsing with Go's strconv.ParseInt(s, 10, 64) rules, which Kubernetes uses
// for the Gt/Lt selector operators: an optional '+' or '-', one or more ASCII digits, nothing
// else, and no overflow.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace karpenter::api {

std::optional<int64_t> ParseDecimalInt64(std::string_view s);

}  // namespace karpenter::api
