// Selector-term rules of EC2NodeClass validation (subnets, security groups, capacity
// reservations, AMIs), following the cases of the upstream CEL suite.
#include <map>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/ec2nodeclass_testing.h"

namespace karpenter::api {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

using Tags = std::map<std::string, std::string>;

TEST(EC2NodeClassSubnetTerms, TagsOrIdAreValid) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.subnet_selector_terms = {SubnetSelectorTerm{.tags = {{"test", "testvalue"}}},
                                           SubnetSelectorTerm{.id = "subnet-12345749"}};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassSubnetTerms, MissingListIsRequired) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.subnet_selector_terms.clear();
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.subnetSelectorTerms",
                                       "Required value: subnetSelectorTerms cannot be empty")));
}

TEST(EC2NodeClassSubnetTerms, TermWithoutTagsOrIdIsRejectedAtTheTerm) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.subnet_selector_terms = {SubnetSelectorTerm{.tags = {{"a", "b"}}},
                                           SubnetSelectorTerm{}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.subnetSelectorTerms[1]",
                                       "Invalid value: \"object\": expected at least one, got "
                                       "none, ['tags', 'id']")));
}

TEST(EC2NodeClassSubnetTerms, EmptyTagKeyOrValueIsRejectedInAnyTerm) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.subnet_selector_terms = {SubnetSelectorTerm{.tags = {{"test", "testvalue"}}},
                                           SubnetSelectorTerm{.tags = {{"test2", "v2"}}},
                                           SubnetSelectorTerm{.tags = {{"test", ""}}},
                                           SubnetSelectorTerm{.tags = {{"", "testvalue4"}}}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.subnetSelectorTerms[2].tags[test]",
                                       "empty tag keys or values aren't supported"),
                          FieldErrorIs("spec.subnetSelectorTerms[3].tags[]",
                                       "empty tag keys or values aren't supported")));
}

TEST(EC2NodeClassSubnetTerms, IdMustMatchPattern) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.subnet_selector_terms = {SubnetSelectorTerm{.id = "sn-123"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.subnetSelectorTerms[0].id",
                                       "Invalid value: \"sn-123\": should match "
                                       "'subnet-[0-9a-z]+'")));
}

TEST(EC2NodeClassSubnetTerms, IdWithTagsIsRejectedOnlyWhenEveryTermMixesThem) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  const SubnetSelectorTerm mixed{.tags = {{"test", "testvalue"}}, .id = "subnet-12345749"};
  node_class.spec.subnet_selector_terms = {mixed};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.subnetSelectorTerms",
                                       "Invalid value: \"array\": 'id' is mutually exclusive, "
                                       "cannot be set with a combination of other fields in a "
                                       "subnet selector term")));
  // The CRD's rule is `!self.all(...)`: one clean term makes the list acceptable.
  node_class.spec.subnet_selector_terms = {mixed, SubnetSelectorTerm{.id = "subnet-1"}};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassSubnetTerms, AtMostThirtyTermsAndTwentyTags) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.subnet_selector_terms.assign(31, SubnetSelectorTerm{.id = "subnet-1"});
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.subnetSelectorTerms",
                                       "Too many: 31: must have at most 30 items")));
  Tags tags;
  for (int i = 0; i < 21; ++i) tags["k" + std::to_string(i)] = "v";
  node_class.spec.subnet_selector_terms = {SubnetSelectorTerm{.tags = tags}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.subnetSelectorTerms[0].tags",
                                       "Too many: 21: must have at most 20 items")));
}

TEST(EC2NodeClassSecurityGroupTerms, TagsIdOrNameAreValid) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.security_group_selector_terms = {
      SecurityGroupSelectorTerm{.tags = {{"test", "testvalue"}}},
      SecurityGroupSelectorTerm{.id = "sg-12345749"},
      SecurityGroupSelectorTerm{.name = "testname"}};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassSecurityGroupTerms, MissingListEmptyTermAndBadTags) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.security_group_selector_terms.clear();
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.securityGroupSelectorTerms",
                                       "securityGroupSelectorTerms cannot be empty")));
  node_class.spec.security_group_selector_terms = {SecurityGroupSelectorTerm{},
                                                   SecurityGroupSelectorTerm{.tags = {{"", "v"}}}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.securityGroupSelectorTerms[0]",
                                       "expected at least one, got none, ['tags', 'id', 'name']"),
                          FieldErrorIs("spec.securityGroupSelectorTerms[1].tags[]",
                                       "empty tag keys or values aren't supported")));
}

TEST(EC2NodeClassSecurityGroupTerms, IdPatternAndMaxItems) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.security_group_selector_terms = {SecurityGroupSelectorTerm{.id = "sgr-1"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.securityGroupSelectorTerms[0].id",
                                       "should match 'sg-[0-9a-z]+'")));
  node_class.spec.security_group_selector_terms.assign(31, SecurityGroupSelectorTerm{.name = "a"});
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.securityGroupSelectorTerms", "Too many: 31")));
}

