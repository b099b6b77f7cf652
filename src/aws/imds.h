// The EC2 instance metadata service, IMDSv2 only: a session token from `PUT /latest/api/token`
// goes with every read (IMDSv1 is what upstream's launch templates disable on nodes, and the
// controller should not depend on it either). AWS_EC2_METADATA_SERVICE_ENDPOINT moves it (tests),
// AWS_EC2_METADATA_DISABLED=true turns it off.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "src/aws/clock.h"
#include "src/aws/environment.h"
#include "src/aws/http.h"

namespace karpenter::aws {

class ImdsClient {
 public:
  ImdsClient(HttpTransport& transport, const Environment& env, Clock& clock);

  bool disabled() const { return disabled_; }
  // The text at `path` (e.g. "/latest/meta-data/placement/region"). kNotFound for a 404,
  // kUnavailable when IMDS does not answer (not on EC2), kFailedPrecondition when disabled.
  absl::StatusOr<std::string> Get(std::string_view path);

 private:
  absl::StatusOr<std::string> Token();

  HttpTransport& transport_;
  Clock& clock_;
  std::string endpoint_;
  bool disabled_ = false;
  absl::Mutex mu_;
  std::string token_ ABSL_GUARDED_BY(mu_);
  absl::Time token_expiry_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
};

}  // namespace karpenter::aws
