#include "src/kube/bounded_file.h"

#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "src/api/input_file.h"

namespace karpenter::kube {

absl::StatusOr<std::string> ReadBoundedFile(const std::string& path, std::string_view what,
                                            size_t max_bytes) {
  if (absl::Status regular = api::CheckRegularFile(path); !regular.ok()) {
    return absl::Status(regular.code(), absl::StrCat(std::string(what), ": ", regular.message()));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(std::string(what), ": cannot open ", path));
  std::string content;
  char buffer[8192];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    content.append(buffer, static_cast<size_t>(in.gcount()));
    if (content.size() > max_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(what), ": ", path, " is larger than ", max_bytes, " bytes"));
    }
  }
  return content;
}

}  // namespace karpenter::kube
