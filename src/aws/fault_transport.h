// An `HttpTransport` decorator that injects AWS faults in front of another transport (moto in the
// integration tests): throttling and 5xx answers, dropped connections, timeouts, or a canned answer
// for chosen operations, so retry, quota and error paths run against the real wire format. It logs
// which operation each request was, to count calls that reached the service.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "src/aws/http.h"

namespace karpenter::aws {

enum class FaultKind {
  kThrottle,        // HTTP 400 RequestLimitExceeded (query) / ThrottlingException (JSON)
  kServerError,     // HTTP 503 with an empty body
  kConnectionDrop,  // no answer: kUnavailable from the transport
  kTimeout,         // no answer in time: kDeadlineExceeded
  kRespond,         // `response` instead of the service's answer
};

struct FaultRule {
  // The operation to hit: a query `Action` ("CreateFleet") or a JSON target's operation
  // ("GetParameter"); "" hits every request.
  std::string operation;
  FaultKind kind = FaultKind::kThrottle;
  // How many matching requests to fault; negative for all of them.
  int times = -1;
  HttpResponse response;
};

class FaultInjectingTransport final : public HttpTransport {
 public:
  explicit FaultInjectingTransport(HttpTransport& inner) : inner_(inner) {}

  void AddRule(FaultRule rule);
  void ClearRules();

  absl::StatusOr<HttpResponse> Send(const HttpRequest& request) override;

  // The operation of every request seen, and of those that reached the inner transport.
  std::vector<std::string> seen() const;
  std::vector<std::string> passed() const;

  // The operation a request names ("" when it names none).
  static std::string OperationOf(const HttpRequest& request);

 private:
  HttpTransport& inner_;
  mutable absl::Mutex mu_;
  std::vector<FaultRule> rules_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> seen_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> passed_ ABSL_GUARDED_BY(mu_);
};

}  // namespace karpenter::aws
