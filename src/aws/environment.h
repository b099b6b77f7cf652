// The process environment as a seam: credential and endpoint resolution read variables through it,
// so tests hand in a map instead of mutating the real environment.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace karpenter::aws {

class Environment {
 public:
  virtual ~Environment() = default;
  // The variable's value; nullopt when unset. Thread-safe.
  virtual std::optional<std::string> Get(std::string_view name) const = 0;
  // The value when set and non-empty, nullopt otherwise (the SDKs treat "" as unset).
  std::optional<std::string> GetNonEmpty(std::string_view name) const;
};

class MapEnvironment final : public Environment {
 public:
  explicit MapEnvironment(std::map<std::string, std::string, std::less<>> vars)
      : vars_(std::move(vars)) {}
  std::optional<std::string> Get(std::string_view name) const override;

 private:
  std::map<std::string, std::string, std::less<>> vars_;
};

// The real process environment (real_environment.cc).
std::unique_ptr<Environment> NewProcessEnvironment();

}  // namespace karpenter::aws
