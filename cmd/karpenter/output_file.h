// Files a command writes besides its standard output (sim's and migrate's --report, sim's
// --events and --metrics): checked before a long run, written whole, a failed write reported.
#pragma once

#include <string>

namespace karpenter::cli {

// Whether `path` can be written, without creating or truncating it: an existing file must be
// writable, a new one's directory.
bool Writable(const std::string& path);

// Writes `text` to `path`; false when the file cannot be opened or a write fails.
bool WriteFile(const std::string& path, const std::string& text);

}  // namespace karpenter::cli
