#include "src/aws/subnet_addresses.h"

#include <algorithm>
#include <utility>

namespace karpenter::aws {

std::map<std::string, Subnet> SubnetAddresses::ChooseForLaunch(
    const std::vector<Subnet>& described, const std::map<std::string, int64_t>& predicted_use) {
  absl::MutexLock lock(&mu_);
  // By zone: the subnet with available_ips as charged so far, and EC2's count for it.
  std::map<std::string, std::pair<Subnet, int64_t>> best;
  for (Subnet subnet : described) {
    const int64_t ec2_count = subnet.available_ips;
    if (full_.erase(subnet.id) > 0) {
      in_flight_[subnet.id] = InFlight{.described = ec2_count, .left = 0};
    }
    if (auto it = in_flight_.find(subnet.id); it != in_flight_.end()) {
      // EC2 has seen launches since (or the subnet changed): its count is the truth again.
      if (it->second.described != ec2_count) {
        in_flight_.erase(it);
      } else {
        subnet.available_ips = it->second.left;
      }
    }
    auto [slot, added] = best.try_emplace(subnet.zone, subnet, ec2_count);
    const Subnet& held = slot->second.first;
    if (!added && (subnet.available_ips > held.available_ips ||
                   (subnet.available_ips == held.available_ips && subnet.id < held.id))) {
      slot->second = {subnet, ec2_count};
    }
  }
  std::map<std::string, Subnet> out;
  for (auto& [zone, chosen] : best) {
    const auto& [subnet, ec2_count] = chosen;
    auto use = predicted_use.find(zone);
    if (use != predicted_use.end() && use->second > 0) {
      auto [it, added] = in_flight_.try_emplace(
          subnet.id, InFlight{.described = ec2_count, .left = subnet.available_ips});
      it->second.left -= use->second;
    }
    out.emplace(zone, subnet);
  }
  return out;
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

void SubnetAddresses::MarkFull(const std::string& subnet_id) {
  absl::MutexLock lock(&mu_);
  in_flight_.erase(subnet_id);
  full_.insert(subnet_id);
}

}  // namespace karpenter::aws
