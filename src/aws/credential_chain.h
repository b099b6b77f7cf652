// The production `CredentialsProvider`: the SDKs' default chain, resolved on first use and
// refreshed ahead of expiry.
//
// Order: (1) AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN; (2) the shared
// config and credentials files' profile (static keys, or `role_arn` + `web_identity_token_file`);
// (3) web identity from AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE (IRSA) through STS
// AssumeRoleWithWebIdentity; (4) the container endpoint AWS_CONTAINER_CREDENTIALS_FULL_URI (EKS
// Pod Identity) or _RELATIVE_URI (ECS), with AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE; (5) IMDSv2
// role credentials. A source that is configured but fails is an error; the chain does not fall
// through to the next one, so a broken IRSA setup never silently becomes the node's role.
#pragma once

#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "src/aws/clock.h"
#include "src/aws/credentials.h"
#include "src/aws/environment.h"
#include "src/aws/http.h"
#include "src/aws/imds.h"
#include "src/aws/shared_config.h"

namespace karpenter::aws {

class CredentialChain final : public CredentialsProvider {
 public:
  // Temporary credentials are refreshed once fewer than `refresh_window` of their life is left.
  CredentialChain(HttpTransport& transport, const Environment& env, Clock& clock,
                  absl::Duration refresh_window = absl::Minutes(5));

  absl::StatusOr<Credentials> Get() override;
  // Sources consulted so far (each refresh walks the chain again), for tests.
  int resolutions() const;

 private:
  absl::StatusOr<Credentials> Resolve();

  HttpTransport& transport_;
  const Environment& env_;
  Clock& clock_;
  const absl::Duration refresh_window_;
  ImdsClient imds_;
  mutable absl::Mutex mu_;
  std::optional<Credentials> cached_ ABSL_GUARDED_BY(mu_);
  int resolutions_ ABSL_GUARDED_BY(mu_) = 0;
};

// STS AssumeRoleWithWebIdentity with the token read from `token_file` (re-read every time: the
// kubelet rotates it). The call is unsigned, as the token is the credential.
absl::StatusOr<Credentials> AssumeRoleWithWebIdentity(HttpTransport& transport,
                                                      const Environment& env,
                                                      const std::string& role_arn,
                                                      const std::string& token_file,
                                                      const std::string& session_name,
                                                      const std::string& region, Clock& clock);

// The region as the SDKs find it: AWS_REGION, AWS_DEFAULT_REGION, the profile's `region`, then
// IMDS (when `imds` is given). kNotFound when none has one.
absl::StatusOr<std::string> ResolveRegion(const Environment& env, ImdsClient* imds);

}  // namespace karpenter::aws
