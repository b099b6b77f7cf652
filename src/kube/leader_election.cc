#include "src/kube/leader_election.h"

#include <atomic>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "src/api/nesting_limit.h"

namespace karpenter::kube {
namespace {

// metav1.MicroTime's wire form: RFC 3339 with exactly six fractional digits.
std::string MicroTime(api::Time time) {
  std::string text = time.Rfc3339();  // "2006-01-02T15:04:05Z"
  const int64_t micros =
      ((time.UnixNanos() % 1'000'000'000 + 1'000'000'000) % 1'000'000'000) / 1000;
  char fraction[16];
  std::snprintf(fraction, sizeof fraction, ".%06lld", static_cast<long long>(micros));
  text.insert(text.size() - 1, fraction);
  return text;
}

absl::StatusOr<nlohmann::json> ParseLease(const std::string& body) {
  KP_RETURN_IF_ERROR(api::CheckJsonText(body));
  nlohmann::json lease = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (lease.is_discarded() || !lease.is_object()) {
    return absl::InvalidArgumentError("Lease: not a JSON object");
  }
  return lease;
}

std::string StringAt(const nlohmann::json& spec, const char* key) {
  auto it = spec.find(key);
  return it != spec.end() && it->is_string() ? it->get<std::string>() : "";
}

int64_t IntAt(const nlohmann::json& spec, const char* key) {
  auto it = spec.find(key);
  return it != spec.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

}  // namespace

struct LeaderElector::Shared {
  std::atomic<bool> alive{true};
};

LeaderElector::LeaderElector(Client& client, Clock& clock, LeaderElectionConfig config,
                             std::function<void()> on_started_leading,
                             std::function<void()> on_stopped_leading)
    : client_(client),
      clock_(clock),
      config_(std::move(config)),
      on_started_(std::move(on_started_leading)),
      on_stopped_(std::move(on_stopped_leading)),
      shared_(std::make_shared<Shared>()) {}

LeaderElector::~LeaderElector() { Stop(); }

std::string LeaderElector::LeasePath() const {
  return absl::StrCat("/apis/coordination.k8s.io/v1/namespaces/", config_.namespace_, "/leases/",
                      config_.name);
}

std::string LeaderElector::Claim(const std::string& stored_json, bool release) {
  nlohmann::json lease = nlohmann::json::parse(stored_json, nullptr, false);
  if (!lease.is_object()) lease = nlohmann::json::object();
  nlohmann::json& spec = lease["spec"];
  if (!spec.is_object()) spec = nlohmann::json::object();
  const std::string now = MicroTime(clock_.Now());
  const bool ours = StringAt(spec, "holderIdentity") == config_.identity;
  if (!ours) {
    spec["acquireTime"] = now;
    spec["leaseTransitions"] = IntAt(spec, "leaseTransitions") + 1;
  }
  spec["holderIdentity"] = release ? "" : config_.identity;
  spec["leaseDurationSeconds"] = release ? 1 : config_.lease_duration_millis / 1000;
  spec["renewTime"] = now;
  return lease.dump();
}

absl::StatusOr<bool> LeaderElector::TryAcquireOrRenew() {
  const int64_t now = clock_.NowMillis();
  absl::StatusOr<std::string> stored = client_.Call("GET", LeasePath());
  if (absl::IsNotFound(stored.status())) {
    nlohmann::json lease = {
        {"apiVersion", "coordination.k8s.io/v1"},
        {"kind", "Lease"},
        {"metadata", {{"name", config_.name}, {"namespace", config_.namespace_}}},
        // Claim counts a new holder as a transition; the first is none.
        {"spec", {{"leaseTransitions", -1}}}};
    absl::StatusOr<std::string> created = client_.Call(
        "POST",
        absl::StrCat("/apis/coordination.k8s.io/v1/namespaces/", config_.namespace_, "/leases"),
        Claim(lease.dump(), /*release=*/false));
    if (absl::IsAlreadyExists(created.status())) return false;  // another candidate was first
    KP_RETURN_IF_ERROR(created.status());
    renewed_at_millis_ = now;
    return true;
  }
  KP_RETURN_IF_ERROR(stored.status());
  KP_ASSIGN_OR_RETURN(nlohmann::json lease, ParseLease(*stored));
  const nlohmann::json spec = lease.value("spec", nlohmann::json::object());
  const Observed record{StringAt(spec, "holderIdentity"), StringAt(spec, "renewTime"),
                        IntAt(spec, "leaseTransitions")};
  if (record != observed_) {
    observed_ = record;
    observed_at_millis_ = now;
  }
  const bool held_by_other = !record.holder.empty() && record.holder != config_.identity;
  if (held_by_other && observed_at_millis_ + config_.lease_duration_millis > now) return false;
  absl::StatusOr<std::string> written = client_.Call("PUT", LeasePath(), Claim(*stored, false));
  // 409: someone else wrote the lease since we read it; they win this round.
  if (absl::IsAborted(written.status())) return false;
  KP_RETURN_IF_ERROR(written.status());
  renewed_at_millis_ = now;
  return true;
}

absl::Status LeaderElector::Release() {
  if (!leading_) return absl::OkStatus();
  leading_ = false;
  absl::StatusOr<std::string> stored = client_.Call("GET", LeasePath());
  absl::Status status = stored.status();
  if (stored.ok() && StringAt(ParseLease(*stored)
                                  .value_or(nlohmann::json::object())
                                  .value("spec", nlohmann::json::object()),
                              "holderIdentity") == config_.identity) {
    status = client_.Call("PUT", LeasePath(), Claim(*stored, /*release=*/true)).status();
  }
  if (on_stopped_) on_stopped_();
  return status;
}

void LeaderElector::Start() {
  shared_->alive = false;  // a loop started before stays stopped
  shared_ = std::make_shared<Shared>();
  std::shared_ptr<Shared> shared = shared_;
  clock_.After(0, [this, shared] {
    if (shared->alive) Tick();
  });
}

void LeaderElector::Stop() { shared_->alive = false; }

void LeaderElector::Tick() {
  absl::StatusOr<bool> held = TryAcquireOrRenew();
  const int64_t now = clock_.NowMillis();
  if (held.ok() && *held && !leading_) {
    leading_ = true;
    if (on_started_) on_started_();
  } else if (leading_ && now - renewed_at_millis_ >= config_.renew_deadline_millis) {
    // No renewal for the renew deadline: another candidate may take over once our lease runs
    // out, so stop reconciling before it does.
    leading_ = false;
    if (on_stopped_) on_stopped_();
  }
  int64_t next = config_.retry_period_millis;
  // Waiting out another holder's lease: look again the moment it runs out by our clock rather
  // than up to a retry period later, so that a dead leader's successor leads within a lease
  // duration and one retry period of its last renewal.
  if (!leading_ && !observed_.holder.empty() && observed_.holder != config_.identity) {
    const int64_t expires_in = observed_at_millis_ + config_.lease_duration_millis - now;
    if (expires_in > 0 && expires_in < next) next = expires_in;
  }
  std::shared_ptr<Shared> shared = shared_;
  clock_.After(next, [this, shared] {
    if (shared->alive) Tick();
  });
}

}  // namespace karpenter::kube
