#include "cmd/karpenter/output_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace karpenter::cli {

bool Writable(const std::string& path) {
  std::error_code error;
  if (std::filesystem::exists(path, error)) return access(path.c_str(), W_OK) == 0;
  std::filesystem::path directory = std::filesystem::path(path).parent_path();
  if (directory.empty()) directory = ".";
  return std::filesystem::is_directory(directory, error) && access(directory.c_str(), W_OK) == 0;
}

// Closed before the check: a write that fails (a full disk) shows only when the buffer is
// flushed, which the destructor would do silently.
bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  return !file.fail();
}

}  // namespace karpenter::cli
