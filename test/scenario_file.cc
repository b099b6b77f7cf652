#include "test/scenario_file.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace karpenter::scenario {
namespace {

namespace fs = std::filesystem;

bool IsSeparator(std::string_view line) {
  return line == "---" || line.rfind("--- ", 0) == 0 || line.rfind("---\t", 0) == 0;
}

// Splits `text` after its first YAML document. A leading separator before the header is
// allowed; the header ends at the next separator line.
absl::Status SplitHeader(const std::string& text, std::string& header, std::string& rest) {
  std::istringstream in(text);
  std::string line;
  bool seen_content = false;
  size_t offset = 0;
  while (std::getline(in, line)) {
    size_t next = offset + line.size() + 1;
    if (IsSeparator(line)) {
      if (seen_content) {
        header = text.substr(0, offset);
        rest = next < text.size() ? text.substr(next) : "";
        return absl::OkStatus();
      }
    } else if (!line.empty() && line[0] != '#') {
      seen_content = true;
    }
    offset = next;
  }
  return absl::InvalidArgumentError("no `---` after the header document");
}

absl::StatusOr<YAML::Node> ParseYaml(const std::string& text) {
  try {
    return YAML::Load(text);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("header: ", e.what()));
  }
}

absl::StatusOr<std::vector<std::string>> StringList(const YAML::Node& node, const char* key) {
  std::vector<std::string> out;
  if (!node) return out;
  if (!node.IsSequence()) return absl::InvalidArgumentError(absl::StrCat(key, ": want a list"));
  for (const YAML::Node& item : node) out.push_back(item.Scalar());
  return out;
}

}  // namespace

absl::StatusOr<Scenario> LoadScenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  Scenario scenario;
  scenario.path = path;
  scenario.name = fs::path(path).stem().string();
  std::string header_text;
  absl::Status split = SplitHeader(buffer.str(), header_text, scenario.snapshot);
  if (!split.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", split.message()));
  absl::StatusOr<YAML::Node> header = ParseYaml(header_text);
  if (!header.ok())
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", header.status().message()));
  if (!header->IsMap())
    return absl::InvalidArgumentError(absl::StrCat(path, ": header is not a map"));
  const YAML::Node& h = *header;
  for (const auto& entry : h) {
    static const std::vector<std::string> kKnown = {
        "description", "behaviours", "upstream", "pending", "args", "expect", "now"};
    std::string key = entry.first.Scalar();
    if (std::find(kKnown.begin(), kKnown.end(), key) == kKnown.end())
      return absl::InvalidArgumentError(absl::StrCat(path, ": unknown header key `", key, "`"));
  }
  if (h["description"]) scenario.description = h["description"].Scalar();
  if (h["pending"]) scenario.pending = h["pending"].Scalar();
  if (h["now"]) scenario.now = h["now"].Scalar();
  absl::StatusOr<std::vector<std::string>> args = StringList(h["args"], "args");
  if (!args.ok()) return args.status();
  scenario.args = *args;
  absl::StatusOr<std::vector<std::string>> behaviours = StringList(h["behaviours"], "behaviours");
  if (!behaviours.ok()) return behaviours.status();
  for (const std::string& b : *behaviours) scenario.behaviours.push_back(std::atoi(b.c_str()));
  scenario.expect = h["expect"];
  if (!scenario.expect || !scenario.expect.IsMap())
    return absl::InvalidArgumentError(absl::StrCat(path, ": header has no `expect` map"));
  if (scenario.snapshot.find_first_not_of(" \n\t-") == std::string::npos)
    return absl::InvalidArgumentError(absl::StrCat(path, ": no snapshot documents"));
  return scenario;
}

std::vector<std::string> ListScenarioFiles(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ScenarioTestName(const std::string& path) {
  std::string name = fs::path(path).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace karpenter::scenario
