#include "src/disruption/command.h"

namespace karpenter::disruption {

std::string_view MethodName(Method method) {
  switch (method) {
    case Method::kEmptiness:
      return "Emptiness";
    case Method::kStaticDrift:
      return "StaticDrift";
    case Method::kDrift:
      return "Drift";
    case Method::kMultiNodeConsolidation:
      return "MultiNodeConsolidation";
    case Method::kSingleNodeConsolidation:
      return "SingleNodeConsolidation";
    case Method::kExpiration:
      return "Expiration";
  }
  return "";
}

std::string_view ConsolidationTypeOf(Method method) {
  switch (method) {
    case Method::kEmptiness:
      return "empty";
    case Method::kMultiNodeConsolidation:
      return "multi";
    case Method::kSingleNodeConsolidation:
      return "single";
    case Method::kStaticDrift:
    case Method::kDrift:
    case Method::kExpiration:
      return "";
  }
  return "";
}

}  // namespace karpenter::disruption
