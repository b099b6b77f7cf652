#include "src/aws/eks_client.h"

#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/absl_view.h"
#include "src/aws/json.h"
#include "src/aws/url.h"

namespace karpenter::aws {
namespace {

absl::StatusOr<EksCluster> ClusterOf(const HttpResponse& response, std::string_view operation) {
  absl::StatusOr<nlohmann::json> answer = ParseJson(response.body);
  if (!answer.ok()) {
    return absl::Status(answer.status().code(),
                        absl::StrCat(AbslView(operation), ": answer: ", answer.status().message()));
  }
  const nlohmann::json& cluster = JsonObject(*answer, "cluster");
  EksCluster out{
      .name = JsonString(cluster, "name"),
      .status = JsonString(cluster, "status"),
      .endpoint = JsonString(cluster, "endpoint"),
      .certificate_authority = JsonString(JsonObject(cluster, "certificateAuthority"), "data"),
      .version = JsonString(cluster, "version")};
  const nlohmann::json& network = JsonObject(cluster, "kubernetesNetworkConfig");
  out.service_ipv4_cidr = JsonString(network, "serviceIpv4Cidr");
  out.service_ipv6_cidr = JsonString(network, "serviceIpv6Cidr");
  if (out.name.empty()) {
    return absl::InternalError(absl::StrCat(AbslView(operation), ": answer has no cluster"));
  }
  return out;
}

}  // namespace

absl::StatusOr<EksCluster> EksClient::DescribeCluster(const std::string& name) {
  HttpRequest request{.method = "GET", .url = absl::StrCat("/clusters/", UriEncode(name))};
  KP_ASSIGN_OR_RETURN(const HttpResponse response,
                      client_.Send(std::move(request), "DescribeCluster"));
  return ClusterOf(response, "DescribeCluster");
}

absl::StatusOr<EksCluster> EksClient::CreateCluster(const std::string& name,
                                                    const std::string& role_arn,
                                                    const std::string& service_ipv4_cidr) {
  const nlohmann::json body = {
      {"name", name},
      {"roleArn", role_arn},
      {"resourcesVpcConfig", nlohmann::json::object()},
      {"kubernetesNetworkConfig", {{"serviceIpv4Cidr", service_ipv4_cidr}}}};
  HttpRequest request{.method = "POST", .url = "/clusters", .body = body.dump()};
  request.SetHeader("Content-Type", "application/json");
  KP_ASSIGN_OR_RETURN(const HttpResponse response,
                      client_.Send(std::move(request), "CreateCluster"));
  return ClusterOf(response, "CreateCluster");
}

}  // namespace karpenter::aws