TEST(EC2NodeClassSecurityGroupTerms, IdAndNameAreEachExclusive) {
  const std::string id_message =
      "'id' is mutually exclusive, cannot be set with a combination of other fields in a security "
      "group selector term";
  const std::string name_message =
      "'name' is mutually exclusive, cannot be set with a combination of other fields in a "
      "security group selector term";
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.security_group_selector_terms = {
      SecurityGroupSelectorTerm{.tags = {{"test", "testvalue"}}, .id = "sg-12345749"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.securityGroupSelectorTerms", id_message)));
  node_class.spec.security_group_selector_terms = {
      SecurityGroupSelectorTerm{.id = "sg-12345749", .name = "my-security-group"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.securityGroupSelectorTerms", id_message),
                          FieldErrorIs("spec.securityGroupSelectorTerms", name_message)));
  node_class.spec.security_group_selector_terms = {
      SecurityGroupSelectorTerm{.tags = {{"test", "testvalue"}}, .name = "my-security-group"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.securityGroupSelectorTerms", name_message)));
}

TEST(EC2NodeClassCapacityReservationTerms, ValidTermsAndAbsentList) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.capacity_reservation_selector_terms = {
      CapacityReservationSelectorTerm{.tags = {{"test", "testvalue"}}},
      CapacityReservationSelectorTerm{.id = "cr-12345749"},
      CapacityReservationSelectorTerm{.tags = {{"test", "testvalue"}}, .owner_id = "012345678901"},
      CapacityReservationSelectorTerm{.instance_match_criteria = "open"},
      CapacityReservationSelectorTerm{.instance_match_criteria = "targeted"},
      CapacityReservationSelectorTerm{.tags = {{"test", "testvalue"}},
                                      .owner_id = "012345678901",
                                      .instance_match_criteria = "targeted"}};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassCapacityReservationTerms, FieldPatternsAndEnum) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.capacity_reservation_selector_terms = {
      CapacityReservationSelectorTerm{.id = "r-12345749"},
      CapacityReservationSelectorTerm{.tags = {{"test", "v"}}, .owner_id = "01234567890"},
      CapacityReservationSelectorTerm{.instance_match_criteria = "invalid"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.capacityReservationSelectorTerms[0].id",
                                       "should match '^cr-[0-9a-z]+$'"),
                          FieldErrorIs("spec.capacityReservationSelectorTerms[1].ownerID",
                                       "Invalid value: \"01234567890\": should match "
                                       "'^[0-9]{12}$'"),
                          FieldErrorIs("spec.capacityReservationSelectorTerms[2]."
                                       "instanceMatchCriteria",
                                       "Unsupported value: \"invalid\"")));
}

TEST(EC2NodeClassCapacityReservationTerms, TermNeedsTagsIdOrCriteria) {
  const std::string message =
      "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']";
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.capacity_reservation_selector_terms = {
      CapacityReservationSelectorTerm{},
      CapacityReservationSelectorTerm{.owner_id = "012345678901"},
      CapacityReservationSelectorTerm{.tags = {{"", "testvalue"}}}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.capacityReservationSelectorTerms[0]", message),
                          FieldErrorIs("spec.capacityReservationSelectorTerms[1]", message),
                          FieldErrorIs("spec.capacityReservationSelectorTerms[2].tags[]",
                                       "empty tag keys or values aren't supported")));
}

TEST(EC2NodeClassCapacityReservationTerms, IdIsExclusive) {
  const std::string message =
      "'id' is mutually exclusive, cannot be set along with other fields in a capacity "
      "reservation selector term";
  for (const CapacityReservationSelectorTerm& term :
       {CapacityReservationSelectorTerm{.tags = {{"test", "v"}}, .id = "cr-12345749"},
        CapacityReservationSelectorTerm{.id = "cr-12345749", .owner_id = "012345678901"},
        CapacityReservationSelectorTerm{.id = "cr-12345749", .instance_match_criteria = "open"}}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.capacity_reservation_selector_terms = {term};
    EXPECT_THAT(ValidationErrors(node_class),
                ElementsAre(FieldErrorIs("spec.capacityReservationSelectorTerms", message)));
  }
}

TEST(EC2NodeClassAMITerms, EachSelectorKindIsValid) {
  for (const AMISelectorTerm& term :
       {AMISelectorTerm{.tags = {{"test", "testvalue"}}}, AMISelectorTerm{.id = "ami-12345749"},
        AMISelectorTerm{.name = "testname"}, AMISelectorTerm{.name = "testname", .owner = "o"},
        AMISelectorTerm{.tags = {{"test", "testvalue"}}, .owner = "testowner"},
        AMISelectorTerm{.ssm_parameter = "/aws/service/eks/x"}}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_selector_terms = {term};
    EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  }
}

TEST(EC2NodeClassAMITerms, MissingListAndEmptyTerm) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_selector_terms.clear();
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiSelectorTerms",
                                       "Required value: should have at least 1 items")));
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.owner = "self"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0]",
                                       "expected at least one, got none, ['tags', 'id', 'name', "
                                       "'alias', 'ssmParameter']")));
}

