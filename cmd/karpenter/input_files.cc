#include "cmd/karpenter/input_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace karpenter::cli {
namespace {

namespace fs = std::filesystem;

bool IsManifestFile(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".json" || extension == ".yaml" || extension == ".yml";
}

// The manifest files of `directory`, sorted by path as kubectl's walk visits them.
std::vector<std::string> FilesIn(const fs::path& directory, bool recursive) {
  std::vector<std::string> files;
  std::error_code error;
  auto add = [&](const fs::directory_entry& entry) {
    if (entry.is_regular_file(error) && IsManifestFile(entry.path())) {
      files.push_back(entry.path().string());
    }
  };
  if (recursive) {
    for (const auto& entry : fs::recursive_directory_iterator(directory, error)) add(entry);
  } else {
    for (const auto& entry : fs::directory_iterator(directory, error)) add(entry);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandFilenames(const std::vector<std::string>& values,
                                                         bool recursive) {
  std::vector<std::string> out;
  for (const std::string& value : values) {
    for (const std::string& name :
         std::vector<std::string>(absl::StrSplit(value, ',', absl::SkipEmpty()))) {
      std::error_code error;
      if (name == "-" || !fs::is_directory(name, error)) {
        out.push_back(name);
        continue;
      }
      std::vector<std::string> files = FilesIn(name, recursive);
      if (files.empty()) {
        return absl::NotFoundError(
            absl::StrCat(name, ": a directory without .json, .yaml or .yml files",
                         recursive ? "" : " (-R reads its subdirectories too)"));
      }
      out.insert(out.end(), files.begin(), files.end());
    }
  }
  return out;
}

}  // namespace karpenter::cli
