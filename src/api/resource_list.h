// ResourceList: resource name -> quantity, as in v1.ResourceList ("cpu", "memory",
// "nvidia.com/gpu", ...). An ordered map keeps encoding and error order deterministic.
#pragma once

#include <map>
#include <string>

#include "src/api/quantity.h"

namespace karpenter::api {

using ResourceList = std::map<std::string, Quantity>;

}  // namespace karpenter::api
