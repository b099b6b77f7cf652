#include "cmd/karpenter/seed_option.h"

#include <charconv>

namespace karpenter::cli {
namespace {

// Empty when `text` is an unsigned 64-bit integer in decimal digits; else what is wrong.
std::string CheckSeed(const std::string& text) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || stop != end || error == std::errc::invalid_argument) {
    return "must be a whole number from 0 to 18446744073709551615, got " + text;
  }
  if (error == std::errc::result_out_of_range) {
    return "must be at most 18446744073709551615, got " + text;
  }
  return "";
}

}  // namespace

CLI::Option* AddSeedOption(CLI::App& command, uint64_t& seed, const std::string& description) {
  return command.add_option("--seed", seed, description)
      ->check(CLI::Validator(CheckSeed, "UINT64"))
      ->capture_default_str();
}

}  // namespace karpenter::cli