TEST(EC2NodeClassAMITerms, IdPatternTagsAndMaxItems) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.id = "img-1"},
                                        AMISelectorTerm{.tags = {{"k", ""}}}};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0].id", "should match 'ami-[0-9a-z]+'"),
                  FieldErrorIs("spec.amiSelectorTerms[1].tags[k]",
                               "empty tag keys or values aren't supported")));
  node_class.spec.ami_selector_terms.assign(31, AMISelectorTerm{.name = "n"});
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiSelectorTerms", "Too many: 31")));
}

TEST(EC2NodeClassAMITerms, IdCannotBeCombinedWithOtherFields) {
  for (const AMISelectorTerm& term :
       {AMISelectorTerm{.tags = {{"test", "testvalue"}}, .id = "ami-1234749"},
        AMISelectorTerm{.id = "ami-1234749", .name = "my-custom-ami"},
        AMISelectorTerm{.id = "ami-1234749", .owner = "123456789"}}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_selector_terms = {term};
    EXPECT_THAT(ValidationErrors(node_class),
                ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0]",
                                         "'id' is mutually exclusive, cannot be set with a "
                                         "combination of other fields in amiSelectorTerms")));
  }
}

TEST(EC2NodeClassAMITerms, AliasCannotBeCombinedWithOtherFields) {
  for (const AMISelectorTerm& term :
       {AMISelectorTerm{.alias = "al2023@latest", .tags = {{"test", "testvalue"}}},
        AMISelectorTerm{.alias = "al2023@latest", .name = "my-custom-ami"},
        AMISelectorTerm{.alias = "al2023@latest", .owner = "123456789"}}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_selector_terms = {term};
    EXPECT_THAT(ValidationErrors(node_class),
                ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0]",
                                         "'alias' is mutually exclusive, cannot be set with a "
                                         "combination of other fields in amiSelectorTerms")));
  }
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = "al2023@latest", .id = "ami-1"}};
  EXPECT_THAT(
      ValidationErrors(node_class),
      ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0]", "'id' is mutually exclusive"),
                  FieldErrorIs("spec.amiSelectorTerms[0]", "'alias' is mutually exclusive")));
}

TEST(EC2NodeClassAMITerms, AliasMustBeTheOnlyTerm) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = "al2023@latest"},
                                        AMISelectorTerm{.id = "ami-1234749"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiSelectorTerms",
                                       "Invalid value: \"array\": 'alias' is mutually exclusive, "
                                       "cannot be set with a combination of other "
                                       "amiSelectorTerms")));
}

TEST(EC2NodeClassAMITerms, ValidAliases) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"al2@latest", "AL2"},
      {"al2@v20240625", "AL2"},
      {"al2023@latest", "AL2023"},
      {"al2023@v20240625", "AL2023"},
      {"bottlerocket@latest", "Bottlerocket"},
      {"bottlerocket@1.10.0", "Bottlerocket"},
      {"windows2019@latest", "Windows2019"},
      {"windows2022@latest", "Windows2022"},
      {"windows2025@latest", "Windows2025"}};
  for (const auto& [alias, family] : cases) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_family = family;
    node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = alias}};
    EXPECT_THAT(ValidationErrors(node_class), IsEmpty()) << alias;
  }
}

TEST(EC2NodeClassAMITerms, MalformedAliasesAreRejectedAtTheAlias) {
  const std::string format =
      "Invalid value: \"string\": 'alias' is improperly formatted, must match the format "
      "'family@version'";
  const std::string family =
      "family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', "
      "'windows2019', 'windows2022', 'windows2025'";
  for (const char* alias : {"al2023", "al2023@", "al2023-latest"}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_family.reset();
    node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = alias}};
    if (std::string(alias) == "al2023-latest") {
      EXPECT_THAT(ValidationErrors(node_class),
                  ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0].alias", format),
                              FieldErrorIs("spec.amiSelectorTerms[0].alias", family)));
    } else {
      EXPECT_THAT(ValidationErrors(node_class),
                  ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0].alias", format)))
          << alias;
    }
  }
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_family.reset();
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = "@latest"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0].alias", format),
                          FieldErrorIs("spec.amiSelectorTerms[0].alias", family)));
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = "ubuntu@latest"}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0].alias", family)));
}

TEST(EC2NodeClassAMITerms, WindowsAliasesOnlyAllowLatest) {
  for (const char* family : {"windows2019", "windows2022", "windows2025"}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.ami_family.reset();
    node_class.spec.ami_selector_terms = {
        AMISelectorTerm{.alias = std::string(family) + "@v1.0.0"}};
    EXPECT_THAT(ValidationErrors(node_class),
                ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0].alias",
                                         "windows families may only specify version 'latest'")))
        << family;
  }
}

TEST(EC2NodeClassAMITerms, AliasLongerThanThirtyCharactersIsTooLong) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = "al2023@v2024062500000000000000"}};
  ASSERT_EQ(node_class.spec.ami_selector_terms[0].alias.size(), 30u);
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  node_class.spec.ami_selector_terms[0].alias += "0";
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.amiSelectorTerms[0].alias",
                                       "Too long: may not be longer than 30")));
}

}  // namespace
}  // namespace karpenter::api
