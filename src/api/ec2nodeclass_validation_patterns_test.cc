// Differential tests: every hand-written CRD pattern matcher must agree with std::regex
// (ECMAScript, search semantics like the API server) on exhaustive short inputs over an
// alphabet chosen to reach each branch of the pattern.
#include <functional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/ec2nodeclass_validation_internal.h"

namespace karpenter::api::ec2nodeclass_internal {
namespace {

// Calls `visit` with every concatenation of up to `max_tokens` tokens.
void ForEachCombination(const std::vector<std::string>& tokens, size_t max_tokens,
                        const std::function<void(const std::string&)>& visit) {
  std::vector<std::string> current = {""};
  visit("");
  for (size_t length = 1; length <= max_tokens; ++length) {
    std::vector<std::string> next;
    for (const std::string& prefix : current) {
      for (const std::string& token : tokens) {
        next.push_back(prefix + token);
        visit(next.back());
      }
    }
    current = std::move(next);
  }
}

std::vector<std::string> Chars(std::string_view alphabet) {
  std::vector<std::string> out;
  for (char c : alphabet) out.emplace_back(1, c);
  return out;
}

// Returns how many inputs disagree, reporting the first few.
size_t CountDisagreements(const SchemaPattern& pattern, const std::vector<std::string>& tokens,
                          size_t max_tokens, const std::vector<std::string>& extra = {}) {
  const std::regex oracle(std::string(pattern.text), std::regex::ECMAScript);
  size_t disagreements = 0;
  auto check = [&](const std::string& input) {
    bool expected = std::regex_search(input, oracle);
    if (pattern.Matches(input) != expected) {
      if (++disagreements <= 5) {
        ADD_FAILURE() << pattern.text << " on \"" << input << "\": regex says " << expected;
      }
    }
  };
  ForEachCombination(tokens, max_tokens, check);
  for (const std::string& input : extra) check(input);
  return disagreements;
}

TEST(EC2NodeClassPatterns, UnanchoredResourceIdsAgreeWithRegex) {
  EXPECT_EQ(CountDisagreements(kSubnetIdPattern, {"subnet-", "subnet", "-", "a", "Z", "0", "/"}, 4),
            0u);
  EXPECT_EQ(CountDisagreements(kSecurityGroupIdPattern, {"sg-", "sg", "-", "a", "Z", "9"}, 4), 0u);
  EXPECT_EQ(CountDisagreements(kAmiIdPattern, {"ami-", "am", "i-", "b", "_", "3"}, 4), 0u);
}

TEST(EC2NodeClassPatterns, AnchoredIdsAgreeWithRegex) {
  EXPECT_EQ(
      CountDisagreements(kCapacityReservationIdPattern, {"cr-", "c", "r-", "-", "a", "Q", "7"}, 4),
      0u);
  EXPECT_EQ(CountDisagreements(kPlacementGroupIdPattern, {"pg-", "p", "g-", "x", "Y", "5"}, 4), 0u);
  EXPECT_EQ(CountDisagreements(kOwnerIdPattern, Chars("09a"), 5,
                               {"012345678901", "01234567890", "0123456789012", "01234567890a",
                                "a12345678901", "999999999999"}),
            0u);
}

TEST(EC2NodeClassPatterns, AliasFormatAgreesWithRegex) {
  EXPECT_EQ(CountDisagreements(kAliasFormatPattern, Chars("a1@-.\nZ"), 5), 0u);
}

TEST(EC2NodeClassPatterns, VolumeSizeAgreesWithRegex) {
  std::vector<std::string> extra;
  auto add_numbers = [&](int from, int to) {
    for (int n = from; n <= to; ++n) {
      for (const char* unit : {"Gi", "G", "Ti", "T"}) extra.push_back(std::to_string(n) + unit);
    }
  };
  add_numbers(0, 120);
  add_numbers(9990, 10010);
  add_numbers(49990, 50010);
  add_numbers(58990, 59010);
  add_numbers(59990, 60010);
  add_numbers(63990, 64010);
  for (int n = 0; n <= 100000; n += 997) add_numbers(n, n);
  extra.insert(extra.end(), {"059000Gi", "0064T", "123456Gi", "1.5Gi", "1Gi ", " 1Gi"});
  EXPECT_EQ(CountDisagreements(kVolumeSizePattern, Chars("01589GiT"), 5, extra), 0u);
}

TEST(EC2NodeClassPatterns, QuantityAgreesWithRegex) {
  EXPECT_EQ(CountDisagreements(kQuantityPattern, Chars("1.+-eEKiMm"), 4,
                               {"100Mi", "1.5e3", "-1.e-.5", "+.5E+10", "1Ki ", "12345.678Pi",
                                "1.2.3", "1e", "1EE", "1Ei", "1ki", "5%"}),
            0u);
}

TEST(EC2NodeClassPatterns, EvictionThresholdAgreesWithRegex) {
  EXPECT_EQ(CountDisagreements(kEvictionThresholdPattern, Chars("10.%Ki-e"), 5,
                               {"100%", "100.0%", "100.00%", "100.000%", "99.99%", "99.999%",
                                "110%", "5%3", "110GB", "200Mi", "1.5Gi", "%"}),
            0u);
}

TEST(EC2NodeClassPatterns, ConditionTypeAndReasonAgreeWithRegex) {
  EXPECT_EQ(CountDisagreements(kConditionTypePattern, Chars("a-./A_9"), 5,
                               {"karpenter.sh/Ready", "a.b-c/Ready", "A.b/Ready", "a..b/c", "-a/b",
                                "a-/b", "a/b/c", "Ready", "Ready_"}),
            0u);
  EXPECT_EQ(CountDisagreements(kConditionReasonPattern, Chars("aA_,:9-"), 5,
                               {"AMIsReady", "Failed:Launch", "Ends,", "x_"}),
            0u);
}

}  // namespace
}  // namespace karpenter::api::ec2nodeclass_internal
