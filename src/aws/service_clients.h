// What the controller's AwsStack and plan's read-only AccountReader both assemble: a client per
// service at the endpoint the environment names, and the embedded catalog behind the APIs.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"
#include "src/aws/endpoints.h"
#include "src/aws/environment.h"
#include "src/cloudprovider/catalog.h"

namespace karpenter::aws {

// The Pricing API answers in us-east-1 for every region.
inline constexpr char kPricingRegion[] = "us-east-1";

// A client of `service` in `region`, at AWS_ENDPOINT_URL(_<SERVICE>) when set.
absl::StatusOr<std::unique_ptr<AwsClient>> NewServiceClient(const Environment& env,
                                                            const ServiceId& service,
                                                            const std::string& region,
                                                            const AwsContext& context);

// The embedded catalog's prices and zones of `region`, to fall back on when the APIs cannot
// answer; no type is resolved (the types come from EC2). A region the catalog lacks (GovCloud,
// China, a newer region) gets us-east-1's.
absl::StatusOr<cloudprovider::Catalog> FallbackCatalog(const std::string& region);

}  // namespace karpenter::aws
