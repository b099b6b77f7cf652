#include "src/aws/subnet_cache.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_join.h"

namespace karpenter::aws {

absl::StatusOr<std::vector<Subnet>> SubnetCache::Describe(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return std::vector<Subnet>();  // a filter without values would match them all
  const std::string key = absl::StrJoin(ids, ",");
  const absl::Time now = clock_.Now();
  {
    absl::MutexLock lock(&mu_);
    // Entries of node classes that changed their subnets stay until asked for again; drop the
    // expired ones so they cannot pile up.
    std::erase_if(described_, [&](const auto& entry) {
      return now - entry.second.at >= kSubnetCacheTtl || now < entry.second.at;
    });
    if (auto it = described_.find(key); it != described_.end()) return it->second.subnets;
  }
  // Asked outside the lock: a slow EC2 call must not hold up launches of other node classes.
  absl::StatusOr<std::vector<Subnet>> subnets =
      ec2_.DescribeSubnets({{.name = "subnet-id", .values = ids}});
  if (!subnets.ok()) return subnets.status();
  absl::MutexLock lock(&mu_);
  described_[key] = Described{.at = now, .subnets = *subnets};
  return subnets;
}

}  // namespace karpenter::aws
