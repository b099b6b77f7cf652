// The production `Environment`: the process's own variables.
#include <cstdlib>
#include <string>

#include "src/aws/environment.h"

namespace karpenter::aws {
namespace {

class ProcessEnvironment final : public Environment {
 public:
  std::optional<std::string> Get(std::string_view name) const override {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  }
};

}  // namespace

std::unique_ptr<Environment> NewProcessEnvironment() {
  return std::make_unique<ProcessEnvironment>();
}

}  // namespace karpenter::aws
