// One AWS service endpoint with everything a call needs: credentials, SigV4, the transport,
// error parsing and the retry policy. Query-protocol calls answer XML, JSON-protocol calls JSON;
// the service clients (ec2_client.h, ...) are thin typed layers over these two.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "src/aws/call_metrics.h"
#include "src/aws/clock.h"
#include "src/aws/credentials.h"
#include "src/aws/endpoints.h"
#include "src/aws/http.h"
#include "src/aws/query.h"
#include "src/aws/retry.h"
#include "src/aws/sigv4.h"
#include "src/aws/xml.h"

namespace karpenter::aws {

// What every client of one process shares; none of it is owned by the clients.
struct AwsContext {
  HttpTransport& transport;
  CredentialsProvider& credentials;
  Clock& clock;
  Random& random;
  RetryQuota& quota;
  RetryOptions retry = {};
  // Told of every call once it is over (aws_sdk_go_* metrics); empty: nobody.
  CallObserver observer = {};
};

class AwsClient {
 public:
  AwsClient(AwsContext context, ServiceEndpoint endpoint)
      : context_(context), endpoint_(std::move(endpoint)) {}

  // POSTs the form-encoded query request and parses the XML answer.
  absl::StatusOr<XmlDocument> CallQuery(const QueryRequest& request);
  // POSTs `body` with `X-Amz-Target: target` (e.g. "AmazonSSM.GetParameter") and parses the JSON
  // answer. `content_type` is application/x-amz-json-1.1 for SSM and Pricing, -1.0 for SQS.
  absl::StatusOr<nlohmann::json> CallJson(std::string_view target, const nlohmann::json& body,
                                          std::string_view content_type);
  // Signs and sends `request` (its URL relative to the endpoint, e.g. "/"), retrying as the
  // options say; a non-2xx answer becomes the Status of `ToStatus`.
  absl::StatusOr<HttpResponse> Send(HttpRequest request, std::string_view operation);

  const ServiceEndpoint& endpoint() const { return endpoint_; }
  // Attempts sent so far, retries included (for tests and metrics).
  int attempts() const { return attempts_.load(); }

 private:
  // Send's retry loop; each attempt's status and duration go to `attempts` when it is not null.
  absl::StatusOr<HttpResponse> SendWithRetries(HttpRequest request, std::string_view operation,
                                               std::vector<CallAttempt>* attempts);

  AwsContext context_;
  const ServiceEndpoint endpoint_;
  SigV4Signer signer_;
  std::atomic<int> attempts_ = 0;  // clients are shared by controller threads
};

}  // namespace karpenter::aws
