#include "src/aws/subnet_addresses.h"

#include <algorithm>

namespace karpenter::aws {

std::map<std::string, Subnet> SubnetAddresses::ChooseForLaunch(
    const std::vector<Subnet>& described, const std::map<std::string, int64_t>& predicted_use) {
  absl::MutexLock lock(&mu_);
  std::map<std::string, Subnet> best;  // by zone; available_ips as charged so far
  for (Subnet subnet : described) {
    if (auto it = in_flight_.find(subnet.id); it != in_flight_.end()) {
      // EC2 has seen launches since (or the subnet changed): its count is the truth again.
      if (it->second.described != subnet.available_ips) {
        in_flight_.erase(it);
      } else {
        subnet.available_ips = it->second.left;
      }
    }
    auto [slot, added] = best.try_emplace(subnet.zone, subnet);
    if (!added &&
        (subnet.available_ips > slot->second.available_ips ||
         (subnet.available_ips == slot->second.available_ips && subnet.id < slot->second.id))) {
      slot->second = subnet;
    }
  }
  for (auto& [zone, subnet] : best) {
    auto use = predicted_use.find(zone);
    if (use == predicted_use.end() || use->second <= 0) continue;
    const auto original = std::find_if(described.begin(), described.end(),
                                       [&](const Subnet& s) { return s.id == subnet.id; });
    auto [it, added] = in_flight_.try_emplace(
        subnet.id, InFlight{.described = original->available_ips, .left = subnet.available_ips});
    it->second.left -= use->second;
  }
  return best;
}

void SubnetAddresses::Settle(const std::map<std::string, Subnet>& chosen,
                             const std::map<std::string, int64_t>& predicted_use,
                             const std::vector<std::string>& launched_subnet_ids) {
  absl::MutexLock lock(&mu_);
  for (const auto& [zone, subnet] : chosen) {
    if (std::find(launched_subnet_ids.begin(), launched_subnet_ids.end(), subnet.id) !=
        launched_subnet_ids.end()) {
      continue;
    }
    auto use = predicted_use.find(zone);
    auto it = in_flight_.find(subnet.id);
    if (use == predicted_use.end() || it == in_flight_.end()) continue;
    it->second.left += use->second;
  }
}

}  // namespace karpenter::aws
