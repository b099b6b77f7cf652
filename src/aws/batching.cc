#include "src/aws/batching.h"

#include <algorithm>
#include <set>

#include "nlohmann/json.hpp"

namespace karpenter::aws {

BatchWindowOptions CreateFleetWindow() {
  return {
      .idle_timeout = absl::Milliseconds(35), .max_timeout = absl::Seconds(1), .max_items = 1000};
}

BatchWindowOptions DescribeInstancesWindow() {
  return {
      .idle_timeout = absl::Milliseconds(100), .max_timeout = absl::Seconds(1), .max_items = 500};
}

BatchWindowOptions TerminateInstancesWindow() {
  return {
      .idle_timeout = absl::Milliseconds(100), .max_timeout = absl::Seconds(1), .max_items = 500};
}

std::string FleetBatchKey(const FleetRequest& request) {
  nlohmann::json overrides = nlohmann::json::array();
  for (const FleetOverride& o : request.overrides) {
    overrides.push_back(
        {o.instance_type, o.subnet_id, o.zone, o.image_id, o.priority, o.launch_template_name});
  }
  // nlohmann objects keep keys sorted and Tags is a sorted map: equal requests dump equally.
  const nlohmann::json key = {{"template", request.launch_template_name},
                              {"overrides", overrides},
                              {"spot", request.spot},
                              {"tags", request.tags}};
  return key.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

FleetRequest MergeFleetRequests(const std::vector<FleetRequest>& requests) {
  if (requests.empty()) return {};
  FleetRequest out = requests.front();
  out.count = static_cast<int>(requests.size());
  out.client_token.clear();  // one fresh token for the merged call
  return out;
}

std::vector<FleetResult> SplitFleetResult(const FleetResult& result, size_t requests,
                                          std::vector<FleetInstance>* surplus) {
  std::vector<FleetResult> out;
  out.reserve(requests);
  for (const FleetInstance& instance : result.instances) {
    if (out.size() == requests) {
      if (surplus != nullptr) surplus->push_back(instance);
      continue;
    }
    out.push_back({.fleet_id = result.fleet_id, .instances = {instance}, .errors = result.errors});
  }
  std::vector<FleetError> errors = result.errors;
  if (errors.empty()) {
    errors.push_back({.code = "too few instances returned",
                      .message = "CreateFleet launched fewer instances than requested"});
  }
  while (out.size() < requests) {
    out.push_back({.fleet_id = result.fleet_id, .errors = errors});
  }
  return out;
}

std::vector<std::string> MergeInstanceIds(const std::vector<std::vector<std::string>>& requests) {
  std::set<std::string> ids;
  for (const auto& request : requests) ids.insert(request.begin(), request.end());
  return {ids.begin(), ids.end()};
}

std::vector<std::map<std::string, std::string>> SplitTerminateResult(
    const std::map<std::string, std::string>& states,
    const std::vector<std::vector<std::string>>& requests) {
  std::vector<std::map<std::string, std::string>> out;
  out.reserve(requests.size());
  for (const auto& request : requests) {
    std::map<std::string, std::string>& mine = out.emplace_back();
    for (const std::string& id : request) {
      if (auto it = states.find(id); it != states.end()) mine[id] = it->second;
    }
  }
  return out;
}

}  // namespace karpenter::aws
