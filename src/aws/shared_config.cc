#include "src/aws/shared_config.h"

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

constexpr size_t kMaxFileBytes = size_t{1} << 20;
constexpr size_t kMaxLines = 10'000;

std::string Trimmed(absl::string_view text) {
  return std::string(absl::StripAsciiWhitespace(text));
}

// `~/.aws/<name>` unless `variable` names another file; "" when there is no home either.
std::string FilePath(const Environment& env, std::string_view variable, std::string_view name) {
  if (std::optional<std::string> path = env.GetNonEmpty(variable)) {
    if (path->starts_with("~/")) {
      if (std::optional<std::string> home = env.GetNonEmpty("HOME")) {
        return absl::StrCat(*home, path->substr(1));
      }
    }
    return *path;
  }
  std::optional<std::string> home = env.GetNonEmpty("HOME");
  return home.has_value() ? absl::StrCat(*home, "/.aws/", AbslView(name)) : "";
}

absl::StatusOr<IniFile> ReadIni(const std::string& path) {
  if (path.empty()) return IniFile{};
  absl::StatusOr<std::optional<std::string>> text = ReadSmallFile(path, kMaxFileBytes);
  if (!text.ok()) return text.status();
  if (!text->has_value()) return IniFile{};
  absl::StatusOr<IniFile> ini = ParseIni(**text);
  if (!ini.ok()) {
    return absl::Status(ini.status().code(), absl::StrCat(path, ": ", ini.status().message()));
  }
  return ini;
}

}  // namespace

absl::StatusOr<IniFile> ParseIni(std::string_view text) {
  if (text.size() > kMaxFileBytes) return absl::OutOfRangeError("INI: file larger than 1 MiB");
  IniFile out;
  IniSection* section = nullptr;
  size_t line_number = 0;
  for (absl::string_view raw : absl::StrSplit(AbslView(text), '\n')) {
    if (++line_number > kMaxLines) return absl::OutOfRangeError("INI: more than 10000 lines");
    const bool indented = !raw.empty() && (raw.front() == ' ' || raw.front() == '\t');
    const std::string line = Trimmed(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']') {
        return absl::InvalidArgumentError(absl::StrCat("INI: line ", line_number, ": bad section"));
      }
      section = &out[Trimmed(absl::string_view(line).substr(1, line.size() - 2))];
      continue;
    }
    if (indented) continue;  // a nested value of the key above (e.g. `s3 =` blocks)
    const size_t equals = line.find('=');
    if (equals == std::string::npos || section == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("INI: line ", line_number, ": expected key = value inside a section"));
    }
    std::string key = absl::AsciiStrToLower(Trimmed(absl::string_view(line).substr(0, equals)));
    (*section)[std::move(key)] = Trimmed(absl::string_view(line).substr(equals + 1));
  }
  return out;
}

absl::StatusOr<std::optional<std::string>> ReadSmallFile(const std::string& path,
                                                         size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::optional<std::string>();
  std::string out(max_bytes + 1, '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(in.gcount()));
  if (out.size() > max_bytes) {
    return absl::OutOfRangeError(absl::StrCat(path, ": larger than ", max_bytes, " bytes"));
  }
  return std::optional<std::string>(std::move(out));
}

std::string SharedProfile::Value(std::string_view key) const {
  auto it = values.find(key);
  return it == values.end() ? "" : it->second;
}

absl::StatusOr<SharedProfile> LoadSharedProfile(const Environment& env) {
  SharedProfile out;
  out.name = env.GetNonEmpty("AWS_PROFILE").value_or("default");
  absl::StatusOr<IniFile> config = ReadIni(FilePath(env, "AWS_CONFIG_FILE", "config"));
  if (!config.ok()) return config.status();
  absl::StatusOr<IniFile> credentials =
      ReadIni(FilePath(env, "AWS_SHARED_CREDENTIALS_FILE", "credentials"));
  if (!credentials.ok()) return credentials.status();
  const std::string config_section =
      out.name == "default" ? "default" : absl::StrCat("profile ", out.name);
  auto it = config->find(config_section);
  if (it == config->end() && out.name == "default") it = config->find("profile default");
  if (it != config->end()) out.values = it->second;
  if (auto found = credentials->find(out.name); found != credentials->end()) {
    for (const auto& [key, value] : found->second) out.values[key] = value;
  }
  return out;
}

}  // namespace karpenter::aws
