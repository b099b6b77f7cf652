#include "src/api/nesting_limit.h"

#include "fmt/format.h"

namespace karpenter::api {
namespace {

// Steps shown at each end of a long path.
constexpr size_t kPathHead = 6;
constexpr size_t kPathTail = 3;

void AppendStep(std::string& out, const NestingStep& step) {
  if (step.is_index) {
    out += fmt::format("[{}]", step.index);
    return;
  }
  if (!out.empty()) out += '.';
  out += step.key;
}

std::string FormatPath(const std::vector<NestingStep>& path) {
  std::string out;
  if (path.size() <= kPathHead + kPathTail) {
    for (const NestingStep& step : path) AppendStep(out, step);
    return out.empty() ? "<root>" : out;
  }
  for (size_t i = 0; i < kPathHead; ++i) AppendStep(out, path[i]);
  std::string tail;
  for (size_t i = path.size() - kPathTail; i < path.size(); ++i) AppendStep(tail, path[i]);
  return out + "..." + tail;
}

// A container being scanned: its current key or index, which becomes a step of its children's
// path.
struct Frame {
  bool is_array = false;
  std::string_view key;
  size_t index = 0;
};

}  // namespace

absl::Status NestingTooDeep(int line, int column, const std::vector<NestingStep>& path) {
  return absl::InvalidArgumentError(
      fmt::format("line {}, column {}: nested deeper than {} levels at {} ({} levels)", line,
                  column, kMaxNestingDepth, FormatPath(path), path.size() + 1));
}

absl::Status CheckJsonText(std::string_view json) {
  std::vector<Frame> frames;
  std::string_view last_string;
  int line = 1;
  size_t line_start = 0;
  bool ended = false;  // the first top-level value is complete
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (ended && c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      return absl::InvalidArgumentError(fmt::format(
          "line {}, column {}: unexpected content after the JSON document (a JSON file holds one "
          "object, or a List of them)",
          line, i - line_start + 1));
    }
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c == '"') {
      const size_t start = i + 1;
      for (++i; i < json.size() && json[i] != '"'; ++i) {
        if (json[i] == '\\') ++i;
      }
      last_string = json.substr(start, std::min(i, json.size()) - start);
    } else if (c == ':') {
      if (!frames.empty() && !frames.back().is_array) frames.back().key = last_string;
    } else if (c == ',') {
      if (!frames.empty() && frames.back().is_array) ++frames.back().index;
    } else if (c == '[' || c == '{') {
      if (frames.size() == static_cast<size_t>(kMaxNestingDepth)) {
        std::vector<NestingStep> path;
        path.reserve(frames.size());
        for (const Frame& frame : frames) {
          path.push_back(
              {.is_index = frame.is_array, .key = std::string(frame.key), .index = frame.index});
        }
        return NestingTooDeep(line, static_cast<int>(i - line_start) + 1, path);
      }
      frames.push_back({.is_array = c == '['});
    } else if (c == ']' || c == '}') {
      if (!frames.empty()) frames.pop_back();
      ended = frames.empty();
    }
  }
  return absl::OkStatus();
}

}  // namespace karpenter::api
