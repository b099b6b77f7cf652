#include "test/disruption_checks.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "test/scenario_checks.h"

namespace karpenter::scenario {
namespace {

using nlohmann::json;

std::vector<std::string> Names(const json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const json& item : list) out.push_back(item.is_string() ? item.get<std::string>() : "");
  return out;
}

std::vector<std::string> Scalars(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node) return out;
  if (node.IsScalar()) return {node.Scalar()};
  for (const YAML::Node& item : node) out.push_back(item.Scalar());
  return out;
}

class DisruptionChecker {
 public:
  DisruptionChecker(const json& plan, const cloudprovider::Catalog& catalog)
      : plan_(plan), catalog_(catalog) {
    if (plan.contains("commands")) commands_ = plan["commands"];
    if (plan.contains("blocked")) blocked_ = plan["blocked"];
  }

  void Fail(const std::string& expectation, const std::string& detail) {
    failures_.push_back(absl::StrCat("expectation `", expectation, "`: ", detail));
  }

  void Run(const YAML::Node& expect) {
    if (expect["commandCount"]) CheckCount("commandCount", expect["commandCount"], commands_);
    if (expect["commands"]) CheckCommands(expect["commands"]);
    if (expect["blockedCount"]) CheckCount("blockedCount", expect["blockedCount"], blocked_);
    if (expect["blocked"]) CheckBlocked(expect["blocked"]);
    for (const std::string& node : Scalars(expect["notBlocked"])) {
      if (!BlockReason(node).empty()) {
        Fail("notBlocked", absl::StrCat(node, " is blocked: ", BlockReason(node)));
      }
    }
    for (const std::string& node : Scalars(expect["untouched"])) {
      for (const json& command : commands_) {
        std::vector<std::string> nodes = Names(command.value("candidates", json::array()));
        if (std::find(nodes.begin(), nodes.end(), node) != nodes.end()) {
          Fail("untouched", absl::StrCat(node, " is a candidate of ", command.dump()));
        }
      }
    }
  }

  std::vector<std::string> Take() { return std::move(failures_); }

 private:
  void CheckCount(const std::string& name, const YAML::Node& want, const json& list) {
    int64_t n = 0;
    if (!absl::SimpleAtoi(want.Scalar(), &n)) return Fail(name, "not an integer in the header");
    if (static_cast<int64_t>(list.size()) != n) {
      Fail(name, absl::StrCat("want ", n, ", got ", list.size(), ": ", list.dump()));
    }
  }

  std::string BlockReason(const std::string& node) const {
    for (const json& entry : blocked_) {
      if (entry.value("node", "") == node) return entry.value("reason", "");
    }
    return "";
  }

  void CheckBlocked(const YAML::Node& want) {
    for (const YAML::Node& item : want) {
      const std::string node = item.IsMap() ? item["node"].Scalar() : item.Scalar();
      const std::string reason = BlockReason(node);
      if (reason.empty()) {
        Fail("blocked", absl::StrCat(node, " is not blocked; blocked: ", blocked_.dump()));
        continue;
      }
      if (item.IsMap() && item["reason"] &&
          reason.find(item["reason"].Scalar()) == std::string::npos) {
        Fail("blocked", absl::StrCat(node, ": reason \"", reason, "\" lacks \"",
                                     item["reason"].Scalar(), "\""));
      }
    }
  }

  void CheckNumber(const std::string& name, const YAML::Node& want, const json& got, int sign) {
    double expected = 0;
    if (!absl::SimpleAtod(want.Scalar(), &expected)) return Fail(name, "not a number");
    if (!got.is_number()) return Fail(name, "missing savingsPerHour");
    const double value = got.get<double>();
    const bool ok = sign == 0  ? std::fabs(value - expected) <= 1e-6
                    : sign > 0 ? value >= expected - 1e-9
                               : value <= expected + 1e-9;
    if (!ok)
      Fail(name, absl::StrCat("want ", sign == 0 ? "" : (sign > 0 ? ">= " : "<= "), want.Scalar(),
                              ", got ", got.dump()));
  }

  void CheckCommand(const std::string& name, const YAML::Node& spec, const json& command) {
    static const std::set<std::string> kKnown = {
        "method",      "reason",         "candidates",     "candidateCount", "replacements",
        "replacement", "savingsPerHour", "savingsAtLeast", "savingsAtMost",  "detail"};
    for (const auto& entry : spec) {
      if (!kKnown.count(entry.first.Scalar()))
        Fail(name + "." + entry.first.Scalar(), "unknown key");
    }
    for (const char* key : {"method", "reason", "detail"}) {
      if (spec[key] && command.value(key, "") != spec[key].Scalar()) {
        Fail(name + "." + key, absl::StrCat("want ", spec[key].Scalar(), ", got ",
                                            command.value(key, ""), "; ", command.dump()));
      }
    }
    std::vector<std::string> candidates = Names(command.value("candidates", json::array()));
    if (spec["candidates"]) {
      std::vector<std::string> want = Scalars(spec["candidates"]);
      std::sort(want.begin(), want.end());
      std::vector<std::string> got = candidates;
      std::sort(got.begin(), got.end());
      if (want != got) {
        Fail(name + ".candidates", absl::StrCat("want [", absl::StrJoin(want, ", "), "], got [",
                                                absl::StrJoin(got, ", "), "]"));
      }
    }
    if (spec["candidateCount"]) {
      CheckCount(name + ".candidateCount", spec["candidateCount"],
                 command.value("candidates", json::array()));
    }
    const json replacements = command.value("replacements", json::array());
    if (spec["replacements"])
      CheckCount(name + ".replacements", spec["replacements"], replacements);
    if (spec["replacement"]) {
      if (replacements.empty()) {
        Fail(name + ".replacement", "the command has no replacement: " + command.dump());
      } else {
        for (std::string& failure : CheckClaimExpectations(
                 name + ".replacement", spec["replacement"], replacements[0], plan_, catalog_)) {
          failures_.push_back(std::move(failure));
        }
      }
    }
    const json savings = command.value("savingsPerHour", json());
    if (spec["savingsPerHour"])
      CheckNumber(name + ".savingsPerHour", spec["savingsPerHour"], savings, 0);
    if (spec["savingsAtLeast"])
      CheckNumber(name + ".savingsAtLeast", spec["savingsAtLeast"], savings, 1);
    if (spec["savingsAtMost"])
      CheckNumber(name + ".savingsAtMost", spec["savingsAtMost"], savings, -1);
  }

  void CheckCommands(const YAML::Node& want) {
    if (want.size() != commands_.size()) {
      Fail("commands", absl::StrCat("want ", want.size(), " command(s), got ", commands_.size(),
                                    ": ", commands_.dump()));
    }
    for (size_t i = 0; i < want.size() && i < commands_.size(); ++i) {
      CheckCommand(absl::StrCat("commands[", i, "]"), want[i], commands_[i]);
    }
  }

  const json& plan_;
  const cloudprovider::Catalog& catalog_;
  json commands_ = json::array();
  json blocked_ = json::array();
  std::vector<std::string> failures_;
};

}  // namespace

std::vector<std::string> CheckDisruptionExpectations(const YAML::Node& expect, const json& plan,
                                                     const cloudprovider::Catalog& catalog) {
  DisruptionChecker checker(plan, catalog);
  try {
    checker.Run(expect);
  } catch (const std::exception& e) {
    checker.Fail("header", std::string("malformed expectation: ") + e.what());
  }
  return checker.Take();
}

}  // namespace karpenter::scenario
