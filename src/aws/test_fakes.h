// Fakes of the AWS provider's seams for tests: a clock that moves only when told (and when
// something sleeps on it), a fixed `Random`, a transport that answers from a script and logs what
// it was sent, and fixed credentials.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "src/aws/clock.h"
#include "src/aws/credentials.h"
#include "src/aws/http.h"

namespace karpenter::aws {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(absl::Time now = absl::FromUnixSeconds(1'800'000'000)) : now_(now) {}
  absl::Time Now() override { return now_; }
  void SleepFor(absl::Duration duration) override {
    sleeps_.push_back(duration);
    now_ += duration;
  }
  void Advance(absl::Duration duration) { now_ += duration; }
  const std::vector<absl::Duration>& sleeps() const { return sleeps_; }

 private:
  absl::Time now_;
  std::vector<absl::Duration> sleeps_;
};

class FakeRandom final : public Random {
 public:
  explicit FakeRandom(double value = 0.5) : value_(value) {}
  double Uniform01() override { return value_; }

 private:
  double value_;
};

class FakeTransport final : public HttpTransport {
 public:
  using Handler = std::function<absl::StatusOr<HttpResponse>(const HttpRequest&)>;

  // Answers in order; once the script is used up, every call gets `fallback`.
  void Push(absl::StatusOr<HttpResponse> response) { script_.push_back(std::move(response)); }
  void Push(int status, std::string body, HttpHeaders headers = {}) {
    Push(HttpResponse{.status = status, .headers = std::move(headers), .body = std::move(body)});
  }
  // Answers by looking at the request; takes precedence over the script.
  void SetHandler(Handler handler) { handler_ = std::move(handler); }

  absl::StatusOr<HttpResponse> Send(const HttpRequest& request) override {
    requests_.push_back(request);
    if (handler_) return handler_(request);
    if (script_.empty()) return absl::UnavailableError("fake transport: no scripted answer");
    absl::StatusOr<HttpResponse> next = std::move(script_.front());
    script_.pop_front();
    return next;
  }
  const std::vector<HttpRequest>& requests() const { return requests_; }

 private:
  std::deque<absl::StatusOr<HttpResponse>> script_;
  std::vector<HttpRequest> requests_;
  Handler handler_;
};

class StaticCredentialsProvider final : public CredentialsProvider {
 public:
  explicit StaticCredentialsProvider(Credentials credentials)
      : credentials_(std::move(credentials)) {}
  absl::StatusOr<Credentials> Get() override { return credentials_; }

 private:
  Credentials credentials_;
};

}  // namespace karpenter::aws
