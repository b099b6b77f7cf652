#include "src/migrate/ami_alias.h"

#include <algorithm>
#include <cctype>

#include "fmt/format.h"

namespace karpenter::migrate {
namespace {

// "1.30.0-20240625" → "v20240625": EKS-optimized AL2 and AL2023 AMIs are versioned by build date.
std::string BuildDateOf(const std::string& release_version) {
  const size_t dash = release_version.rfind('-');
  if (dash == std::string::npos) return "";
  const std::string date = release_version.substr(dash + 1);
  const bool digits = date.size() == 8 && std::all_of(date.begin(), date.end(), [](char c) {
                        return std::isdigit(static_cast<unsigned char>(c)) != 0;
                      });
  return digits ? "v" + date : "";
}

AmiChoice Pinned(const std::string& family, const std::string& release_version) {
  const std::string version = BuildDateOf(release_version);
  if (version.empty()) {
    return {family + "@latest",
            release_version.empty()
                ? std::string()
                : fmt::format("releaseVersion \"{}\" has no build date: follows @latest",
                              release_version)};
  }
  return {family + "@" + version, ""};
}

}  // namespace

AmiChoice AmiAliasFor(const std::string& ami_type, const std::string& release_version) {
  if (ami_type.starts_with("AL2023_")) return Pinned("al2023", release_version);
  if (ami_type.starts_with("AL2_")) return Pinned("al2", release_version);
  if (ami_type.starts_with("BOTTLEROCKET_")) {
    return {"bottlerocket@latest",
            "Bottlerocket's release is not carried: the alias follows the newest"};
  }
  if (ami_type == "WINDOWS_CORE_2019_x86_64") return {"windows2019@latest", ""};
  if (ami_type == "WINDOWS_CORE_2022_x86_64") return {"windows2022@latest", ""};
  if (ami_type.empty()) return {"al2023@latest", ""};
  return {"al2023@latest", fmt::format("amiType {} has no Karpenter alias: AL2023 assumed; give "
                                       "amiSelectorTerms by id or tags instead",
                                       ami_type)};
}

}  // namespace karpenter::migrate
