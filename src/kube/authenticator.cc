#include "src/kube/authenticator.h"

#include "absl/strings/strip.h"
#include "src/kube/bounded_file.h"

namespace karpenter::kube {

Authenticator::Authenticator(RestConfig config, Clock& clock, Runner run_plugin)
    : config_(std::move(config)), clock_(clock), run_plugin_(std::move(run_plugin)) {}

absl::StatusOr<Credential> Authenticator::Current() {
  std::lock_guard<std::mutex> lock(mu_);
  if (config_.exec) return FromPlugin();
  if (!config_.token_file.empty()) return FromTokenFile();
  return Credential{.token = config_.token,
                    .client_cert_pem = config_.client_cert_pem,
                    .client_key_pem = config_.client_key_pem};
}

void Authenticator::Invalidate() {
  std::lock_guard<std::mutex> lock(mu_);
  cached_.reset();
}

absl::StatusOr<Credential> Authenticator::FromTokenFile() {
  const int64_t now = clock_.NowMillis();
  if (cached_ && now - read_at_millis_ < kTokenFileRefreshMillis) return *cached_;
  absl::StatusOr<std::string> token = ReadBoundedFile(config_.token_file, "tokenFile");
  if (!token.ok()) {
    // A token being rotated may be briefly unreadable; the last one read is still the best bet.
    if (cached_) return *cached_;
    return token.status();
  }
  cached_ = Credential{.token = std::string(absl::StripAsciiWhitespace(*token)),
                       .client_cert_pem = config_.client_cert_pem,
                       .client_key_pem = config_.client_key_pem};
  read_at_millis_ = now;
  return *cached_;
}

absl::StatusOr<Credential> Authenticator::FromPlugin() {
  if (cached_ && (!cached_->expires || clock_.Now() < *cached_->expires)) return *cached_;
  KP_ASSIGN_OR_RETURN(Credential credential, run_plugin_(config_));
  cached_ = credential;
  return credential;
}

}  // namespace karpenter::kube
