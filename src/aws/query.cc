#include "src/aws/query.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {

QueryRequest::QueryRequest(std::string action, std::string version) : action_(action) {
  params_.emplace_back("Action", std::move(action));
  params_.emplace_back("Version", std::move(version));
}

QueryRequest& QueryRequest::Set(std::string key, std::string value) {
  params_.emplace_back(std::move(key), std::move(value));
  return *this;
}

QueryRequest& QueryRequest::SetList(std::string_view prefix,
                                    const std::vector<std::string>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    params_.emplace_back(absl::StrCat(AbslView(prefix), ".", i + 1), values[i]);
  }
  return *this;
}

QueryRequest& QueryRequest::SetFilters(const std::vector<Filter>& filters) {
  for (size_t i = 0; i < filters.size(); ++i) {
    const std::string prefix = absl::StrCat("Filter.", i + 1);
    params_.emplace_back(absl::StrCat(prefix, ".Name"), filters[i].name);
    SetList(absl::StrCat(prefix, ".Value"), filters[i].values);
  }
  return *this;
}

}  // namespace karpenter::aws
