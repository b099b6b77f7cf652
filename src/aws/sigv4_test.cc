#include "src/aws/sigv4.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/aws/crypto.h"
#include "src/aws/url.h"

namespace karpenter::aws {
namespace {

// One request to sign, with everything the oracle needs to sign it the same way.
struct Case {
  HttpRequest request;
  Credentials credentials;
  SigningScope scope;
  absl::Time when;
};

// Runs testdata/sigv4_oracle.py (botocore's SigV4Auth) over `cases`; nullopt when botocore is
// missing, so the caller can skip.
std::optional<std::vector<nlohmann::json>> RunOracle(const std::vector<Case>& cases) {
  // One file per test: ctest runs tests in parallel processes.
  const std::string input =
      absl::StrCat(testing::TempDir(), "/sigv4_oracle_", getpid(), "_",
                   testing::UnitTest::GetInstance()->current_test_info()->name(), ".jsonl");
  {
    std::ofstream out(input);
    for (const Case& c : cases) {
      nlohmann::json headers = nlohmann::json::array();
      for (const auto& [name, value] : c.request.headers) headers.push_back({name, value});
      const nlohmann::json line = {{"method", c.request.method},
                                   {"url", c.request.url},
                                   {"headers", headers},
                                   {"body_hex", HexEncode(c.request.body)},
                                   {"access_key", c.credentials.access_key_id},
                                   {"secret_key", c.credentials.secret_access_key},
                                   {"token", c.credentials.session_token},
                                   {"region", c.scope.region},
                                   {"service", c.scope.service},
                                   {"timestamp", AmzDate(c.when)}};
      out << line.dump() << "\n";
    }
  }
  const std::string command =
      absl::StrCat("python3 ", KP_SOURCE_DIR, "/src/aws/testdata/sigv4_oracle.py < ", input);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  std::remove(input.c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  std::vector<nlohmann::json> results;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) results.push_back(nlohmann::json::parse(line));
  return results;
}

// Signs every case with our signer and checks each Authorization header against botocore's.
void ExpectMatchesOracle(std::vector<Case> cases) {
  auto expected = RunOracle(cases);
  if (!expected.has_value()) GTEST_SKIP() << "python3 with botocore is not available";
  ASSERT_EQ(expected->size(), cases.size());
  SigV4Signer signer;
  int matched = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    Case& c = cases[i];
    ASSERT_TRUE(signer.Sign(c.request, c.credentials, c.scope, c.when).ok()) << c.request.url;
    auto parts = signer.Compute(c.request, c.credentials, c.scope, c.when);
    ASSERT_TRUE(parts.ok());
    EXPECT_EQ(c.request.Header("Authorization"), (*expected)[i]["authorization"].get<std::string>())
        << "case " << i << " " << c.request.method << " " << c.request.url << "\nours:\n"
        << parts->canonical_request << "\nbotocore:\n"
        << (*expected)[i]["canonical_request"].get<std::string>();
    matched += c.request.Header("Authorization") == (*expected)[i]["authorization"];
  }
  testing::Test::RecordProperty("matched", matched);
  std::printf("SigV4 oracle: %d of %zu requests signed identically to botocore\n", matched,
              cases.size());
}

// The requests of AWS's published SigV4 test suite (the one botocore's unit tests run), with its
// key, date, region and service; the expected signatures come from botocore at test time.
std::vector<Case> PublishedSuite() {
  const Credentials credentials{.access_key_id = "AKIDEXAMPLE",
                                .secret_access_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"};
  // The suite signs everything at 20150830T123600Z.
  const absl::Time when =
      absl::FromCivil(absl::CivilSecond(2015, 8, 30, 12, 36, 0), absl::UTCTimeZone());
  struct Spec {
    std::string method;
    std::string target;
    HttpHeaders headers;
    std::string body;
    std::string token;
  };
  const std::vector<Spec> specs = {
      {"GET", "/", {}, "", ""},
      {"GET", "/?Param1=value1", {}, "", ""},
      {"GET", "/?Param2=value2&Param1=value1", {}, "", ""},
      {"GET", "/?Param1=value2&Param1=Value1", {}, "", ""},
      {"GET", "/?Param1=value2&Param1=value1", {}, "", ""},
      {"GET",
       "/?-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz="
       "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
       {},
       "",
       ""},
      {"GET", "/?%E1%88%B4=bar", {}, "", ""},
      {"GET", "/%E1%88%B4", {}, "", ""},
      {"GET", "/example%20space/", {}, "", ""},
      {"GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", {}, "", ""},
      {"GET", "/example/..", {}, "", ""},
      {"GET", "/example1/example2/../..", {}, "", ""},
      {"GET", "/./", {}, "", ""},
      {"GET", "/example/.", {}, "", ""},
      {"GET", "//", {}, "", ""},
      {"GET", "//example//", {}, "", ""},
      {"GET",
       "/",
       {{"My-Header1", "value2"}, {"My-Header1", "value2"}, {"My-Header1", "value1"}},
       "",
       ""},
      {"GET", "/", {{"My-Header1", "value1\n  value2\n  value3"}}, "", ""},
      {"GET",
       "/",
       {{"My-Header1", "value4"},
        {"My-Header1", "value1"},
        {"My-Header1", "value3"},
        {"My-Header1", "value2"}},
       "",
       ""},
      {"GET", "/", {{"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}}, "", ""},
      {"POST", "/", {}, "", ""},
      {"POST", "/?Param1=value1", {}, "", ""},
      {"POST", "/", {{"My-Header1", "value1"}}, "", ""},
      {"POST", "/", {{"My-Header1", "VALUE1"}}, "", ""},
      {"POST", "/", {{"Content-Type", "application/x-www-form-urlencoded"}}, "Param1=value1", ""},
      {"POST",
       "/",
       {{"Content-Type", "application/x-www-form-urlencoded; charset=utf8"}},
       "Param1=value1",
       ""},
      {"POST",
       "/",
       {},
       "",
       "AQoDYXdzEPT//////////"
       "wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeo"
       "ikAIzMe7s+qgZ3H5HHvz+09hfWy6dmhqYm6ZpqTl9kmz2zeMJFalWNTH8d5Oh/SRxCT+gRNXN3zEDGPW3bW9Xzy/"
       "ogt/3JpE9xv9Abyv4ZPMk4Ay6fnmn3i+XWx9cPKdyx8gPG5FRfH4QSrrl1Ut/"
       "mRgCNhXmyRPFkB8Ae0dNPQ+p5VddkiM"
       "TSOptfQBfQ9ktcGQtpPWhSZ0tAjuHaPRxqbkTAOuR/AEe3G6fiLI4wMk4d4jpyVmDrxvsB9WiT5e0EiyqHiGxkSLgg"
       "G+q7CsSEdZbw8Py9VbbbGVWnJwxE5QfTjyJS4UoK8XyIbjNNTgCHSWbF5KAzoGWmDx8"},
  };
  std::vector<Case> cases;
  for (const Spec& spec : specs) {
    Case c{.request = {.method = spec.method,
                       .url = absl::StrCat("https://example.amazonaws.com", spec.target),
                       .headers = spec.headers,
                       .body = spec.body},
           .credentials = credentials,
           .scope = {.region = "us-east-1", .service = "service"},
           .when = when};
    c.credentials.session_token = spec.token;
    cases.push_back(std::move(c));
  }
  return cases;
}

TEST(SigV4Suite, PublishedCasesMatchBotocore) { ExpectMatchesOracle(PublishedSuite()); }

TEST(SigV4Suite, GetVanillaMatchesThePublishedSignature) {
  Case c = PublishedSuite().front();
  SigV4Signer signer;
  ASSERT_TRUE(signer.Sign(c.request, c.credentials, c.scope, c.when).ok());
  // The signature printed in AWS's documentation for the suite's get-vanilla request.
  EXPECT_EQ(c.request.Header("Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

// Random requests in the shapes the provider sends, with the characters that trip signers up.
class RequestGenerator {
 public:
  explicit RequestGenerator(uint64_t seed) : rng_(seed) {}

  Case Next() {
    Case c;
    static const std::vector<std::string> kRegions = {"us-east-1", "us-west-2", "eu-central-1",
                                                      "ap-southeast-2"};
    static const std::vector<std::string> kServices = {"ec2", "sts", "iam",
                                                       "sqs", "ssm", "pricing"};
    c.scope = {.region = Pick(kRegions), .service = Pick(kServices)};
    const std::string host =
        Below(3) == 0 ? absl::StrCat("127.0.0.1:", 1024 + Below(60000))
                      : absl::StrCat(c.scope.service, ".", c.scope.region, ".amazonaws.com");
    const bool json =
        c.scope.service == "sqs" || c.scope.service == "ssm" || c.scope.service == "pricing";
    c.request.method = Below(4) == 0 ? "GET" : "POST";
    c.request.url = absl::StrCat(Below(2) ? "https://" : "http://", host, Path(), Query());
    if (json) {
      c.request.headers.emplace_back("Content-Type", "application/x-amz-json-1.1");
      c.request.headers.emplace_back("X-Amz-Target", absl::StrCat("Service_", Word(), ".", Word()));
      c.request.body = nlohmann::json({{"Name", Text()}, {"Values", {Text(), Text()}}}).dump();
    } else {
      c.request.headers.emplace_back("Content-Type",
                                     "application/x-www-form-urlencoded; charset=utf-8");
      QueryPairs form = {{"Action", Word()}, {"Version", "2016-11-15"}};
      for (int i = 0, n = static_cast<int>(Below(6)); i < n; ++i) {
        form.emplace_back(absl::StrCat("Filter.", 1 + Below(3), ".Value.", 1 + Below(3)), Text());
      }
      c.request.body = EncodeQuery(form);
    }
    for (int i = 0, n = static_cast<int>(Below(3)); i < n; ++i) {
      c.request.headers.emplace_back(absl::StrCat("X-Custom-", Below(3)), HeaderValue());
    }
    c.credentials.access_key_id = absl::StrCat("AKIA", Word());
    c.credentials.secret_access_key = absl::StrCat(Word(), "/", Word(), "+", Word());
    if (Below(2) == 0) c.credentials.session_token = absl::StrCat(Word(), "//", Word(), "==");
    c.when = absl::FromUnixSeconds(1400000000 + static_cast<int64_t>(Below(700000000)));
    return c;
  }

 private:
  uint64_t Below(uint64_t n) { return rng_() % n; }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(items.size())];
  }
  std::string Word() {
    std::string out;
    for (int i = 0, n = 1 + static_cast<int>(Below(8)); i < n; ++i) {
      out.push_back(static_cast<char>('a' + Below(26)));
    }
    return out;
  }
  // Text with spaces, UTF-8, and the characters that encoders disagree about.
  std::string Text() {
    static const std::vector<std::string> kPieces = {
        "a", "Z", "0", " ", "~", "+", "=", "%",        "%20",          "&",
        "/", "?", "#", "*", "'", "(", "!", "\xc3\xa9", "\xe1\x88\xb4", "\xe6\x97\xa5\xe6\x9c\xac",
        "-", "_", ".", ":", "@", ",", ";", "$"};
    std::string out;
    for (int i = 0, n = static_cast<int>(Below(10)); i < n; ++i) out += Pick(kPieces);
    return out;
  }
  std::string Path() {
    std::string out;
    for (int i = 0, n = static_cast<int>(Below(4)); i < n; ++i) {
      const uint64_t kind = Below(8);
      if (kind == 0) {
        out += "/.";
      } else if (kind == 1) {
        out += "/..";
      } else if (kind == 2) {
        out += "/";
      } else {
        out += "/" + UriEncode(Text());
      }
    }
    if (Below(3) == 0) out += "/";
    return out;
  }
  std::string Query() {
    QueryPairs pairs;
    static const std::vector<std::string> kKeys = {"a",        "A",  "b",   "key", "Key", "k e",
                                                   "\xc3\xa9", "~t", "x+y", "=",   "%"};
    for (int i = 0, n = static_cast<int>(Below(5)); i < n; ++i) {
      pairs.emplace_back(Pick(kKeys), Text());
    }
    return pairs.empty() ? "" : absl::StrCat("?", EncodeQuery(pairs));
  }
  std::string HeaderValue() {
    static const std::vector<std::string> kPieces = {"v", " ", "  ", "\t", "a b", "=", ",", ";"};
    std::string out;
    for (int i = 0, n = 1 + static_cast<int>(Below(6)); i < n; ++i) out += Pick(kPieces);
    return out;
  }

  std::mt19937_64 rng_;
};

TEST(SigV4Oracle, RandomRequestsMatchBotocore) {
  RequestGenerator generator(20261206);
  std::vector<Case> cases;
  for (int i = 0; i < 300; ++i) cases.push_back(generator.Next());
  ExpectMatchesOracle(std::move(cases));
}

TEST(SigV4, CanonicalUriRemovesDotsAndEncodesTwice) {
  EXPECT_EQ(CanonicalUri(""), "/");
  EXPECT_EQ(CanonicalUri("/a/./b/../c//d/"), "/a/c/d/");
  EXPECT_EQ(CanonicalUri("/example%20space"), "/example%2520space");
  EXPECT_EQ(CanonicalUri("/.."), "/");
}

TEST(SigV4, CanonicalQuerySortsByEncodedKeyThenValue) {
  EXPECT_EQ(CanonicalQuery("b=2&a=2&a=1&A=3"), "A=3&a=1&a=2&b=2");
  EXPECT_EQ(CanonicalQuery("k%20e=x%7Ey&flag"), "flag=&k%20e=x~y");
}

TEST(SigV4, SessionTokenIsSignedAndRemovedWhenGone) {
  SigV4Signer signer;
  HttpRequest request{.method = "POST", .url = "https://sts.us-east-1.amazonaws.com/"};
  Credentials credentials{.access_key_id = "AK", .secret_access_key = "SK", .session_token = "T"};
  const SigningScope scope{.region = "us-east-1", .service = "sts"};
  ASSERT_TRUE(signer.Sign(request, credentials, scope, absl::FromUnixSeconds(0)).ok());
  EXPECT_EQ(request.Header("X-Amz-Security-Token"), "T");
  EXPECT_NE(request.Header("Authorization").find("x-amz-security-token"), std::string::npos);
  credentials.session_token.clear();
  ASSERT_TRUE(signer.Sign(request, credentials, scope, absl::FromUnixSeconds(0)).ok());
  EXPECT_EQ(request.Header("X-Amz-Security-Token"), "");
  EXPECT_EQ(request.Header("Authorization").find("x-amz-security-token"), std::string::npos);
}

TEST(SigV4, SigningKeysAreCachedPerDateRegionServiceAndKey) {
  SigV4Signer signer;
  const Credentials credentials{.access_key_id = "AK", .secret_access_key = "SK"};
  const SigningScope scope{.region = "us-east-1", .service = "ec2"};
  HttpRequest request{.url = "https://ec2.us-east-1.amazonaws.com/"};
  const absl::Time day = absl::FromUnixSeconds(86400 * 100);
  ASSERT_TRUE(signer.Sign(request, credentials, scope, day).ok());
  ASSERT_TRUE(signer.Sign(request, credentials, scope, day + absl::Hours(1)).ok());
  EXPECT_EQ(signer.derivations(), 1);
  ASSERT_TRUE(signer.Sign(request, credentials, scope, day + absl::Hours(24)).ok());
  ASSERT_TRUE(
      signer.Sign(request, credentials, {.region = "us-west-2", .service = "ec2"}, day).ok());
  const Credentials rotated{.access_key_id = "AK", .secret_access_key = "SK2"};
  ASSERT_TRUE(signer.Sign(request, rotated, scope, day).ok());
  EXPECT_EQ(signer.derivations(), 4);
}

TEST(SigV4, MissingKeysAreUnauthenticated) {
  SigV4Signer signer;
  HttpRequest request{.url = "https://ec2.us-east-1.amazonaws.com/"};
  const absl::Status status =
      signer.Sign(request, {}, {.region = "us-east-1", .service = "ec2"}, absl::UnixEpoch());
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated);
}

}  // namespace
}  // namespace karpenter::aws
