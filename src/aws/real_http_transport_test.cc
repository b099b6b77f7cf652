#include "src/aws/real_http_transport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace karpenter::aws {
namespace {

// A one-thread HTTP/1.1 server on 127.0.0.1 that answers every request on a connection with
// `body` (or stays silent), and counts connections, so the test sees keep-alive from outside.
class LoopbackServer {
 public:
  LoopbackServer(std::string body, bool silent) : body_(std::move(body)), silent_(silent) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    socklen_t length = sizeof(addr);
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &length);
    port_ = ntohs(addr.sin_port);
    listen(listen_fd_, 8);
    thread_ = std::thread([this] { Serve(); });
  }
  ~LoopbackServer() {
    stopping_ = true;
    shutdown(listen_fd_, SHUT_RDWR);
    if (int fd = client_fd_.load(); fd >= 0) shutdown(fd, SHUT_RDWR);
    thread_.join();
    close(listen_fd_);
  }

  std::string url() const { return absl::StrCat("http://127.0.0.1:", port_, "/path?x=1"); }
  int connections() const { return connections_; }
  const std::string& last_request() const { return last_request_; }

 private:
  void Serve() {
    while (!stopping_) {
      const int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      ++connections_;
      client_fd_ = fd;
      ServeConnection(fd);
      client_fd_ = -1;
      close(fd);
    }
  }

  void ServeConnection(int fd) {
    std::string buffer;
    char chunk[4096];
    while (true) {
      const size_t head_end = buffer.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        size_t body_length = 0;
        const size_t at = buffer.find("Content-Length: ");
        if (at != std::string::npos && at < head_end) {
          const size_t eol = buffer.find("\r\n", at);
          (void)absl::SimpleAtoi(buffer.substr(at + 16, eol - at - 16), &body_length);
        }
        if (buffer.size() >= head_end + 4 + body_length) {
          last_request_ = buffer.substr(0, head_end + 4 + body_length);
          buffer.erase(0, head_end + 4 + body_length);
          if (silent_) continue;
          const std::string response =
              absl::StrCat("HTTP/1.1 200 OK\r\nContent-Length: ", body_.size(),
                           "\r\nX-Test: yes\r\n\r\n", body_);
          if (send(fd, response.data(), response.size(), MSG_NOSIGNAL) < 0) return;
          continue;
        }
      }
      const ssize_t n = recv(fd, chunk, sizeof(chunk), 0);
      if (n <= 0) return;
      buffer.append(chunk, static_cast<size_t>(n));
    }
  }

  const std::string body_;
  const bool silent_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_ = false;
  std::atomic<int> client_fd_ = -1;
  std::atomic<int> connections_ = 0;
  std::string last_request_;
  std::thread thread_;
};

TEST(AwsHttpTransport, RequestsReuseOneConnection) {
  LoopbackServer server("hello", /*silent=*/false);
  auto transport = NewRealHttpTransport({.no_proxy = "*"});
  for (int i = 0; i < 3; ++i) {
    HttpRequest request{.method = "POST", .url = server.url(), .body = "Action=Test"};
    request.SetHeader("X-Amz-Target", "Svc.Op");
    auto response = transport->Send(request);
    ASSERT_TRUE(response.ok()) << response.status();
    EXPECT_EQ(response->status, 200);
    EXPECT_EQ(response->body, "hello");
    EXPECT_EQ(response->Header("x-test"), "yes");
  }
  EXPECT_EQ(server.connections(), 1);
  EXPECT_NE(server.last_request().find("X-Amz-Target: Svc.Op"), std::string::npos);
  EXPECT_NE(server.last_request().find("\r\n\r\nAction=Test"), std::string::npos);
  EXPECT_EQ(server.last_request().find("Expect:"), std::string::npos);
}

TEST(AwsHttpTransport, OversizedAnswerIsOutOfRange) {
  LoopbackServer server(std::string(1000, 'x'), /*silent=*/false);
  auto transport = NewRealHttpTransport({.max_response_bytes = 100, .no_proxy = "*"});
  auto response = transport->Send({.url = server.url()});
  EXPECT_EQ(response.status().code(), absl::StatusCode::kOutOfRange) << response.status();
}

TEST(AwsHttpTransport, SilentServerTimesOut) {
  LoopbackServer server("", /*silent=*/true);
  auto transport = NewRealHttpTransport({.no_proxy = "*"});
  auto response = transport->Send({.url = server.url(), .timeout = absl::Milliseconds(300)});
  EXPECT_EQ(response.status().code(), absl::StatusCode::kDeadlineExceeded) << response.status();
}

TEST(AwsHttpTransport, RefusedConnectionIsUnavailable) {
  int port = 0;
  {
    LoopbackServer server("", /*silent=*/false);
    port = std::stoi(server.url().substr(17));
  }
  auto transport = NewRealHttpTransport({.no_proxy = "*"});
  auto response = transport->Send({.url = absl::StrCat("http://127.0.0.1:", port, "/")});
  EXPECT_EQ(response.status().code(), absl::StatusCode::kUnavailable) << response.status();
}

TEST(AwsHttpTransport, OtherSchemesAreRejected) {
  auto transport = NewRealHttpTransport();
  EXPECT_EQ(transport->Send({.url = "file:///etc/passwd"}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace karpenter::aws
