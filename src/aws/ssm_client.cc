#include "src/aws/ssm_client.h"

#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/json.h"

namespace karpenter::aws {

absl::StatusOr<Parameter> SsmClient::GetParameter(const std::string& name) {
  KP_ASSIGN_OR_RETURN(
      const nlohmann::json answer,
      client_.CallJson("AmazonSSM.GetParameter", {{"Name", name}}, "application/x-amz-json-1.1"));
  const auto it = answer.find("Parameter");
  if (it == answer.end() || !it->is_object()) {
    return absl::InternalError(absl::StrCat("GetParameter ", name, ": answer has no Parameter"));
  }
  Parameter out{.name = JsonString(*it, "Name"),
                .type = JsonString(*it, "Type"),
                .value = JsonString(*it, "Value")};
  if (auto version = it->find("Version"); version != it->end() && version->is_number_integer()) {
    out.version = version->get<int64_t>();
  }
  return out;
}

}  // namespace karpenter::aws
