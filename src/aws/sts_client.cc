#include "src/aws/sts_client.h"

#include "karpenter/common/status.h"

namespace karpenter::aws {

absl::StatusOr<CallerIdentity> StsClient::GetCallerIdentity() {
  KP_ASSIGN_OR_RETURN(const XmlDocument doc,
                      client_.CallQuery(QueryRequest("GetCallerIdentity", "2011-06-15")));
  const XmlNode result = doc.Root().Child("GetCallerIdentityResult");
  CallerIdentity out{.account = result.ChildText("Account"),
                     .arn = result.ChildText("Arn"),
                     .user_id = result.ChildText("UserId")};
  if (out.account.empty()) {
    return absl::InternalError("GetCallerIdentity: answer has no Account");
  }
  return out;
}

}  // namespace karpenter::aws
