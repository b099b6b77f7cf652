#include "cmd/karpenter/catalog_option.h"

#include "absl/strings/str_cat.h"
#include "src/api/input_file.h"
#include "src/bench/scheduling_solve.h"

namespace karpenter::cli {

absl::StatusOr<provisioning::InstanceTypeFile> LoadCatalogOption(const std::string& name_or_path) {
  if (name_or_path == "fake400") return bench::Fake400CatalogFile();
  // The shared reader refuses a FIFO or device, which a plain stream would wait on forever.
  absl::StatusOr<std::string> content = api::ReadInputFile(name_or_path);
  if (!content.ok()) {
    return absl::Status(content.status().code(),
                        absl::StrCat("--catalog ", name_or_path, ": ", content.status().message()));
  }
  absl::StatusOr<provisioning::InstanceTypeFile> catalog =
      provisioning::ParseInstanceTypeFile(*content);
  if (!catalog.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--catalog ", name_or_path, ": ", catalog.status().message()));
  }
  return catalog;
}

}  // namespace karpenter::cli
