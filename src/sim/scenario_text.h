// How text taken from a scenario file is written into its error report, which promises one
// "FILE: path: problem" per line (scenario_file.h).
#pragma once

#include <string>
#include <string_view>

namespace karpenter::sim {

// `text` with newlines, tabs and other control characters written as `\n`, `\t`, `\xHH`, so that
// keys, values and yaml-cpp's messages quoting them cannot split a problem over several lines.
std::string EscapeControlCharacters(std::string_view text);

// A mapping key as one segment of a field path: as it is when it consists of letters, digits and
// `-_./` (`labels.karpenter.sh/discovery`); otherwise double-quoted with `"` and `\` escaped
// (`""`, `"c: d"`), so that an empty key or one holding `: ` still reads as one token.
std::string PathSegment(std::string_view key);

}  // namespace karpenter::sim
