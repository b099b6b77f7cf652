#include "src/aws/service_clients.h"

#include <utility>

namespace karpenter::aws {

absl::StatusOr<std::unique_ptr<AwsClient>> NewServiceClient(const Environment& env,
                                                            const ServiceId& service,
                                                            const std::string& region,
                                                            const AwsContext& context) {
  absl::StatusOr<ServiceEndpoint> endpoint = ResolveEndpoint(env, service, region);
  if (!endpoint.ok()) return endpoint.status();
  return std::make_unique<AwsClient>(context, *std::move(endpoint));
}

absl::StatusOr<cloudprovider::Catalog> FallbackCatalog(const std::string& region) {
  cloudprovider::CatalogOptions options;
  options.resolve.region = region;
  absl::StatusOr<cloudprovider::Catalog> catalog =
      cloudprovider::Catalog::LoadEmbeddedPrices(options);
  if (absl::IsNotFound(catalog.status())) {
    return cloudprovider::Catalog::LoadEmbeddedPrices(cloudprovider::CatalogOptions());
  }
  return catalog;
}

}  // namespace karpenter::aws
