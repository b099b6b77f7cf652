// A bounded reader for the XML answers of the query-protocol services (EC2, STS, IAM, SQS): the
// body is untrusted, so parsing refuses documents beyond a size, nesting depth or node count, and
// lookups go by local name because EC2 answers carry a default namespace and some services prefix.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pugixml.hpp"

namespace karpenter::aws {

struct XmlLimits {
  size_t max_bytes = size_t{64} << 20;
  int max_depth = 64;
  size_t max_nodes = 4'000'000;
};

// A borrowed view of one element; empty when a lookup found nothing, and every lookup on an empty
// node is empty again, so chains need no checks in between.
class XmlNode {
 public:
  XmlNode() = default;
  explicit XmlNode(pugi::xml_node node) : node_(node) {}

  bool empty() const { return !node_; }
  // The element's name without any namespace prefix.
  std::string_view Name() const;
  // The first child element called `local_name`.
  XmlNode Child(std::string_view local_name) const;
  // `Child(a).Child(b)...`.
  XmlNode Path(std::initializer_list<std::string_view> local_names) const;
  // Every child element called `local_name`, in document order.
  std::vector<XmlNode> Children(std::string_view local_name) const;
  // The text directly inside the element ("" for an empty node).
  std::string Text() const;
  // The text of `Child(local_name)`.
  std::string ChildText(std::string_view local_name) const { return Child(local_name).Text(); }

 private:
  pugi::xml_node node_;
};

class XmlDocument {
 public:
  // kInvalidArgument for malformed XML, kOutOfRange when a limit is exceeded.
  static absl::StatusOr<XmlDocument> Parse(std::string_view text, const XmlLimits& limits = {});

  // The document element (e.g. `DescribeSubnetsResponse`).
  XmlNode Root() const;

 private:
  std::unique_ptr<pugi::xml_document> doc_;
};

}  // namespace karpenter::aws
