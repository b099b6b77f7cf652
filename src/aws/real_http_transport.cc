#include "src/aws/real_http_transport.h"

#include <curl/curl.h>

#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace karpenter::aws {
namespace {

// curl_global_init is not thread-safe, so it runs once before the first handle exists.
void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Where libcurl's callbacks collect one answer.
struct Sink {
  HttpResponse response;
  size_t max_body = 0;
  size_t max_headers = 0;
  size_t header_bytes = 0;
  bool too_large = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const size_t n = size * count;
  if (sink->response.body.size() + n > sink->max_body) {
    sink->too_large = true;
    return 0;  // makes libcurl stop with CURLE_WRITE_ERROR
  }
  sink->response.body.append(data, n);
  return n;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const size_t n = size * count;
  sink->header_bytes += n;
  if (sink->header_bytes > sink->max_headers) {
    sink->too_large = true;
    return 0;
  }
  const absl::string_view line(data, n);
  // A new status line (after `100 Continue`) starts a new set of headers.
  if (absl::StartsWith(line, "HTTP/")) {
    sink->response.headers.clear();
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == absl::string_view::npos) return n;
  std::string name = absl::AsciiStrToLower(absl::StripAsciiWhitespace(line.substr(0, colon)));
  std::string value(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  sink->response.headers.emplace_back(std::move(name), std::move(value));
  return n;
}

absl::Status CurlError(CURLcode code, const char* detail) {
  const std::string message = absl::StrCat(
      "HTTP: ", curl_easy_strerror(code), detail[0] != '\0' ? absl::StrCat(" (", detail, ")") : "");
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return absl::DeadlineExceededError(message);
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return absl::InvalidArgumentError(message);
    default:
      return absl::UnavailableError(message);
  }
}

class RealHttpTransport final : public HttpTransport {
 public:
  explicit RealHttpTransport(HttpTransportOptions options) : options_(std::move(options)) {
    InitCurlOnce();
    handle_ = curl_easy_init();
  }
  ~RealHttpTransport() override {
    if (handle_ != nullptr) curl_easy_cleanup(handle_);
  }
  RealHttpTransport(const RealHttpTransport&) = delete;
  RealHttpTransport& operator=(const RealHttpTransport&) = delete;

  absl::StatusOr<HttpResponse> Send(const HttpRequest& request) override {
    if (!absl::StartsWith(request.url, "http://") && !absl::StartsWith(request.url, "https://")) {
      return absl::InvalidArgumentError(absl::StrCat("HTTP: not an http(s) URL: ", request.url));
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (handle_ == nullptr) return absl::UnavailableError("HTTP: curl_easy_init failed");
    // Reset keeps the connection cache, so the next call reuses the open connection.
    curl_easy_reset(handle_);
    Sink sink{.max_body = options_.max_response_bytes, .max_headers = options_.max_header_bytes};
    char error[CURL_ERROR_SIZE] = {0};
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : request.headers) {
      headers = curl_slist_append(headers, absl::StrCat(name, ": ", value).c_str());
    }
    // AWS never needs `Expect: 100-continue`; it only costs a round trip.
    headers = curl_slist_append(headers, "Expect:");
    const absl::Duration total =
        request.timeout > absl::ZeroDuration() ? request.timeout : options_.total_timeout;
    const long connect_ms =
        static_cast<long>(absl::ToInt64Milliseconds(std::min(options_.connect_timeout, total)));
    CURL* h = handle_;
    curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    if (request.method == "HEAD") curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT") {
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM for DNS timeouts in a threaded program
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(absl::ToInt64Milliseconds(total)));
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);  // AWS does not redirect; a redirect is wrong
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    if (!options_.no_proxy.empty()) curl_easy_setopt(h, CURLOPT_NOPROXY, options_.no_proxy.c_str());
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &sink);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
    const CURLcode code = curl_easy_perform(h);
    curl_slist_free_all(headers);
    if (sink.too_large) {
      return absl::OutOfRangeError(
          absl::StrCat("HTTP: answer from ", request.url, " exceeds the size limit"));
    }
    if (code != CURLE_OK) return CurlError(code, error);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    sink.response.status = static_cast<int>(status);
    return std::move(sink.response);
  }

 private:
  const HttpTransportOptions options_;
  std::mutex mu_;
  CURL* handle_ = nullptr;
};

}  // namespace

std::unique_ptr<HttpTransport> NewRealHttpTransport(HttpTransportOptions options) {
  return std::make_unique<RealHttpTransport>(std::move(options));
}

}  // namespace karpenter::aws
