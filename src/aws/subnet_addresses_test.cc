#include "src/aws/subnet_addresses.h"

#include "gtest/gtest.h"

namespace karpenter::aws {
namespace {

Subnet Described(const std::string& id, const std::string& zone, int64_t available) {
  return {.id = id, .zone = zone, .available_ips = available};
}

TEST(SubnetAddresses, LaunchesInFlightSpreadOverTheZonesSubnets) {
  SubnetAddresses addresses;
  const std::vector<Subnet> stale = {Described("subnet-a", "z1", 100),
                                     Described("subnet-b", "z1", 90),
                                     Described("subnet-c", "z2", 10)};
  const std::map<std::string, int64_t> use = {{"z1", 29}, {"z2", 29}};
  // EC2 keeps answering the same counts while the launches are in flight.
  EXPECT_EQ(addresses.ChooseForLaunch(stale, use).at("z1").id, "subnet-a");  // a: 71 left
  EXPECT_EQ(addresses.ChooseForLaunch(stale, use).at("z1").id, "subnet-b");  // b: 61 left
  EXPECT_EQ(addresses.ChooseForLaunch(stale, use).at("z1").id, "subnet-a");  // a: 42 left
  // The only subnet of a zone is chosen however few addresses it has.
  EXPECT_EQ(addresses.ChooseForLaunch(stale, {{"z2", 29}}).at("z2").id, "subnet-c");
  // EC2's count for subnet-a moves: it is the truth again, 40 against the 61 of b in flight.
  const std::vector<Subnet> fresh = {Described("subnet-a", "z1", 40),
                                     Described("subnet-b", "z1", 90)};
  EXPECT_EQ(addresses.ChooseForLaunch(fresh, use).at("z1").id, "subnet-b");  // its 61 > 40
}

TEST(SubnetAddresses, ASubnetTheFleetDidNotLaunchIntoGetsItsAddressesBack) {
  SubnetAddresses addresses;
  const std::vector<Subnet> subnets = {Described("subnet-a", "z1", 100),
                                       Described("subnet-b", "z1", 90),
                                       Described("subnet-c", "z2", 50)};
  const std::map<std::string, int64_t> use = {{"z1", 29}, {"z2", 29}};
  auto chosen = addresses.ChooseForLaunch(subnets, use);
  ASSERT_EQ(chosen.at("z1").id, "subnet-a");
  // The fleet launched in z2 only: subnet-a is charged nothing, subnet-c keeps its charge.
  addresses.Settle(chosen, use, {"subnet-c"});
  chosen = addresses.ChooseForLaunch(subnets, use);
  EXPECT_EQ(chosen.at("z1").id, "subnet-a");  // 100 again, not 71
  EXPECT_EQ(chosen.at("z2").available_ips, 21);
}

TEST(SubnetAddresses, ASubnetEc2FoundFullIsTriedLastUntilItsCountMoves) {
  SubnetAddresses addresses;
  const std::vector<Subnet> subnets = {Described("subnet-a", "z1", 100),
                                       Described("subnet-b", "z1", 90)};
  const std::map<std::string, int64_t> use = {{"z1", 29}};
  auto chosen = addresses.ChooseForLaunch(subnets, use);
  ASSERT_EQ(chosen.at("z1").id, "subnet-a");
  // EC2 refused it (InsufficientFreeAddressesInSubnet) although it said 100 were free.
  addresses.Settle(chosen, use, {});
  addresses.MarkFull("subnet-a");
  EXPECT_EQ(addresses.ChooseForLaunch(subnets, use).at("z1").id, "subnet-b");  // b: 61 left
  EXPECT_EQ(addresses.ChooseForLaunch(subnets, use).at("z1").id, "subnet-b");  // a still 0
  // Addresses were freed there: EC2's count moved, and it is the truth again.
  const std::vector<Subnet> freed = {Described("subnet-a", "z1", 120),
                                     Described("subnet-b", "z1", 90)};
  EXPECT_EQ(addresses.ChooseForLaunch(freed, use).at("z1").id, "subnet-a");
}

TEST(SubnetAddresses, TiesGoToTheLowerIdWhateverTheOrder) {
  SubnetAddresses first;
  SubnetAddresses second;
  const std::map<std::string, int64_t> use;
  EXPECT_EQ(
      first.ChooseForLaunch({Described("subnet-b", "z1", 5), Described("subnet-a", "z1", 5)}, use)
          .at("z1")
          .id,
      "subnet-a");
  EXPECT_EQ(
      second.ChooseForLaunch({Described("subnet-a", "z1", 5), Described("subnet-b", "z1", 5)}, use)
          .at("z1")
          .id,
      "subnet-a");
}

}  // namespace
}  // namespace karpenter::aws
