#include "src/api/yaml_document_scan.h"

#include <optional>
#include <sstream>
#include <string>

#include "fmt/format.h"
#include "yaml-cpp/eventhandler.h"
#include "yaml-cpp/exceptions.h"
#include "yaml-cpp/mark.h"
#include "yaml-cpp/parser.h"

namespace karpenter::api {
namespace {

// Remembers where the latest document started and ignores everything else: no nodes are built.
class DocumentStartRecorder : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { start_ = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

  const YAML::Mark& start() const { return start_; }

 private:
  YAML::Mark start_;
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
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        fmt::format("line {}, column {}: {}", e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return absl::OkStatus();
}

}  // namespace karpenter::api
