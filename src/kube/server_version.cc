#include "src/kube/server_version.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"

namespace karpenter::kube {
namespace {

bool AllDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// The field `name` of the /version answer, without a trailing "+", when it is a number.
absl::StatusOr<std::string> NumberField(const nlohmann::json& answer, const char* name) {
  const auto it = answer.find(name);
  if (it == answer.end() || !it->is_string()) {
    return absl::InvalidArgumentError(absl::StrCat("GET /version: ", name, ": missing"));
  }
  const std::string text(absl::StripSuffix(it->get<std::string>(), "+"));
  if (!AllDigits(text)) {
    return absl::InvalidArgumentError(
        absl::StrCat("GET /version: ", name, ": \"", it->get<std::string>(), "\" is not a number"));
  }
  return text;
}

}  // namespace

absl::StatusOr<std::string> ServerMinorVersion(Client& client) {
  absl::StatusOr<std::string> body = client.Call("GET", "/version");
  if (!body.ok()) return body.status();  // its message starts with "GET /version: "
  const nlohmann::json answer = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object()) return absl::InvalidArgumentError("GET /version: not a JSON object");
  KP_ASSIGN_OR_RETURN(std::string major, NumberField(answer, "major"));
  KP_ASSIGN_OR_RETURN(std::string minor, NumberField(answer, "minor"));
  return absl::StrCat(major, ".", minor);
}

}  // namespace karpenter::kube
