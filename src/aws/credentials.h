// AWS credentials and the seam that supplies them (the chain in credential_chain.h is the
// production supplier; tests hand in fixed ones).
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace karpenter::aws {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty for long-term keys
  // When temporary credentials stop working; nullopt for long-term keys.
  std::optional<absl::Time> expiration;
  // Which link of the chain produced them ("environment", "shared-credentials-file", ...), for
  // logs and errors; never the secret.
  std::string source;
};

class CredentialsProvider {
 public:
  virtual ~CredentialsProvider() = default;
  // Credentials valid for a while yet (a provider refreshes ahead of expiry). kUnauthenticated when
  // no source has any; kUnavailable when a source could not be reached (worth retrying).
  // Thread-safe.
  virtual absl::StatusOr<Credentials> Get() = 0;
};

}  // namespace karpenter::aws
