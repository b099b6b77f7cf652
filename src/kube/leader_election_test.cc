#include "src/kube/leader_election.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/fakes/fake_clock.h"
#include "src/kube/fake_transport.h"

namespace karpenter::kube {
namespace {

using testing::FakeTransport;

constexpr char kLease[] =
    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/"
    "karpenter-leader-election";

std::string LeaseJson(const std::string& holder, const std::string& renew, int transitions) {
  return R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":)"
         R"("karpenter-leader-election","namespace":"kube-system","resourceVersion":"7",)"
         R"("annotations":{"kept":"yes"}},"spec":{"holderIdentity":")" +
         holder + R"(","leaseDurationSeconds":15,"renewTime":")" + renew +
         R"(","leaseTransitions":)" + std::to_string(transitions) + "}}";
}

struct Fixture {
  fakes::FakeClock clock;
  FakeTransport* transport = nullptr;
  std::unique_ptr<Client> client;
  std::unique_ptr<LeaderElector> elector;
  int started = 0;
  int stopped = 0;
  Fixture() {
    auto owned = std::make_unique<FakeTransport>();
    transport = owned.get();
    client = std::make_unique<Client>(RestConfig{.server = "https://k"}, ClientLimits{}, clock,
                                      std::move(owned));
    elector = std::make_unique<LeaderElector>(
        *client, clock, LeaderElectionConfig{.namespace_ = "kube-system", .identity = "me"},
        [this] { ++started; }, [this] { ++stopped; });
  }
  nlohmann::json LastBody() { return nlohmann::json::parse(transport->sent().back().request.body); }
};

TEST(LeaderElector, CreatesTheLeaseWhenThereIsNone) {
  Fixture f;
  f.transport->Answer(std::string("GET ") + kLease, 404, "");
  f.transport->Answer("POST /apis/coordination.k8s.io/v1/namespaces/kube-system/leases", 201, "{}");
  ASSERT_EQ(*f.elector->TryAcquireOrRenew(), true);
  nlohmann::json body = f.LastBody();
  EXPECT_EQ(body["spec"]["holderIdentity"], "me");
  EXPECT_EQ(body["spec"]["leaseDurationSeconds"], 15);
  EXPECT_EQ(body["spec"]["leaseTransitions"], 0);
  EXPECT_EQ(body["spec"]["renewTime"], "2023-11-14T22:13:20.000000Z");
}

TEST(LeaderElector, WaitsOutAnotherHoldersLeaseByItsOwnClockThenTakesOver) {
  Fixture f;
  const std::string held = LeaseJson("other", "2020-01-01T00:00:00.000000Z", 3);
  for (int i = 0; i < 3; ++i) f.transport->Answer(std::string("GET ") + kLease, 200, held);
  // A renewTime in the past says nothing: the record is new to us, so its lease runs from now.
  EXPECT_EQ(*f.elector->TryAcquireOrRenew(), false);
  f.clock.Advance(14'999);
  EXPECT_EQ(*f.elector->TryAcquireOrRenew(), false);
  f.clock.Advance(1);
  f.transport->Answer(std::string("PUT ") + kLease, 200, "{}");
  EXPECT_EQ(*f.elector->TryAcquireOrRenew(), true);
  nlohmann::json body = f.LastBody();
  EXPECT_EQ(body["spec"]["holderIdentity"], "me");
  EXPECT_EQ(body["spec"]["leaseTransitions"], 4);
  EXPECT_EQ(body["metadata"]["resourceVersion"], "7");  // the write is conditional
  EXPECT_EQ(body["metadata"]["annotations"]["kept"], "yes");
}

TEST(LeaderElector, ARenewingHolderKeepsTheLease) {
  Fixture f;
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("other", "t1", 1));
  EXPECT_EQ(*f.elector->TryAcquireOrRenew(), false);
  f.clock.Advance(10'000);
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("other", "t2", 1));
  EXPECT_EQ(*f.elector->TryAcquireOrRenew(), false);
  f.clock.Advance(10'000);  // 20 s since the first look, 10 s since the renewal
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("other", "t2", 1));
  EXPECT_EQ(*f.elector->TryAcquireOrRenew(), false);
}

TEST(LeaderElector, AStandbyTriesAgainTheMomentTheHoldersLeaseRunsOut) {
  Fixture f;
  const std::string held = LeaseJson("other", "t1", 1);  // never renewed: its holder died
  for (int i = 0; i < 9; ++i) f.transport->Answer(std::string("GET ") + kLease, 200, held);
  f.transport->Answer(std::string("PUT ") + kLease, 200, "{}");
  f.elector->Start();
  f.clock.RunDue();  // first look at 0 s; then every 2 s
  f.clock.Advance(14'000);
  EXPECT_FALSE(f.elector->IsLeader());
  // The lease runs out at 15 s: the next attempt is then, not at the 16 s retry.
  f.clock.Advance(1'000);
  EXPECT_TRUE(f.elector->IsLeader());
  EXPECT_EQ(f.started, 1);
  f.elector->Stop();
}

TEST(LeaderElector, LosingTheWriteRaceIsNotLeading) {
  Fixture f;
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("", "t", 1));
  f.transport->Answer(std::string("PUT ") + kLease, 409, "");
  EXPECT_EQ(*f.elector->TryAcquireOrRenew(), false);
}

TEST(LeaderElector, LeadsRenewsAndStopsLeadingAfterTheRenewDeadline) {
  Fixture f;
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("", "t", 1));
  f.transport->Answer(std::string("PUT ") + kLease, 200, "{}");
  f.elector->Start();
  f.clock.RunDue();
  EXPECT_TRUE(f.elector->IsLeader());
  EXPECT_EQ(f.started, 1);
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("me", "t2", 2));
  f.transport->Answer(std::string("PUT ") + kLease, 200, "{}");
  f.clock.Advance(2'000);  // renewed
  EXPECT_TRUE(f.elector->IsLeader());
  // The server stops answering: renewals fail, and 10 s after the last one we stop leading.
  f.clock.Advance(8'000);
  EXPECT_TRUE(f.elector->IsLeader());
  f.clock.Advance(2'000);
  EXPECT_FALSE(f.elector->IsLeader());
  EXPECT_EQ(f.stopped, 1);
  EXPECT_EQ(f.started, 1);
  f.elector->Stop();
}

TEST(LeaderElector, ReleaseEmptiesTheHolder) {
  Fixture f;
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("", "t", 1));
  f.transport->Answer(std::string("PUT ") + kLease, 200, "{}");
  f.elector->Start();
  f.clock.RunDue();
  f.elector->Stop();
  ASSERT_TRUE(f.elector->IsLeader());
  f.transport->Answer(std::string("GET ") + kLease, 200, LeaseJson("me", "t", 2));
  f.transport->Answer(std::string("PUT ") + kLease, 200, "{}");
  ASSERT_TRUE(f.elector->Release().ok());
  nlohmann::json body = f.LastBody();
  EXPECT_EQ(body["spec"]["holderIdentity"], "");
  EXPECT_EQ(body["spec"]["leaseDurationSeconds"], 1);
  EXPECT_EQ(body["spec"]["leaseTransitions"], 2);
  EXPECT_FALSE(f.elector->IsLeader());
  EXPECT_EQ(f.stopped, 1);
}

}  // namespace
}  // namespace karpenter::kube
