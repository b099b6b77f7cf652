#include "src/aws/environment.h"

namespace karpenter::aws {

std::optional<std::string> Environment::GetNonEmpty(std::string_view name) const {
  std::optional<std::string> value = Get(name);
  if (!value.has_value() || value->empty()) return std::nullopt;
  return value;
}

std::optional<std::string> MapEnvironment::Get(std::string_view name) const {
  auto it = vars_.find(name);
  if (it == vars_.end()) return std::nullopt;
  return it->second;
}

}  // namespace karpenter::aws
