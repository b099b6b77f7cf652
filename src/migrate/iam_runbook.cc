#include "src/migrate/iam_runbook.h"

#include <set>

#include "fmt/format.h"

namespace karpenter::migrate {
namespace {

// `json` in double quotes, so that the shell expands the variables in it.
std::string ShellDoubleQuoted(const std::string& json) {
  std::string out = "\"";
  for (char c : json) {
    if (c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

// IRSA: the role trusts the cluster's OIDC provider for Karpenter's ServiceAccount only.
std::string IrsaTrustPolicy() {
  return ShellDoubleQuoted(
      R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Federated":)"
      R"("arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:oidc-provider/$OIDC_PROVIDER"},)"
      R"("Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringEquals":{)"
      R"("$OIDC_PROVIDER:aud":"sts.amazonaws.com",)"
      R"("$OIDC_PROVIDER:sub":"system:serviceaccount:karpenter:karpenter"}}}]})");
}

std::string ControllerRoleSteps(const std::string& cluster, const std::string& node_role) {
  return fmt::format(
      "  # IAM: the controller's role with docs/iam/controller-policy.json (see docs/iam.md)\n"
      "  sed -e \"s|\\${{Partition}}|$AWS_PARTITION|g; s|\\${{Region}}|$AWS_REGION|g; "
      "s|\\${{AccountId}}|$AWS_ACCOUNT_ID|g; s|\\${{ClusterName}}|{0}|g; "
      "s|\\${{NodeRoleArn}}|arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:role/{1}|g; "
      "s|\\${{InterruptionQueueArn}}|$QUEUE_ARN|g\" "
      "docs/iam/controller-policy.json > karpenter-controller-policy.json\n"
      "  aws iam create-policy --policy-name KarpenterControllerPolicy-{0} "
      "--policy-document file://karpenter-controller-policy.json\n"
      "    rollback: aws iam delete-policy --policy-arn "
      "arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:policy/KarpenterControllerPolicy-{0}\n"
      "  aws iam create-role --role-name KarpenterControllerRole-{0} "
      "--assume-role-policy-document '{{\"Version\":\"2012-10-17\",\"Statement\":[{{\"Effect\":"
      "\"Allow\",\"Principal\":{{\"Service\":\"pods.eks.amazonaws.com\"}},\"Action\":"
      "[\"sts:AssumeRole\",\"sts:TagSession\"]}}]}}'\n"
      "    rollback: aws iam delete-role --role-name KarpenterControllerRole-{0}\n"
      "  aws iam attach-role-policy --role-name KarpenterControllerRole-{0} --policy-arn "
      "arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:policy/KarpenterControllerPolicy-{0}\n"
      "    rollback: aws iam detach-role-policy --role-name KarpenterControllerRole-{0} "
      "--policy-arn arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:policy/KarpenterControllerPolicy-{0}\n"
      "  aws eks create-pod-identity-association --cluster-name {0} --namespace karpenter "
      "--service-account karpenter --role-arn "
      "arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:role/KarpenterControllerRole-{0}\n"
      "    rollback: aws eks delete-pod-identity-association --cluster-name {0} "
      "--association-id <associationId it printed>\n"
      "  # or IRSA instead of Pod Identity: trust the cluster's OIDC provider, and give helm\n"
      "  # --set serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn="
      "arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:role/KarpenterControllerRole-{0}\n"
      "  aws iam update-assume-role-policy --role-name KarpenterControllerRole-{0} "
      "--policy-document {2}\n"
      "    rollback: run the create-role step's trust policy through update-assume-role-policy\n",
      cluster, node_role, IrsaTrustPolicy());
}

// A role the plan invented (no describe-nodegroup named one) does not exist yet.
std::string NodeRoleSteps(const std::string& role, const std::string& cluster) {
  std::string out = fmt::format(
      "  aws iam create-role --role-name {0} --assume-role-policy-document "
      "file://docs/iam/node-role-trust-policy.json  # after replacing ${{URLSuffix}} "
      "(amazonaws.com)\n"
      "    rollback: aws iam delete-role --role-name {0}\n",
      role);
  for (const char* policy :
       {"AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryReadOnly",
        "AmazonSSMManagedInstanceCore"}) {
    out += fmt::format(
        "  aws iam attach-role-policy --role-name {0} --policy-arn "
        "arn:$AWS_PARTITION:iam::aws:policy/{1}\n"
        "    rollback: aws iam detach-role-policy --role-name {0} --policy-arn "
        "arn:$AWS_PARTITION:iam::aws:policy/{1}\n",
        role, policy);
  }
  out += fmt::format(
      "  aws eks create-access-entry --cluster-name {0} --principal-arn "
      "arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:role/{1} --type EC2_LINUX\n"
      "    rollback: aws eks delete-access-entry --cluster-name {0} --principal-arn "
      "arn:$AWS_PARTITION:iam::$AWS_ACCOUNT_ID:role/{1}\n",
      cluster, role);
  return out;
}

}  // namespace

std::string IamRunbookSteps(const MigrationPlan& plan) {
  std::set<std::string> roles;
  for (const nlohmann::ordered_json& node_class : plan.node_classes) {
    roles.insert(node_class["spec"]["role"].get<std::string>());
  }
  // The policy passes one node role; a plan with several needs the statement repeated.
  std::string out = ControllerRoleSteps(
      plan.cluster, roles.empty() ? "KarpenterNodeRole-" + plan.cluster : *roles.begin());
  for (const std::string& role : roles) {
    if (role == "KarpenterNodeRole-" + plan.cluster) {
      out += NodeRoleSteps(role, plan.cluster);
      continue;
    }
    out += fmt::format("  # node role {}: the node groups' own, already allowed to join: reused\n",
                       role);
  }
  return out;
}

}  // namespace karpenter::migrate
