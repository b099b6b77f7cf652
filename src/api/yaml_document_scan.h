// A parse-only pass of yaml-cpp 0.7 over a multi-document stream, run before `YAML::LoadAll`.
// `LoadAll` loops for as long as its parser has tokens left, and the parser starts a new (null)
// document without consuming anything when a document's first token cannot begin a node (a `,`,
// `]` or `}` left over after the root node, however the scanner got there). `LoadAll` then
// appends empty documents until memory runs out. This pass drives the same parser one document at
// a time and stops at the first document that does not move past the previous one's first token.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::api {

// OK when yaml-cpp reads `yaml` to its end, one document after another. InvalidArgument
// "line N, column M: unexpected ',' at the top level of a document" (naming the stuck token; or
// "unexpected token" when it is not a single flow indicator) when a document would repeat
// forever, or "line N, column M: <parser message>" for a syntax error.
absl::Status CheckYamlDocumentsAdvance(std::string_view yaml);

// The same pass, returning the byte offset at which each document's first token starts, so that
// a reader can build one document at a time (the text between two offsets holds one document).
absl::StatusOr<std::vector<size_t>> YamlDocumentOffsets(std::string_view yaml);

}  // namespace karpenter::api
