#include "src/aws/fault_transport.h"

#include "absl/strings/str_split.h"
#include "src/aws/absl_view.h"
#include "src/aws/url.h"

namespace karpenter::aws {

std::string FaultInjectingTransport::OperationOf(const HttpRequest& request) {
  const std::string_view target = request.Header("X-Amz-Target");
  if (!target.empty()) {
    const size_t dot = target.rfind('.');
    return std::string(dot == std::string_view::npos ? target : target.substr(dot + 1));
  }
  for (absl::string_view pair : absl::StrSplit(AbslView(request.body), '&')) {
    if (pair.substr(0, 7) == "Action=") return PercentDecode(StdView(pair.substr(7)));
  }
  return {};
}

void FaultInjectingTransport::AddRule(FaultRule rule) {
  absl::MutexLock lock(&mu_);
  rules_.push_back(std::move(rule));
}

void FaultInjectingTransport::ClearRules() {
  absl::MutexLock lock(&mu_);
  rules_.clear();
}

absl::StatusOr<HttpResponse> FaultInjectingTransport::Send(const HttpRequest& request) {
  const std::string operation = OperationOf(request);
  std::optional<FaultRule> fault;
  {
    absl::MutexLock lock(&mu_);
    seen_.push_back(operation);
    for (FaultRule& rule : rules_) {
      if (rule.times == 0 || (!rule.operation.empty() && rule.operation != operation)) continue;
      if (rule.times > 0) --rule.times;
      fault = rule;
      break;
    }
    if (!fault.has_value()) passed_.push_back(operation);
  }
  if (!fault.has_value()) return inner_.Send(request);
  const bool json = !request.Header("X-Amz-Target").empty();
  switch (fault->kind) {
    case FaultKind::kThrottle:
      if (json) {
        return HttpResponse{
            .status = 400, .body = R"({"__type":"ThrottlingException","message":"Rate exceeded"})"};
      }
      return HttpResponse{
          .status = 400,
          .body =
              "<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request "
              "limit exceeded.</Message></Error></Errors></Response>"};
    case FaultKind::kServerError:
      return HttpResponse{.status = 503};
    case FaultKind::kConnectionDrop:
      return absl::UnavailableError("fault: connection dropped");
    case FaultKind::kTimeout:
      return absl::DeadlineExceededError("fault: timed out");
    case FaultKind::kRespond:
      return fault->response;
  }
  return absl::InternalError("fault: unknown kind");
}

std::vector<std::string> FaultInjectingTransport::seen() const {
  absl::MutexLock lock(&mu_);
  return seen_;
}

std::vector<std::string> FaultInjectingTransport::passed() const {
  absl::MutexLock lock(&mu_);
  return passed_;
}

}  // namespace karpenter::aws
