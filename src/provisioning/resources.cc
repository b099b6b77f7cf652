#include "src/provisioning/resources.h"

#include "src/api/pod_resources.h"

namespace karpenter::provisioning {

api::ResourceList RequestsForPod(const api::Pod& pod) {
  api::ResourceList requests = api::PodRequests(pod);
  requests[kResourcePods].Add(api::Quantity::FromInt(1, api::Quantity::Format::kDecimalSI));
  return requests;
}

api::ResourceList Merge(const api::ResourceList& a, const api::ResourceList& b) {
  api::ResourceList out = a;
  api::AddResources(out, b);
  return out;
}

api::ResourceList Subtract(const api::ResourceList& a, const api::ResourceList& b) {
  api::ResourceList out = a;
  for (auto& [name, quantity] : out) {
    auto it = b.find(name);
    if (it != b.end()) quantity.Sub(it->second);
  }
  return out;
}

api::ResourceList SubtractClamped(const api::ResourceList& a, const api::ResourceList& b) {
  api::ResourceList out;
  for (const auto& [name, quantity] : a) {
    api::Quantity left = quantity;
    auto it = b.find(name);
    if (it != b.end()) left.Sub(it->second);
    if (left.Sign() > 0) out[name] = left;
  }
  return out;
}

bool Fits(const api::ResourceList& requests, const api::ResourceList& available) {
  for (const auto& [name, quantity] : requests) {
    auto it = available.find(name);
    const api::Quantity zero;
    if (quantity > (it == available.end() ? zero : it->second)) return false;
  }
  return true;
}

std::string ResourcesString(const api::ResourceList& list) {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, quantity] : list) {
    if (!first) out += ",";
    first = false;
    out += "\"" + name + "\":\"" + quantity.String() + "\"";
  }
  return out + "}";
}

}  // namespace karpenter::provisioning
