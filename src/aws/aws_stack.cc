#include "src/aws/aws_stack.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/aws_client.h"
#include "src/aws/aws_cloud_provider.h"
#include "src/aws/background_receive_queue.h"
#include "src/aws/clock.h"
#include "src/aws/credential_chain.h"
#include "src/aws/ec2_client.h"
#include "src/aws/eks_client.h"
#include "src/aws/endpoints.h"
#include "src/aws/environment.h"
#include "src/aws/iam_client.h"
#include "src/aws/imds.h"
#include "src/aws/instance_profiles.h"
#include "src/aws/instance_type_provider.h"
#include "src/aws/node_class_resolver.h"
#include "src/aws/node_class_validation.h"
#include "src/aws/pricing_client.h"
#include "src/aws/real_http_transport.h"
#include "src/aws/reservation_availability.h"
#include "src/aws/retry.h"
#include "src/aws/service_clients.h"
#include "src/aws/sqs_client.h"
#include "src/aws/sqs_interruption_queue.h"
#include "src/aws/ssm_client.h"

namespace karpenter::aws {

// Declaration order is construction order: each part only refers to those above it.
struct AwsStack::Parts {
  std::unique_ptr<Environment> env = NewProcessEnvironment();
  std::unique_ptr<HttpTransport> transport = NewRealHttpTransport();
  std::unique_ptr<Clock> clock = NewRealClock();
  std::unique_ptr<Random> random = NewRealRandom();
  RetryQuota quota;
  CallObserver observer;
  std::unique_ptr<CredentialChain> credentials;
  std::string region;
  std::unique_ptr<AwsClient> ec2_endpoint;
  std::unique_ptr<AwsClient> ssm_endpoint;
  std::unique_ptr<AwsClient> pricing_endpoint;
  std::unique_ptr<AwsClient> sqs_endpoint;
  std::unique_ptr<AwsClient> eks_endpoint;
  std::unique_ptr<AwsClient> iam_endpoint;
  std::unique_ptr<Ec2Client> ec2;
  std::unique_ptr<SsmClient> ssm;
  std::unique_ptr<PricingClient> pricing;
  std::unique_ptr<SqsClient> sqs;
  std::unique_ptr<IamClient> iam;
  std::unique_ptr<InstanceProfiles> instance_profiles;
  std::unique_ptr<cloudprovider::Catalog> catalog;
  std::unique_ptr<InstanceTypeProvider> instance_types;
  std::unique_ptr<NodeClassValidator> validator;
  std::unique_ptr<ReservationAvailability> reservations;
  std::unique_ptr<NodeClassResolver> resolver;
  std::unique_ptr<AwsCloudProvider> cloud;
  std::unique_ptr<SqsInterruptionQueue> queue;
  std::unique_ptr<BackgroundReceiveQueue> receiver;  // goes first: its thread uses `queue`
  std::vector<std::string> notes;
  bool isolated_vpc = false;
};

namespace {

// The cluster facts node user data needs, as upstream's operator and launch-template provider
// find them: the endpoint from CLUSTER_ENDPOINT or else DescribeCluster (then required), the
// service CIDR (the cluster DNS address) from DescribeCluster when it answers.
absl::StatusOr<ClusterInfo> ResolveCluster(const AwsStackOptions& options, AwsClient& eks,
                                           std::vector<std::string>& notes) {
  ClusterInfo info{.name = options.cluster_name,
                   .endpoint = options.cluster_endpoint,
                   .ca_bundle = options.cluster_ca_bundle};
  absl::StatusOr<EksCluster> described = EksClient(eks).DescribeCluster(options.cluster_name);
  if (!described.ok()) {
    if (info.endpoint.empty()) {
      return absl::Status(
          described.status().code(),
          absl::StrCat("failed to resolve cluster endpoint (set CLUSTER_ENDPOINT, or "
                       "allow eks:DescribeCluster), ",
                       described.status().message()));
    }
    notes.push_back(absl::StrCat("cannot describe EKS cluster ", options.cluster_name,
                                 ", node user data assumes service CIDR ", info.service_cidr, ": ",
                                 described.status().message()));
    return info;
  }
  if (info.endpoint.empty()) {
    info.endpoint = described->endpoint;
    // EKS answers with a trailing '/'; nodes join at the URL without it, as the setting reads.
    while (info.endpoint.ends_with('/')) info.endpoint.pop_back();
    notes.push_back(absl::StrCat("discovered cluster endpoint ", info.endpoint));
  }
  if (!described->service_ipv4_cidr.empty()) {
    info.service_cidr = described->service_ipv4_cidr;
  } else if (!described->service_ipv6_cidr.empty()) {
    info.service_cidr = described->service_ipv6_cidr;
  }
  return info;
}

}  // namespace

AwsStack::AwsStack() : parts_(std::make_unique<Parts>()) {}
AwsStack::~AwsStack() = default;

absl::StatusOr<std::unique_ptr<AwsStack>> AwsStack::Create(
    AwsStackOptions options, const ClusterReader& cluster,
    cloudprovider::UnavailableOfferings& unavailable) {
  std::unique_ptr<AwsStack> stack(new AwsStack());
  Parts& p = *stack->parts_;
  p.observer = options.observer;
  p.credentials = std::make_unique<CredentialChain>(*p.transport, *p.env, *p.clock);
  ImdsClient imds(*p.transport, *p.env, *p.clock);
  absl::StatusOr<std::string> region = ResolveRegion(*p.env, &imds);
  if (!region.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot tell the AWS region (set AWS_REGION): ", region.status().message()));
  }
  p.region = *region;
  const AwsContext context{*p.transport, *p.credentials, *p.clock,  *p.random,
                           p.quota,      RetryOptions{}, p.observer};
  for (auto [client, service, in_region] :
       {std::tuple{&p.ec2_endpoint, &Ec2Service(), p.region},
        std::tuple{&p.ssm_endpoint, &SsmService(), p.region},
        std::tuple{&p.sqs_endpoint, &SqsService(), p.region},
        std::tuple{&p.eks_endpoint, &EksService(), p.region},
        std::tuple{&p.iam_endpoint, &IamService(), p.region},
        std::tuple{&p.pricing_endpoint, &PricingService(), std::string(kPricingRegion)}}) {
    KP_ASSIGN_OR_RETURN(*client, NewServiceClient(*p.env, *service, in_region, context));
  }
  p.ec2 = std::make_unique<Ec2Client>(*p.ec2_endpoint, *p.random);
  p.ssm = std::make_unique<SsmClient>(*p.ssm_endpoint);
  p.pricing = std::make_unique<PricingClient>(*p.pricing_endpoint);
  p.sqs = std::make_unique<SqsClient>(*p.sqs_endpoint);
  absl::StatusOr<ClusterInfo> cluster_info = ResolveCluster(options, *p.eks_endpoint, p.notes);
  if (!cluster_info.ok()) return cluster_info.status();
  // A region the catalog lacks still runs on what EC2 and the Pricing API answer.
  KP_ASSIGN_OR_RETURN(cloudprovider::Catalog catalog, FallbackCatalog(p.region));
  p.catalog = std::make_unique<cloudprovider::Catalog>(std::move(catalog));
  p.instance_types = std::make_unique<InstanceTypeProvider>(
      *p.ec2, options.isolated_vpc ? nullptr : p.pricing.get(), *p.clock, *p.catalog,
      InstanceTypeProviderOptions{.region = p.region});
  p.isolated_vpc = options.isolated_vpc;
  p.iam = std::make_unique<IamClient>(*p.iam_endpoint);
  p.instance_profiles = std::make_unique<InstanceProfiles>(
      *p.iam, *p.clock, *p.random,
      InstanceProfileScope{.cluster_name = options.cluster_name, .region = p.region});
  NodeClassResolverOptions resolver_options;
  if (!options.kubernetes_version.empty()) {
    resolver_options.kubernetes_version = options.kubernetes_version;
  }
  resolver_options.capacity_reservations = options.reserved_capacity;
  p.validator = std::make_unique<NodeClassValidator>(
      *p.ec2, *p.clock, *cluster_info, NodeClassValidatorOptions{.dry_run = options.dry_run});
  // Shared: the resolver's descriptions reset the counts, the cloud provider's launches use them.
  // Without the gate neither has any: nothing reserved is offered, launches are open.
  if (options.reserved_capacity) {
    p.reservations = std::make_unique<ReservationAvailability>(*p.clock);
  }
  p.resolver = std::make_unique<NodeClassResolver>(*p.ec2, *p.ssm, *p.clock, resolver_options,
                                                   p.instance_profiles.get(), p.validator.get(),
                                                   p.reservations.get());
  p.cloud = std::make_unique<AwsCloudProvider>(*p.ec2, *p.clock, *p.instance_types, cluster,
                                               unavailable, *std::move(cluster_info),
                                               options.metrics, p.reservations.get());
  if (!options.interruption_queue.empty()) {
    // Receives run on a thread of their own (the controllers share one), long-polling 5 s:
    // upstream's 20 s would cost 3 calls a minute instead of 12, but a receive in flight cannot
    // be cut short, and shutdown waits for it.
    absl::StatusOr<std::unique_ptr<SqsInterruptionQueue>> queue = SqsInterruptionQueue::Create(
        *p.sqs, *p.clock, options.interruption_queue,
        SqsInterruptionQueueOptions{.wait_seconds = kInterruptionLongPollSeconds,
                                    .visibility_timeout_seconds = 20});
    if (!queue.ok()) return queue.status();
    p.queue = *std::move(queue);
    p.receiver = std::make_unique<BackgroundReceiveQueue>(*p.queue);
  }
  return stack;
}

CloudProvider& AwsStack::cloud() { return *parts_->cloud; }
InterruptionQueue* AwsStack::interruption_queue() { return parts_->receiver.get(); }
NodeClassResolver& AwsStack::node_classes() { return *parts_->resolver; }

absl::Status AwsStack::CleanUpNodeClass(const api::EC2NodeClass& node_class) {
  if (!parts_->isolated_vpc) {
    if (absl::Status profiles = parts_->instance_profiles->DeleteAll(node_class); !profiles.ok()) {
      return profiles;
    }
  }
  return parts_->cloud->DeleteLaunchTemplates(node_class);
}
absl::Status AwsStack::CollectInstanceProfiles(const std::set<std::string>& in_use) {
  if (parts_->isolated_vpc) return absl::OkStatus();
  return parts_->instance_profiles->CollectGarbage(in_use).status();
}
absl::StatusOr<bool> AwsStack::TagInstance(const std::string& provider_id,
                                           const std::map<std::string, std::string>& tags) {
  return parts_->cloud->TagInstance(provider_id, tags);
}
const std::string& AwsStack::region() const { return parts_->region; }
absl::Status AwsStack::RefreshInstanceTypes() { return parts_->instance_types->Refresh(); }
const std::vector<std::string>& AwsStack::notes() const { return parts_->notes; }
const cloudprovider::Catalog& AwsStack::catalog() const { return *parts_->catalog; }

}  // namespace karpenter::aws
