#include "src/aws/aws_client.h"

#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/absl_view.h"
#include "src/aws/errors.h"
#include "src/aws/json.h"

namespace karpenter::aws {
namespace {

// Transport failures worth another attempt: no answer, or no answer in time.
bool IsRetryableTransportError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kUnavailable ||
         status.code() == absl::StatusCode::kDeadlineExceeded;
}

absl::Status Annotate(const absl::Status& status, std::string_view note) {
  absl::Status out(status.code(), absl::StrCat(status.message(), AbslView(note)));
  status.ForEachPayload(
      [&](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

}  // namespace

absl::StatusOr<HttpResponse> AwsClient::Send(HttpRequest request, std::string_view operation) {
  if (!context_.observer) return SendWithRetries(std::move(request), operation, nullptr);
  const absl::Time start = context_.clock.Now();
  std::vector<CallAttempt> attempts;
  absl::StatusOr<HttpResponse> response = SendWithRetries(std::move(request), operation, &attempts);
  context_.observer(CallRecord{.service = SdkServiceId(endpoint_.scope.service),
                               .action = ActionOf(operation),
                               .status = attempts.empty() ? 0 : attempts.back().status,
                               .seconds = absl::ToDoubleSeconds(context_.clock.Now() - start),
                               .attempts = std::move(attempts)});
  return response;
}

absl::StatusOr<HttpResponse> AwsClient::SendWithRetries(HttpRequest request,
                                                        std::string_view operation,
                                                        std::vector<CallAttempt>* attempts) {
  request.url = absl::StrCat(endpoint_.url, request.url);
  int held_tokens = 0;  // tokens taken for the retry in flight, returned if it succeeds
  for (int attempt = 1;; ++attempt) {
    KP_ASSIGN_OR_RETURN(const Credentials credentials, context_.credentials.Get());
    // Each attempt is signed afresh: the date moves on and credentials may have been refreshed.
    KP_RETURN_IF_ERROR(signer_.Sign(request, credentials, endpoint_.scope, context_.clock.Now()));
    ++attempts_;
    const absl::Time sent = context_.clock.Now();
    absl::StatusOr<HttpResponse> response = context_.transport.Send(request);
    if (attempts != nullptr) {
      attempts->push_back(
          CallAttempt{.status = response.ok() ? response->status : 0,
                      .seconds = absl::ToDoubleSeconds(context_.clock.Now() - sent)});
    }
    absl::Status error;
    bool retryable = false;
    bool timed_out = false;
    if (!response.ok()) {
      error = absl::Status(response.status().code(),
                           absl::StrCat(AbslView(operation), ": ", response.status().message()));
      retryable = IsRetryableTransportError(response.status());
      timed_out = response.status().code() == absl::StatusCode::kDeadlineExceeded;
    } else if (response->status >= 200 && response->status < 300) {
      context_.quota.Release(held_tokens > 0 ? held_tokens : context_.retry.success_increment);
      return response;
    } else {
      const AwsError aws_error = ParseAwsError(*response);
      error = ToStatus(aws_error, operation);
      retryable = ClassifyForRetry(aws_error) != RetryKind::kNone;
    }
    if (!retryable) return error;
    if (attempt >= context_.retry.max_attempts) {
      return Annotate(error, absl::StrCat(" (after ", attempt, " attempts)"));
    }
    const int cost = timed_out ? context_.retry.timeout_cost : context_.retry.retry_cost;
    if (!context_.quota.TryAcquire(cost)) {
      return Annotate(error, " (retry quota exhausted)");
    }
    held_tokens = cost;
    context_.clock.SleepFor(RetryBackoff(attempt, context_.random, context_.retry));
  }
}

absl::StatusOr<XmlDocument> AwsClient::CallQuery(const QueryRequest& query) {
  HttpRequest request{.method = "POST", .url = "/", .body = query.Encode()};
  request.SetHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
  KP_ASSIGN_OR_RETURN(const HttpResponse response, Send(std::move(request), query.action()));
  absl::StatusOr<XmlDocument> doc = XmlDocument::Parse(response.body);
  if (!doc.ok()) {
    return absl::Status(doc.status().code(),
                        absl::StrCat(query.action(), ": answer: ", doc.status().message()));
  }
  return doc;
}

absl::StatusOr<nlohmann::json> AwsClient::CallJson(std::string_view target,
                                                   const nlohmann::json& body,
                                                   std::string_view content_type) {
  // dump() throws on invalid UTF-8 unless told otherwise; replacing keeps the call exception-free.
  HttpRequest request{.method = "POST",
                      .url = "/",
                      .body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
  request.SetHeader("Content-Type", content_type);
  request.SetHeader("X-Amz-Target", target);
  KP_ASSIGN_OR_RETURN(const HttpResponse response, Send(std::move(request), target));
  absl::StatusOr<nlohmann::json> json = ParseJson(response.body.empty() ? "{}" : response.body);
  if (!json.ok()) {
    return absl::Status(json.status().code(),
                        absl::StrCat(AbslView(target), ": answer: ", json.status().message()));
  }
  return json;
}

}  // namespace karpenter::aws
