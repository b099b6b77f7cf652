#include "src/aws/xml.h"

#include <string>

#include "gtest/gtest.h"
#include "src/aws/query.h"

namespace karpenter::aws {
namespace {

TEST(AwsXml, ReadsByLocalNameThroughNamespaces) {
  auto doc = XmlDocument::Parse(
      R"(<?xml version="1.0"?><DescribeSubnetsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
         <requestId>r-1</requestId><subnetSet><item><subnetId>subnet-1</subnetId></item>
         <item><subnetId>subnet-2</subnetId></item></subnetSet><ns:x xmlns:ns="u">v &amp; w</ns:x>
         </DescribeSubnetsResponse>)");
  ASSERT_TRUE(doc.ok()) << doc.status();
  const XmlNode root = doc->Root();
  EXPECT_EQ(root.Name(), "DescribeSubnetsResponse");
  const auto items = root.Child("subnetSet").Children("item");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[1].ChildText("subnetId"), "subnet-2");
  EXPECT_EQ(root.ChildText("x"), "v & w");
  EXPECT_TRUE(root.Path({"missing", "deeper"}).empty());
  EXPECT_EQ(root.Path({"missing", "deeper"}).Text(), "");
}

TEST(AwsXml, MalformedIsInvalidArgument) {
  EXPECT_EQ(XmlDocument::Parse("<a><b></a>").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(XmlDocument::Parse("").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(AwsXml, LimitsAreOutOfRange) {
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "<a>";
  for (int i = 0; i < 100; ++i) deep += "</a>";
  EXPECT_EQ(XmlDocument::Parse(deep).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(XmlDocument::Parse(deep, {.max_depth = 200}).ok());
  std::string wide = "<r>";
  for (int i = 0; i < 50; ++i) wide += "<i/>";
  wide += "</r>";
  EXPECT_EQ(XmlDocument::Parse(wide, {.max_nodes = 20}).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(XmlDocument::Parse(wide, {.max_bytes = 10}).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST(AwsXml, EntityDefinitionsAreNotExpanded) {
  auto doc = XmlDocument::Parse(
      R"(<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><r>&b;</r>)");
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->Root().Text().find("aaaa"), std::string::npos);
}

TEST(AwsQuery, FlattensListsAndFilters) {
  QueryRequest request("DescribeSubnets", "2016-11-15");
  request.SetList("SubnetId", {"subnet-1", "subnet-2"})
      .SetFilters({{.name = "tag:karpenter.sh/discovery", .values = {"my cluster"}},
                   {.name = "state", .values = {"available", "pending"}}})
      .Set("NextToken", "a+b/c=");
  EXPECT_EQ(request.Encode(),
            "Action=DescribeSubnets&Version=2016-11-15&SubnetId.1=subnet-1&SubnetId.2=subnet-2"
            "&Filter.1.Name=tag%3Akarpenter.sh%2Fdiscovery&Filter.1.Value.1=my%20cluster"
            "&Filter.2.Name=state&Filter.2.Value.1=available&Filter.2.Value.2=pending"
            "&NextToken=a%2Bb%2Fc%3D");
}

}  // namespace
}  // namespace karpenter::aws
