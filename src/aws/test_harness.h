// The faked pieces one AwsClient needs (transport, credentials, clock, random, retry quota),
// wired to a service at 127.0.0.1:1, for the clients' unit tests. A test's harness derives from
// it and adds its client over `client`.
#pragma once

#include <string>

#include "src/aws/aws_client.h"
#include "src/aws/test_fakes.h"

namespace karpenter::aws {

struct FakeAwsHarness {
  FakeAwsHarness(std::string region, std::string service)
      : client(AwsContext{transport, credentials, clock, random, quota},
               {.url = "http://127.0.0.1:1", .scope = {std::move(region), std::move(service)}}) {}

  FakeTransport transport;
  StaticCredentialsProvider credentials{
      Credentials{.access_key_id = "AK", .secret_access_key = "SK"}};
  FakeClock clock;
  FakeRandom random;
  RetryQuota quota;
  AwsClient client;
};

}  // namespace karpenter::aws
