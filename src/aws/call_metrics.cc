#include "src/aws/call_metrics.h"

#include <cctype>
#include <cmath>
#include <string>

namespace karpenter::aws {

std::string SdkServiceId(std::string_view signing_name) {
  if (signing_name == "pricing") return "Pricing";
  std::string id(signing_name);
  for (char& c : id) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return id;
}

std::string ActionOf(std::string_view operation) {
  const size_t dot = operation.rfind('.');
  return std::string(dot == std::string_view::npos ? operation : operation.substr(dot + 1));
}

CallObserver MetricsObserver(Metrics& metrics) {
  return [&metrics](const CallRecord& call) {
    const auto labels = [&call](int status) {
      return MetricLabels{
          {"service", call.service}, {"action", call.action}, {"code", std::to_string(status)}};
    };
    // The middleware observes whole milliseconds (Go's Duration.Milliseconds truncates).
    const auto millis = [](double seconds) { return std::floor(seconds * 1000) / 1000; };
    const MetricLabels by_call = labels(call.status);
    metrics.Add("aws_sdk_go_request_total", by_call, 1);
    metrics.Observe("aws_sdk_go_request_duration_seconds", by_call, millis(call.seconds));
    const size_t retries = call.attempts.empty() ? 0 : call.attempts.size() - 1;
    metrics.Observe("aws_sdk_go_request_retry_count", by_call, static_cast<double>(retries));
    for (const CallAttempt& attempt : call.attempts) {
      metrics.Add("aws_sdk_go_request_attempt_total", labels(attempt.status), 1);
      metrics.Observe("aws_sdk_go_request_attempt_duration_seconds", by_call,
                      millis(attempt.seconds));
    }
  };
}

}  // namespace karpenter::aws
