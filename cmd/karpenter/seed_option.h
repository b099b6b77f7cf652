// `--seed N` as sim and bench take it: a whole number from 0 to 2^64-1, as written. CLI11 alone
// read "-1" as 18446744073709551615 and 10^23 as some other seed, so a typo ran silently with a
// seed the user never gave.
#pragma once

#include <cstdint>
#include <string>

#include "CLI/CLI.hpp"

namespace karpenter::cli {

CLI::Option* AddSeedOption(CLI::App& command, uint64_t& seed, const std::string& description);

}  // namespace karpenter::cli
