// The parts of an EC2 instance type name ("m7i-flex.2xlarge", "u-6tb1.56xlarge") that Karpenter
// turns into labels and that the price models key on.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace karpenter::cloudprovider {

struct InstanceTypeName {
  std::string family;  // before the dot: "m7i-flex"
  std::string size;    // after the dot: "2xlarge"
  // From upstream's pattern `(^[a-z]+)(\-[0-9]+tb)?([0-9]+).*\.`; empty when it does not match.
  std::string category;    // leading letters: "m", "inf", "u"
  std::string generation;  // the digits after them: "7", "1"

  friend bool operator==(const InstanceTypeName&, const InstanceTypeName&) = default;
};

// Splits `name` at its only dot. nullopt when there is no dot, more than one, or an empty part.
std::optional<InstanceTypeName> ParseInstanceTypeName(std::string_view name);

}  // namespace karpenter::cloudprovider
