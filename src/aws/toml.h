// The subset of TOML (v1.0) that Bottlerocket user data is written in, read so that Karpenter's
// `settings.kubernetes` can be merged over a class's own `userData` the way upstream merges
// them (pkg/providers/amifamily/bootstrap/bottlerocketsettings.go), and written back. Read:
// tables and dotted keys, basic and literal strings (also multi-line), integers, floats,
// booleans, arrays and inline tables. Refused with a line number: arrays of tables, dates and
// times, redefined keys, anything else. Written: sorted keys, every table under its own header.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"

namespace karpenter::aws {

struct TomlValue;
using TomlTable = std::map<std::string, TomlValue>;
using TomlArray = std::vector<TomlValue>;

struct TomlValue {
  std::variant<std::string, int64_t, double, bool, TomlArray, TomlTable> value;
  bool operator==(const TomlValue&) const = default;
};

// Nesting of arrays and inline tables beyond this is refused (untrusted input).
inline constexpr int kMaxTomlDepth = 32;

// kInvalidArgument naming the line and what was wrong.
absl::StatusOr<TomlTable> ParseToml(std::string_view text);
std::string WriteToml(const TomlTable& root);

}  // namespace karpenter::aws
