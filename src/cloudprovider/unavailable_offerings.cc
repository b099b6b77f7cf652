#include "src/cloudprovider/unavailable_offerings.h"

#include <string>

namespace karpenter::cloudprovider {

void UnavailableOfferings::Mark(const OfferingRef& offering) {
  until_[offering] = clock_.NowMillis() + ttl_();
  ++version_;
}

bool UnavailableOfferings::IsUnavailable(std::string_view instance_type, std::string_view zone,
                                         std::string_view capacity_type) const {
  if (until_.empty()) return false;
  return until_.contains(
      OfferingRef{std::string(instance_type), std::string(zone), std::string(capacity_type)});
}

void UnavailableOfferings::Expire() {
  const int64_t now = clock_.NowMillis();
  if (std::erase_if(until_, [now](const auto& entry) { return entry.second <= now; }) > 0) {
    ++version_;
  }
}

}  // namespace karpenter::cloudprovider
