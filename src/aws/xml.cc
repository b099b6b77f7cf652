#include "src/aws/xml.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace karpenter::aws {
namespace {

std::string_view LocalName(const char* name) {
  std::string_view view(name);
  const size_t colon = view.rfind(':');
  return colon == std::string_view::npos ? view : view.substr(colon + 1);
}

// Walks the tree without recursion (a hostile document must not exhaust the stack) and checks the
// depth and node-count limits.
absl::Status CheckShape(const pugi::xml_document& doc, const XmlLimits& limits) {
  size_t nodes = 0;
  int depth = 0;
  pugi::xml_node node = doc.first_child();
  while (node) {
    if (++nodes > limits.max_nodes) {
      return absl::OutOfRangeError(absl::StrCat("XML: more than ", limits.max_nodes, " nodes"));
    }
    if (node.first_child()) {
      node = node.first_child();
      if (++depth > limits.max_depth) {
        return absl::OutOfRangeError(absl::StrCat("XML: nested deeper than ", limits.max_depth));
      }
      continue;
    }
    while (node && !node.next_sibling()) {
      node = node.parent();
      --depth;
      if (node == doc) return absl::OkStatus();
    }
    if (node) node = node.next_sibling();
  }
  return absl::OkStatus();
}

}  // namespace

std::string_view XmlNode::Name() const { return node_ ? LocalName(node_.name()) : ""; }

XmlNode XmlNode::Child(std::string_view local_name) const {
  for (pugi::xml_node child = node_.first_child(); child; child = child.next_sibling()) {
    if (child.type() == pugi::node_element && LocalName(child.name()) == local_name) {
      return XmlNode(child);
    }
  }
  return XmlNode();
}

XmlNode XmlNode::Path(std::initializer_list<std::string_view> local_names) const {
  XmlNode node = *this;
  for (std::string_view name : local_names) node = node.Child(name);
  return node;
}

std::vector<XmlNode> XmlNode::Children(std::string_view local_name) const {
  std::vector<XmlNode> out;
  for (pugi::xml_node child = node_.first_child(); child; child = child.next_sibling()) {
    if (child.type() == pugi::node_element && LocalName(child.name()) == local_name) {
      out.emplace_back(child);
    }
  }
  return out;
}

std::string XmlNode::Text() const { return node_ ? node_.text().get() : ""; }

absl::StatusOr<XmlDocument> XmlDocument::Parse(std::string_view text, const XmlLimits& limits) {
  if (text.size() > limits.max_bytes) {
    return absl::OutOfRangeError(
        absl::StrCat("XML: ", text.size(), " bytes exceed the limit of ", limits.max_bytes));
  }
  XmlDocument out;
  out.doc_ = std::make_unique<pugi::xml_document>();
  // parse_default expands only the five predefined entities and character references; pugixml
  // never loads external entities or DTDs, so there is no entity-expansion attack to defend.
  const pugi::xml_parse_result result =
      out.doc_->load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!result) {
    return absl::InvalidArgumentError(
        absl::StrCat("XML: ", result.description(), " at offset ", result.offset));
  }
  if (absl::Status shape = CheckShape(*out.doc_, limits); !shape.ok()) return shape;
  if (!out.doc_->document_element()) return absl::InvalidArgumentError("XML: no root element");
  return out;
}

XmlNode XmlDocument::Root() const { return XmlNode(doc_->document_element()); }

}  // namespace karpenter::aws
