#include "src/controllers/metered_cloud_provider.h"

#include <utility>

namespace karpenter::controllers {

std::string_view CloudErrorTypeName(CloudErrorKind kind) {
  switch (kind) {
    case CloudErrorKind::kInsufficientCapacity:
      return "InsufficientCapacityError";
    case CloudErrorKind::kNodeClassNotReady:
      return "NodeClassNotReadyError";
    case CloudErrorKind::kNotFound:
      return "NodeClaimNotFoundError";
    case CloudErrorKind::kCreateError:
    case CloudErrorKind::kUnavailable:
      return "";
  }
  return "";
}

template <class Call>
auto MeteredCloudProvider::Measured(std::string_view method, Call&& call) {
  const api::Time start = clock_.Now();
  auto answer = std::forward<Call>(call)();
  MetricLabels labels = {{"controller", controller_},
                         {"method", std::string(method)},
                         {"provider", std::string(inner_.Name())}};
  metrics_.Observe("karpenter_cloudprovider_duration_seconds", labels,
                   static_cast<double>((clock_.Now() - start).Nanos()) / 1e9);
  if (const auto* error = std::get_if<CloudError>(&answer)) {
    labels.emplace_back("error", std::string(CloudErrorTypeName(error->kind)));
    metrics_.Add("karpenter_cloudprovider_errors_total", labels, 1);
  }
  return answer;
}

CloudOr<api::NodeClaim> MeteredCloudProvider::Create(const api::NodeClaim& node_claim) {
  return Measured("Create", [&] { return inner_.Create(node_claim); });
}

std::variant<std::monostate, CloudError> MeteredCloudProvider::Delete(
    const api::NodeClaim& node_claim) {
  return Measured("Delete", [&] { return inner_.Delete(node_claim); });
}

CloudOr<api::NodeClaim> MeteredCloudProvider::Get(std::string_view provider_id) {
  return Measured("Get", [&] { return inner_.Get(provider_id); });
}

CloudOr<std::vector<api::NodeClaim>> MeteredCloudProvider::List() {
  return Measured("List", [&] { return inner_.List(); });
}

CloudOr<std::vector<cloudprovider::InstanceType>> MeteredCloudProvider::GetInstanceTypes(
    const api::NodePool& node_pool) {
  return Measured("GetInstanceTypes", [&] { return inner_.GetInstanceTypes(node_pool); });
}

CloudOr<std::string> MeteredCloudProvider::IsDrifted(const api::NodeClaim& node_claim) {
  return Measured("IsDrifted", [&] { return inner_.IsDrifted(node_claim); });
}

}  // namespace karpenter::controllers
