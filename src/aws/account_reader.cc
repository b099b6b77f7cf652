#include "src/aws/account_reader.h"

#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/aws_client.h"
#include "src/aws/clock.h"
#include "src/aws/credential_chain.h"
#include "src/aws/ec2_client.h"
#include "src/aws/endpoints.h"
#include "src/aws/environment.h"
#include "src/aws/imds.h"
#include "src/aws/node_class_resolver.h"
#include "src/aws/pricing_client.h"
#include "src/aws/real_http_transport.h"
#include "src/aws/retry.h"
#include "src/aws/service_clients.h"
#include "src/aws/ssm_client.h"

namespace karpenter::aws {

// Declaration order is construction order: each part only refers to those above it.
struct AccountReader::Parts {
  std::unique_ptr<Environment> env = NewProcessEnvironment();
  std::unique_ptr<HttpTransport> transport = NewRealHttpTransport();
  std::unique_ptr<Clock> clock = NewRealClock();
  std::unique_ptr<Random> random = NewRealRandom();
  RetryQuota quota;
  std::unique_ptr<CredentialChain> credentials;
  std::string region;
  std::unique_ptr<AwsClient> ec2_endpoint;
  std::unique_ptr<AwsClient> ssm_endpoint;
  std::unique_ptr<AwsClient> pricing_endpoint;
  std::unique_ptr<Ec2Client> ec2;
  std::unique_ptr<SsmClient> ssm;
  std::unique_ptr<PricingClient> pricing;
  std::unique_ptr<cloudprovider::Catalog> catalog;
  std::unique_ptr<InstanceTypeProvider> instance_types;
  std::unique_ptr<NodeClassResolver> resolver;
  bool types_read = false;
};

AccountReader::AccountReader() : parts_(std::make_unique<Parts>()) {}
AccountReader::~AccountReader() = default;

absl::StatusOr<std::unique_ptr<AccountReader>> AccountReader::Create(AccountReaderOptions options) {
  std::unique_ptr<AccountReader> reader(new AccountReader());
  Parts& p = *reader->parts_;
  p.credentials = std::make_unique<CredentialChain>(*p.transport, *p.env, *p.clock);
  if (options.region.empty()) {
    ImdsClient imds(*p.transport, *p.env, *p.clock);
    absl::StatusOr<std::string> region = ResolveRegion(*p.env, &imds);
    if (!region.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot tell the AWS region (set AWS_REGION or --region): ", region.status().message()));
    }
    options.region = *region;
  }
  p.region = options.region;
  const AwsContext context{*p.transport, *p.credentials, *p.clock, *p.random, p.quota};
  for (auto [client, service, in_region] :
       {std::tuple{&p.ec2_endpoint, &Ec2Service(), p.region},
        std::tuple{&p.ssm_endpoint, &SsmService(), p.region},
        std::tuple{&p.pricing_endpoint, &PricingService(), std::string(kPricingRegion)}}) {
    KP_ASSIGN_OR_RETURN(*client, NewServiceClient(*p.env, *service, in_region, context));
  }
  p.ec2 = std::make_unique<Ec2Client>(*p.ec2_endpoint, *p.random);
  p.ssm = std::make_unique<SsmClient>(*p.ssm_endpoint);
  p.pricing = std::make_unique<PricingClient>(*p.pricing_endpoint);
  KP_ASSIGN_OR_RETURN(cloudprovider::Catalog catalog, FallbackCatalog(p.region));
  p.catalog = std::make_unique<cloudprovider::Catalog>(std::move(catalog));
  p.instance_types =
      std::make_unique<InstanceTypeProvider>(*p.ec2, p.pricing.get(), *p.clock, *p.catalog,
                                             InstanceTypeProviderOptions{.region = p.region});
  NodeClassResolverOptions resolver_options;
  if (!options.kubernetes_version.empty()) {
    resolver_options.kubernetes_version = options.kubernetes_version;
  }
  // No InstanceProfiles: the resolver never reaches IAM.
  p.resolver = std::make_unique<NodeClassResolver>(*p.ec2, *p.ssm, *p.clock, resolver_options);
  return reader;
}

const std::string& AccountReader::region() const { return parts_->region; }

absl::Status AccountReader::CheckCredentials() {
  absl::StatusOr<Credentials> credentials = parts_->credentials->Get();
  if (credentials.ok()) return absl::OkStatus();
  return absl::Status(credentials.status().code(),
                      absl::StrCat("no AWS credentials (environment, profile, web identity, "
                                   "container or IMDS): ",
                                   credentials.status().message()));
}

absl::StatusOr<api::EC2NodeClassStatus> AccountReader::ResolveNodeClass(
    const api::EC2NodeClass& node_class) {
  return parts_->resolver->ResolveSelectors(node_class);
}

absl::StatusOr<std::vector<cloudprovider::InstanceType>> AccountReader::InstanceTypes(
    const cloudprovider::ResolveOptions& resolve, const std::set<std::string>& zones,
    const cloudprovider::UnavailableOfferings& unavailable) {
  if (!parts_->types_read) {
    // Read now, on this thread: a plan is one pass, with nothing to serve while EC2 answers.
    KP_RETURN_IF_ERROR(parts_->instance_types->Refresh());
    parts_->types_read = true;
  }
  return parts_->instance_types->List(resolve, zones, unavailable);
}

PriceSource AccountReader::on_demand_source() const {
  return parts_->instance_types->on_demand_source();
}
PriceSource AccountReader::spot_source() const { return parts_->instance_types->spot_source(); }

}  // namespace karpenter::aws
