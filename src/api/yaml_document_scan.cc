#include "src/api/yaml_document_scan.h"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "src/api/nesting_limit.h"
#include "yaml-cpp/eventhandler.h"
#include "yaml-cpp/exceptions.h"
#include "yaml-cpp/mark.h"
#include "yaml-cpp/parser.h"

namespace karpenter::api {
namespace {

// Remembers where the latest document started, and the first collection nested deeper than
// kMaxNestingDepth with its path; no nodes are built.
class DocumentStartRecorder : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    start_ = mark;
    frames_.clear();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { NodeDone(); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { NodeDone(); }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string& value) override {
    if (!frames_.empty() && !frames_.back().is_sequence && frames_.back().at_key) {
      frames_.back().key = value;
    }
    NodeDone();
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    Open(mark, true);
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Open(mark, false);
  }
  void OnMapEnd() override { Close(); }

  const YAML::Mark& start() const { return start_; }
  const absl::Status& too_deep() const { return too_deep_; }

 private:
  struct Frame {
    bool is_sequence = false;
    bool at_key = true;  // in a mapping: whether the next node is a key
    std::string key;
    size_t index = 0;
  };

  void Open(const YAML::Mark& mark, bool is_sequence) {
    if (frames_.size() == static_cast<size_t>(kMaxNestingDepth) && too_deep_.ok()) {
      std::vector<NestingStep> path;
      path.reserve(frames_.size());
      for (const Frame& frame : frames_) {
        path.push_back({.is_index = frame.is_sequence,
                        .key = frame.at_key ? "<key>" : frame.key,
                        .index = frame.index});
      }
      too_deep_ = NestingTooDeep(mark.line + 1, mark.column + 1, path);
    }
    frames_.push_back({.is_sequence = is_sequence});
  }
  void Close() {
    if (!frames_.empty()) frames_.pop_back();
    NodeDone();
  }
  // A node of the innermost collection is complete: move to the next index, or between key and
  // value.
  void NodeDone() {
    if (frames_.empty()) return;
    Frame& frame = frames_.back();
    if (frame.is_sequence) {
      ++frame.index;
    } else {
      frame.at_key = !frame.at_key;
    }
  }

  YAML::Mark start_;
  std::vector<Frame> frames_;
  absl::Status too_deep_;
};

// The byte at yaml-cpp's 0-based line and column (it counts bytes and breaks lines at LF only).
std::optional<char> ByteAt(std::string_view yaml, const YAML::Mark& mark) {
  size_t offset = 0;
  for (int line = 0; line < mark.line; ++line) {
    offset = yaml.find('\n', offset);
    if (offset == std::string_view::npos) return std::nullopt;
    ++offset;
  }
  offset += static_cast<size_t>(mark.column);
  if (offset >= yaml.size()) return std::nullopt;
  return yaml[offset];
}

absl::Status StuckAt(std::string_view yaml, const YAML::Mark& mark) {
  std::optional<char> byte = ByteAt(yaml, mark);
  std::string what = byte && (*byte == ',' || *byte == ']' || *byte == '}')
                         ? fmt::format("'{}'", *byte)
                         : std::string("token");
  return absl::InvalidArgumentError(
      fmt::format("line {}, column {}: unexpected {} at the top level of a document", mark.line + 1,
                  mark.column + 1, what));
}

}  // namespace

absl::Status CheckYamlDocumentsAdvance(std::string_view yaml) {
  return YamlDocumentOffsets(yaml).status();
}

absl::StatusOr<std::vector<size_t>> YamlDocumentOffsets(std::string_view yaml) {
  std::vector<size_t> offsets;
  std::istringstream stream{std::string(yaml)};
  DocumentStartRecorder recorder;
  std::optional<YAML::Mark> previous;
  // yaml-cpp reports problems by throwing; they are turned into a Status here.
  try {
    YAML::Parser parser(stream);
    while (parser.HandleNextDocument(recorder)) {
      // Every document but a stuck one consumes at least one token, so its successor starts
      // later in the stream.
      if (previous && previous->pos == recorder.start().pos) {
        return StuckAt(yaml, recorder.start());
      }
      previous = recorder.start();
      KP_RETURN_IF_ERROR(recorder.too_deep());
      offsets.push_back(static_cast<size_t>(recorder.start().pos));
    }
  } catch (const YAML::Exception& e) {
    // yaml-cpp's own depth guard ("bad file") fires deeper than ours, after the events that
    // named the path.
    KP_RETURN_IF_ERROR(recorder.too_deep());
    return absl::InvalidArgumentError(
        fmt::format("line {}, column {}: {}", e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return offsets;
}

}  // namespace karpenter::api
