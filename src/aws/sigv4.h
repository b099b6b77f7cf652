// AWS Signature Version 4 for every service but S3 (which encodes paths once and signs the payload
// header; the provider never calls S3). The signer adds Host, X-Amz-Date, X-Amz-Security-Token and
// Authorization, and caches derived signing keys per (date, region, service, key).
#pragma once

#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "src/aws/credentials.h"
#include "src/aws/http.h"

namespace karpenter::aws {

struct SigningScope {
  std::string region;   // "us-west-2"
  std::string service;  // the signing name: "ec2", "ssm", "sqs", "sts", "iam", "pricing"
};

// The pieces of one signature, exposed so tests can compare each step with an oracle.
struct SignatureParts {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signed_headers;
  std::string signature;
  std::string authorization;
};

class SigV4Signer {
 public:
  // Signs `request` in place as of `now`: sets Host (from the URL), X-Amz-Date, the session token
  // when there is one, then Authorization over every header but the hop-by-hop ones.
  absl::Status Sign(HttpRequest& request, const Credentials& credentials, const SigningScope& scope,
                    absl::Time now);

  // What `Sign` computes for a request whose date and host headers are already set.
  absl::StatusOr<SignatureParts> Compute(const HttpRequest& request, const Credentials& credentials,
                                         const SigningScope& scope, absl::Time now);

  // Signing keys derived so far (for the cache test).
  int derivations() const;

 private:
  std::string SigningKey(const Credentials& credentials, std::string_view date,
                         const SigningScope& scope);

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::string> keys_ ABSL_GUARDED_BY(mu_);
  int derivations_ ABSL_GUARDED_BY(mu_) = 0;
};

// The canonical URI of a non-S3 request: dot segments and empty segments removed from the wire
// path, then every byte but unreserved ones and '/' encoded again (so "%20" becomes "%2520").
std::string CanonicalUri(std::string_view wire_path);
// Query pairs decoded, re-encoded with SigV4's rules, sorted by key then value.
std::string CanonicalQuery(std::string_view wire_query);
// "YYYYMMDDTHHMMSSZ" in UTC.
std::string AmzDate(absl::Time time);

}  // namespace karpenter::aws
