// The production Transport on libcurl. TLS material comes from memory (curl blobs), so the CA and
// client keys of a kubeconfig's *-data fields never touch the disk.
#include <curl/curl.h>

#include <mutex>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/kube/transport.h"

namespace karpenter::kube {
namespace {

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Where libcurl's callbacks put one answer.
struct Sink {
  std::string body;
  size_t max_body = kMaxResponseBytes;
  bool too_large = false;
  // Streaming: set once the status is known to be 2xx.
  CURL* handle = nullptr;
  const std::function<bool(std::string_view)>* on_line = nullptr;
  const std::atomic<bool>* cancel = nullptr;
  bool stopped = false;
};

bool IsSuccess(CURL* handle) {
  long status = 0;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  return status >= 200 && status < 300;
}

// Hands every complete line in `sink.body` to `on_line`; false to stop.
bool DrainLines(Sink& sink) {
  size_t start = 0;
  for (size_t newline; (newline = sink.body.find('\n', start)) != std::string::npos;
       start = newline + 1) {
    const std::string_view line(sink.body.data() + start, newline - start);
    if (!line.empty() && !(*sink.on_line)(line)) return false;
  }
  sink.body.erase(0, start);
  return true;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const size_t n = size * count;
  const bool streaming = sink->on_line != nullptr && IsSuccess(sink->handle);
  const size_t limit = streaming ? kMaxWatchEventBytes : sink->max_body;
  sink->body.append(data, n);
  if (streaming && !DrainLines(*sink)) {
    sink->stopped = true;
    return 0;
  }
  if (sink->body.size() > limit) {
    sink->too_large = true;
    return 0;  // libcurl stops with CURLE_WRITE_ERROR
  }
  return n;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* sink = static_cast<Sink*>(user);
  if (sink->cancel != nullptr && sink->cancel->load()) {
    sink->stopped = true;
    return 1;  // aborts the transfer
  }
  return 0;
}

absl::Status CurlError(CURLcode code, const char* detail) {
  const std::string message =
      absl::StrCat("kube HTTP: ", curl_easy_strerror(code),
                   detail[0] != '\0' ? absl::StrCat(" (", detail, ")") : "");
  if (code == CURLE_OPERATION_TIMEDOUT) return absl::DeadlineExceededError(message);
  if (code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL) {
    return absl::InvalidArgumentError(message);
  }
  return absl::UnavailableError(message);
}

curl_blob Blob(const std::string& data) {
  return curl_blob{const_cast<char*>(data.data()), data.size(), CURL_BLOB_COPY};
}

class CurlTransport final : public Transport {
 public:
  explicit CurlTransport(RestConfig config) : config_(std::move(config)) {
    InitCurlOnce();
    // tls-server-name: the URL names the certificate's host, and libcurl connects to the real
    // one (CONNECT_TO), so SNI and verification use the name the kubeconfig gives.
    base_url_ = config_.server;
    if (!config_.tls_server_name.empty()) {
      const size_t scheme = base_url_.find("://");
      const size_t host_start = scheme == std::string::npos ? 0 : scheme + 3;
      const size_t host_end = base_url_.find_first_of(":/", host_start);
      const std::string host = base_url_.substr(host_start, host_end - host_start);
      base_url_.replace(host_start, host.size(), config_.tls_server_name);
      connect_to_ = absl::StrCat(config_.tls_server_name, ":", ":", host, ":");
    }
  }
  ~CurlTransport() override {
    for (CURL* handle : idle_) curl_easy_cleanup(handle);
  }

  absl::StatusOr<Response> Send(const Request& request, const Credential& credential) override {
    Sink sink;
    return Perform(request, credential, sink, /*total_timeout_ms=*/60'000);
  }

  absl::StatusOr<Response> Stream(const Request& request, const Credential& credential,
                                  const std::function<bool(std::string_view)>& on_line,
                                  const std::atomic<bool>& cancel) override {
    Sink sink;
    sink.on_line = &on_line;
    sink.cancel = &cancel;
    // The server ends a watch after its timeoutSeconds; no client-side total timeout.
    return Perform(request, credential, sink, /*total_timeout_ms=*/0);
  }

 private:
  CURL* TakeHandle() {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.empty()) return curl_easy_init();
    CURL* handle = idle_.back();
    idle_.pop_back();
    curl_easy_reset(handle);  // keeps its connection cache
    return handle;
  }
  void GiveBack(CURL* handle) {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(handle);
  }

  void SetTls(CURL* h, const Credential& credential) {
    if (!config_.ca_pem.empty()) {
      curl_blob ca = Blob(config_.ca_pem);
      curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &ca);
    }
    if (config_.insecure_skip_tls_verify) {
      curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (!credential.client_cert_pem.empty()) {
      curl_blob cert = Blob(credential.client_cert_pem);
      curl_blob key = Blob(credential.client_key_pem);
      curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
      curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &key);
      curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
    }
  }

  absl::StatusOr<Response> Perform(const Request& request, const Credential& credential, Sink& sink,
                                   long total_timeout_ms) {
    CURL* h = TakeHandle();
    if (h == nullptr) return absl::UnavailableError("kube HTTP: curl_easy_init failed");
    sink.handle = h;
    const std::string url = base_url_ + request.path;
    char error[CURL_ERROR_SIZE] = {0};
    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:");
    if (!request.content_type.empty()) {
      headers = curl_slist_append(headers, ("Content-Type: " + request.content_type).c_str());
    }
    if (!credential.token.empty()) {
      headers = curl_slist_append(headers, ("Authorization: Bearer " + credential.token).c_str());
    }
    curl_slist* connect_to = nullptr;
    if (!connect_to_.empty()) connect_to = curl_slist_append(nullptr, connect_to_.c_str());
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    if (!request.body.empty()) {
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    if (connect_to != nullptr) curl_easy_setopt(h, CURLOPT_CONNECT_TO, connect_to);
    if (!config_.proxy_url.empty()) curl_easy_setopt(h, CURLOPT_PROXY, config_.proxy_url.c_str());
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10'000L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, total_timeout_ms);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    SetTls(h, credential);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    if (sink.cancel != nullptr) {
      curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
      curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &OnProgress);
      curl_easy_setopt(h, CURLOPT_XFERINFODATA, &sink);
    }
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
    const CURLcode code = curl_easy_perform(h);
    curl_slist_free_all(headers);
    curl_slist_free_all(connect_to);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    GiveBack(h);
    if (sink.too_large) {
      return absl::OutOfRangeError(absl::StrCat("kube HTTP: answer to ", request.method, " ",
                                                request.path, " exceeds the size limit"));
    }
    if (code != CURLE_OK && !sink.stopped) return CurlError(code, error);
    return Response{.status = static_cast<int>(status), .body = std::move(sink.body)};
  }

  const RestConfig config_;
  std::string base_url_;
  std::string connect_to_;
  std::mutex mu_;
  std::vector<CURL*> idle_;
};

}  // namespace

std::unique_ptr<Transport> NewCurlTransport(const RestConfig& config) {
  return std::make_unique<CurlTransport>(config);
}

}  // namespace karpenter::kube
