// The SDKs' shared files: ~/.aws/config (sections `[default]` and `[profile NAME]`) and
// ~/.aws/credentials (sections `[NAME]`), located through AWS_CONFIG_FILE and
// AWS_SHARED_CREDENTIALS_FILE, with the profile from AWS_PROFILE. Both files are read with size
// and count limits: they are user input.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "src/aws/environment.h"

namespace karpenter::aws {

using IniSection = std::map<std::string, std::string, std::less<>>;
using IniFile = std::map<std::string, IniSection, std::less<>>;

// Sections and `key = value` lines; `#`/`;` comments; keys lower-cased. Indented lines (the
// sub-sections of `s3 =` and friends) are skipped. kInvalidArgument for a line that is none of
// these, kOutOfRange past 1 MiB or 10,000 lines.
absl::StatusOr<IniFile> ParseIni(std::string_view text);

// The file's contents; nullopt when it does not exist; kOutOfRange when larger than `max_bytes`.
absl::StatusOr<std::optional<std::string>> ReadSmallFile(const std::string& path, size_t max_bytes);

struct SharedProfile {
  std::string name;
  // The profile's keys from the config file, overridden by those of the credentials file.
  IniSection values;

  std::string Value(std::string_view key) const;
};

// The selected profile from both files; empty values when neither file exists or has it.
absl::StatusOr<SharedProfile> LoadSharedProfile(const Environment& env);

}  // namespace karpenter::aws
