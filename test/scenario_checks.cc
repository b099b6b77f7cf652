#include "test/scenario_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <set>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/quantity.h"

namespace karpenter::scenario {
namespace {

using nlohmann::json;

// Where each pod of the plan went: "nodeClaims[i]", "existingNodes[name]" or "unschedulable".
struct PlanIndex {
  const json* root = nullptr;
  std::vector<const json*> claims;
  std::map<std::string, std::string> location;
  std::map<std::string, std::string> unschedulable_reason;
};

const json* Get(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string Str(const json* value) {
  if (value == nullptr) return "<missing>";
  return value->is_string() ? value->get<std::string>() : value->dump();
}

std::vector<std::string> Strings(const json* value) {
  std::vector<std::string> out;
  if (value == nullptr || !value->is_array()) return out;
  for (const json& item : *value) out.push_back(Str(&item));
  return out;
}

std::string Excerpt(const json* value) {
  if (value == nullptr) return "<missing>";
  std::string text = value->dump();
  return text.size() > 1500 ? text.substr(0, 1500) + "..." : text;
}

PlanIndex Index(const json& plan) {
  PlanIndex index;
  index.root = &plan;
  if (const json* claims = Get(plan, "nodeClaims"); claims && claims->is_array()) {
    for (size_t i = 0; i < claims->size(); ++i) {
      index.claims.push_back(&(*claims)[i]);
      for (const std::string& pod : Strings(Get((*claims)[i], "pods")))
        index.location[pod] = absl::StrCat("nodeClaims[", i, "]");
    }
  }
  if (const json* nodes = Get(plan, "existingNodes"); nodes && nodes->is_array()) {
    for (const json& node : *nodes) {
      for (const std::string& pod : Strings(Get(node, "pods")))
        index.location[pod] = absl::StrCat("existingNodes[", Str(Get(node, "name")), "]");
    }
  }
  if (const json* failed = Get(plan, "unschedulable"); failed && failed->is_array()) {
    for (const json& entry : *failed)
      index.unschedulable_reason[Str(Get(entry, "pod"))] = Str(Get(entry, "reason"));
  }
  return index;
}

std::vector<std::string> Scalars(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node) return out;  // A missing key: yaml-cpp throws on any other use of it.
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) out.push_back(item.Scalar());
  } else if (node.IsScalar()) {
    out.push_back(node.Scalar());
  }
  return out;
}

bool ToInt(const YAML::Node& node, int64_t& out) {
  return node && node.IsScalar() && absl::SimpleAtoi(node.Scalar(), &out);
}

bool MatchesRef(const std::string& ref, const std::string& pod) {
  if (!ref.empty() && ref.back() == '*') return pod.rfind(ref.substr(0, ref.size() - 1), 0) == 0;
  return ref == pod;
}

// Every pod of the plan a reference names; a reference without `*` names itself even when the
// plan does not mention it.
std::vector<std::string> Expand(const PlanIndex& index, const std::vector<std::string>& refs) {
  std::set<std::string> out;
  for (const std::string& ref : refs) {
    if (ref.empty() || ref.back() != '*') {
      out.insert(ref);
      continue;
    }
    for (const auto& [pod, where] : index.location)
      if (MatchesRef(ref, pod)) out.insert(pod);
    for (const auto& [pod, reason] : index.unschedulable_reason)
      if (MatchesRef(ref, pod)) out.insert(pod);
  }
  return {out.begin(), out.end()};
}

std::string Where(const PlanIndex& index, const std::string& pod) {
  auto it = index.location.find(pod);
  if (it != index.location.end()) return it->second;
  return index.unschedulable_reason.count(pod) ? "unschedulable" : "nowhere";
}

std::string Describe(const PlanIndex& index, const std::vector<std::string>& pods) {
  std::vector<std::string> parts;
  for (const std::string& pod : pods) parts.push_back(pod + " -> " + Where(index, pod));
  return absl::StrJoin(parts, ", ");
}

class Checker {
 public:
  Checker(const PlanIndex& index, const cloudprovider::Catalog& catalog)
      : index_(index), catalog_(catalog) {}

  void Fail(const std::string& expectation, const std::string& detail) {
    failures_.push_back(absl::StrCat("expectation `", expectation, "`: ", detail));
  }
  std::vector<std::string> TakeFailures() { return std::move(failures_); }

  void CheckTop(const YAML::Node& expect);
  void CheckClaim(const std::string& name, const YAML::Node& spec, const json& claim);

 private:
  void CheckCount(const std::string& name, const YAML::Node& want, size_t got, const json* context);
  void CheckSummary(const YAML::Node& want);
  void CheckPlacement(const YAML::Node& expect);
  void CheckGroups(const std::string& name, const YAML::Node& groups, bool together);
  void CheckExistingNodes(const YAML::Node& want);
  void CheckDistinctLaunch(const YAML::Node& want);
  void CheckUnschedulable(const YAML::Node& want);
  void CheckPodSet(const std::string& name, const YAML::Node& want,
                   const std::vector<std::string>& got, const json* context);
  void CheckStringSet(const std::string& name, const YAML::Node& want,
                      const std::vector<std::string>& got, bool subset, const json* context);
  void CheckRequests(const std::string& name, const YAML::Node& want, const json* got, int sign);
  void CheckInstanceTypes(const std::string& name, const YAML::Node& want, const json& claim);
  void CheckDistinct(const std::string& name, const YAML::Node& want,
                     const std::vector<std::string>& types, const json* list);
  bool TypeMatches(const std::string& type, const YAML::Node& requirements, std::string& why);

  const PlanIndex& index_;
  const cloudprovider::Catalog& catalog_;
  std::vector<std::string> failures_;
};

void Checker::CheckCount(const std::string& name, const YAML::Node& want, size_t got,
                         const json* context) {
  int64_t n = 0;
  if (!ToInt(want, n)) return Fail(name, "not an integer in the header");
  if (static_cast<int64_t>(got) != n)
    Fail(name, absl::StrCat("want ", n, ", got ", got, "; plan: ", Excerpt(context)));
}

void Checker::CheckSummary(const YAML::Node& want) {
  const json* summary = Get(*index_.root, "summary");
  for (const auto& entry : want) {
    std::string key = entry.first.Scalar();
    const json* got = summary ? Get(*summary, key) : nullptr;
    double expected = 0;
    if (!absl::SimpleAtod(entry.second.Scalar(), &expected)) {
      Fail("summary." + key, "not a number in the header");
    } else if (got == nullptr || !got->is_number()) {
      Fail("summary." + key, "missing from " + Excerpt(summary));
    } else if (std::fabs(got->get<double>() - expected) > 1e-6) {
      Fail("summary." + key, absl::StrCat("want ", entry.second.Scalar(), ", got ", got->dump(),
                                          "; summary: ", Excerpt(summary)));
    }
  }
}

void Checker::CheckTop(const YAML::Node& expect) {
  for (const auto& entry : expect) {
    static const std::set<std::string> kKnown = {
        "newNodeClaims", "summary", "scheduled", "unplaced", "unschedulable", "unschedulableCount",
        "together", "apart", "existingNodes", "nodeClaims", "eachNodeClaim", "onNodeClaims",
        "onExistingNodes", "distinctLaunch",
        // Checked by CheckDisruptionExpectations (test/disruption_checks.h).
        "commands", "commandCount", "blocked", "blockedCount", "notBlocked", "untouched"};
    if (!kKnown.count(entry.first.Scalar())) Fail(entry.first.Scalar(), "unknown expectation");
  }
  if (expect["newNodeClaims"])
    CheckCount("newNodeClaims", expect["newNodeClaims"], index_.claims.size(),
               Get(*index_.root, "nodeClaims"));
  if (expect["summary"]) CheckSummary(expect["summary"]);
  if (expect["unschedulableCount"])
    CheckCount("unschedulableCount", expect["unschedulableCount"],
               index_.unschedulable_reason.size(), Get(*index_.root, "unschedulable"));
  if (expect["unschedulable"]) CheckUnschedulable(expect["unschedulable"]);
  CheckPlacement(expect);
  if (expect["together"]) CheckGroups("together", expect["together"], true);
  if (expect["apart"]) CheckGroups("apart", expect["apart"], false);
  if (expect["distinctLaunch"]) CheckDistinctLaunch(expect["distinctLaunch"]);
  if (expect["existingNodes"]) CheckExistingNodes(expect["existingNodes"]);
  if (const YAML::Node claims = expect["nodeClaims"]) {
    for (size_t i = 0; i < claims.size(); ++i) {
      const YAML::Node spec = claims[i];
      std::string name = absl::StrCat("nodeClaims[", i, "]");
      const json* claim = nullptr;
      int64_t position = 0;
      if (spec["pod"]) {
        // A glob selects the claim of the first matching pod.
        std::vector<std::string> matches = Expand(index_, {spec["pod"].Scalar()});
        std::string pod = matches.empty() ? spec["pod"].Scalar() : matches.front();
        std::string where = Where(index_, pod);
        if (where.rfind("nodeClaims[", 0) != 0) {
          Fail(name, absl::StrCat("pod ", pod, " is on no new NodeClaim (", where, ")"));
          continue;
        }
        if (!absl::SimpleAtoi(where.substr(11, where.size() - 12), &position)) continue;
      } else if (!ToInt(spec["index"], position)) {
        Fail(name, "needs `pod` or `index`");
        continue;
      }
      if (position < 0 || static_cast<size_t>(position) >= index_.claims.size()) {
        Fail(name, absl::StrCat("no NodeClaim ", position, "; plan has ", index_.claims.size()));
        continue;
      }
      claim = index_.claims[position];
      CheckClaim(name, spec, *claim);
    }
  }
  if (expect["eachNodeClaim"]) {
    for (size_t i = 0; i < index_.claims.size(); ++i)
      CheckClaim(absl::StrCat("eachNodeClaim (nodeClaims[", i, "])"), expect["eachNodeClaim"],
                 *index_.claims[i]);
  }
}

void Checker::CheckUnschedulable(const YAML::Node& want) {
  for (const YAML::Node& item : want) {
    std::string pod = item.IsMap() ? item["pod"].Scalar() : item.Scalar();
    std::string reason = item.IsMap() && item["reason"] ? item["reason"].Scalar() : "";
    for (const std::string& key : Expand(index_, {pod})) {
      auto it = index_.unschedulable_reason.find(key);
      if (it == index_.unschedulable_reason.end()) {
        Fail("unschedulable",
             absl::StrCat(key, " is not unschedulable (", Where(index_, key),
                          "); unschedulable: ", Excerpt(Get(*index_.root, "unschedulable"))));
      } else if (it->second.find(reason) == std::string::npos) {
        Fail("unschedulable",
             absl::StrCat(key, ": reason \"", it->second, "\" lacks \"", reason, "\""));
      }
    }
  }
}

void Checker::CheckPlacement(const YAML::Node& expect) {
  struct Rule {
    const char* key;
    std::string_view prefix;  // Required location prefix; empty = anywhere placed.
    bool placed;
  };
  for (const Rule& rule : {Rule{"scheduled", "", true}, Rule{"unplaced", "", false},
                           Rule{"onNodeClaims", "nodeClaims[", true},
                           Rule{"onExistingNodes", "existingNodes[", true}}) {
    if (!expect[rule.key]) continue;
    std::vector<std::string> refs = Scalars(expect[rule.key]);
    for (const std::string& ref : refs) {
      std::vector<std::string> pods = Expand(index_, {ref});
      if (pods.empty()) Fail(rule.key, ref + " matches no pod of the plan");
      for (const std::string& pod : pods) {
        std::string where = Where(index_, pod);
        bool placed = index_.location.count(pod) > 0;
        if (placed != rule.placed || (placed && where.rfind(rule.prefix, 0) != 0))
          Fail(rule.key, absl::StrCat(pod, " is ", where));
      }
    }
  }
}

void Checker::CheckGroups(const std::string& name, const YAML::Node& groups, bool together) {
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<std::string> pods = Expand(index_, Scalars(groups[g]));
    std::string label = absl::StrCat(name, "[", g, "]");
    if (pods.size() < 2) {
      Fail(label, absl::StrCat("names ", pods.size(), " pod(s); need at least 2"));
      continue;
    }
    std::set<std::string> places;
    bool all_placed = true;
    for (const std::string& pod : pods) {
      all_placed = all_placed && index_.location.count(pod) > 0;
      places.insert(Where(index_, pod));
    }
    bool ok = all_placed && (together ? places.size() == 1 : places.size() == pods.size());
    if (!ok) Fail(label, Describe(index_, pods));
  }
}

// The pods on new NodeClaims launch in exactly `count` distinct values of a launch field (zone,
// capacityType, instanceType): how topology spread shows in a plan. Pods elsewhere are not
// counted (pin them with onNodeClaims / unschedulable); at least one must be on a NodeClaim.
void Checker::CheckDistinctLaunch(const YAML::Node& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    const YAML::Node rule = want[i];
    std::string label = absl::StrCat("distinctLaunch[", i, "]");
    std::string field = rule["field"] ? rule["field"].Scalar() : "zone";
    std::set<std::string> values;
    std::vector<std::string> seen;
    for (const std::string& pod : Expand(index_, Scalars(rule["pods"]))) {
      std::string where = Where(index_, pod);
      int64_t position = -1;
      if (where.rfind("nodeClaims[", 0) != 0 ||
          !absl::SimpleAtoi(where.substr(11, where.size() - 12), &position)) {
        seen.push_back(pod + " -> " + where);
        continue;
      }
      const json* launch = Get(*index_.claims[position], "launch");
      std::string value = Str(launch ? Get(*launch, field) : nullptr);
      values.insert(value);
      seen.push_back(pod + " -> " + where + " " + field + "=" + value);
    }
    int64_t count = 0;
    if (!ToInt(rule["count"], count)) {
      Fail(label, "needs an integer `count`");
    } else if (values.empty() || static_cast<int64_t>(values.size()) != count) {
      Fail(label, absl::StrCat("want ", count, " distinct ", field, " values, got ", values.size(),
                               ": ", absl::StrJoin(seen, ", ")));
    }
  }
}

void Checker::CheckExistingNodes(const YAML::Node& want) {
  std::map<std::string, std::vector<std::string>> pods_by_node;
  const json* nodes = Get(*index_.root, "existingNodes");
  if (nodes != nullptr && nodes->is_array()) {
    for (const json& node : *nodes)
      pods_by_node[Str(Get(node, "name"))] = Strings(Get(node, "pods"));
  }
  for (const auto& entry : want) {
    std::string node = entry.first.Scalar();
    CheckPodSet("existingNodes." + node, entry.second, pods_by_node[node], nodes);
  }
}

// Exact pod set: every reference matches at least one pod and every pod matches a reference.
void Checker::CheckPodSet(const std::string& name, const YAML::Node& want,
                          const std::vector<std::string>& got, const json* context) {
  std::vector<std::string> refs = Scalars(want);
  bool ok = true;
  for (const std::string& ref : refs) {
    ok = ok && std::any_of(got.begin(), got.end(),
                           [&](const std::string& pod) { return MatchesRef(ref, pod); });
  }
  for (const std::string& pod : got) {
    ok = ok && std::any_of(refs.begin(), refs.end(),
                           [&](const std::string& ref) { return MatchesRef(ref, pod); });
  }
  if (!ok)
    Fail(name, absl::StrCat("want pods [", absl::StrJoin(refs, ", "), "], got [",
                            absl::StrJoin(got, ", "), "]; ", Excerpt(context)));
}

void Checker::CheckStringSet(const std::string& name, const YAML::Node& want,
                             const std::vector<std::string>& got, bool subset,
                             const json* context) {
  std::vector<std::string> w = Scalars(want);
  std::set<std::string> want_set(w.begin(), w.end()), got_set(got.begin(), got.end());
  bool ok = subset
                ? std::includes(want_set.begin(), want_set.end(), got_set.begin(), got_set.end()) &&
                      !got_set.empty()
                : want_set == got_set;
  if (!ok)
    Fail(name,
         absl::StrCat("want ", subset ? "a non-empty subset of " : "", "[", absl::StrJoin(w, ", "),
                      "], got [", absl::StrJoin(got, ", "), "]; ", Excerpt(context)));
}

// sign 0: equal, +1: got >= want, -1: got <= want.
void Checker::CheckRequests(const std::string& name, const YAML::Node& want, const json* got,
                            int sign) {
  for (const auto& entry : want) {
    std::string resource = entry.first.Scalar();
    absl::StatusOr<api::Quantity> expected = api::Quantity::Parse(entry.second.Scalar());
    const json* value = got ? Get(*got, resource) : nullptr;
    if (!expected.ok()) {
      Fail(name + "." + resource, "bad quantity in the header");
      continue;
    }
    absl::StatusOr<api::Quantity> actual =
        value && value->is_string() ? api::Quantity::Parse(value->get<std::string>())
                                    : absl::StatusOr<api::Quantity>(absl::NotFoundError(""));
    bool ok = actual.ok() && (sign == 0  ? *actual == *expected
                              : sign > 0 ? *actual >= *expected
                                         : *actual <= *expected);
    if (!ok)
      Fail(name + "." + resource,
           absl::StrCat("want ",
                        sign == 0  ? ""
                        : sign > 0 ? ">= "
                                   : "<= ",
                        entry.second.Scalar(), ", got ", Str(value), "; requests: ", Excerpt(got)));
  }
}

bool Checker::TypeMatches(const std::string& type, const YAML::Node& requirements,
                          std::string& why) {
  const cloudprovider::InstanceType* it = catalog_.Find(type);
  if (it == nullptr) {
    why = type + " is not in the catalog";
    return false;
  }
  for (const YAML::Node& req : requirements) {
    std::string key = req["key"].Scalar(), op = req["operator"].Scalar();
    std::vector<std::string> values = Scalars(req["values"]);
    auto label = it->labels.find(key);
    bool has = label != it->labels.end();
    std::string value = has ? label->second : "";
    bool in = has && std::find(values.begin(), values.end(), value) != values.end();
    int64_t got = 0, bound = 0;
    bool numeric = has && !values.empty() && absl::SimpleAtoi(value, &got) &&
                   absl::SimpleAtoi(values[0], &bound);
    bool ok = op == "In"             ? in
              : op == "NotIn"        ? !in
              : op == "Exists"       ? has
              : op == "DoesNotExist" ? !has
              : op == "Gt"           ? numeric && got > bound
              : op == "Lt"           ? numeric && got < bound
                                     : false;
    if (!ok) {
      why = absl::StrCat(type, " has ", key, "=", has ? value : "<unset>", ", want ", op, " [",
                         absl::StrJoin(values, ","), "]");
      return false;
    }
  }
  return true;
}

// At least N distinct values of each label among the types (what minValues promises).
void Checker::CheckDistinct(const std::string& name, const YAML::Node& want,
                            const std::vector<std::string>& types, const json* list) {
  for (const auto& entry : want) {
    std::string key = entry.first.Scalar();
    int64_t n = 0;
    if (!ToInt(entry.second, n)) {
      Fail(name + "." + key, "not an integer in the header");
      continue;
    }
    std::set<std::string> values;
    for (const std::string& type : types) {
      const cloudprovider::InstanceType* it = catalog_.Find(type);
      if (it == nullptr) continue;
      if (auto label = it->labels.find(key); label != it->labels.end())
        values.insert(label->second);
    }
    if (static_cast<int64_t>(values.size()) < n)
      Fail(name + "." + key, absl::StrCat("want >= ", n, " distinct values, got [",
                                          absl::StrJoin(values, ","), "] over ", Excerpt(list)));
  }
}

void Checker::CheckInstanceTypes(const std::string& name, const YAML::Node& want,
                                 const json& claim) {
  const json* list = Get(claim, "instanceTypes");
  std::vector<std::string> types = Strings(list);
  int64_t n = 0;
  if (want["minCount"] && ToInt(want["minCount"], n) && static_cast<int64_t>(types.size()) < n)
    Fail(name + ".minCount",
         absl::StrCat("want >= ", n, ", got ", types.size(), ": ", Excerpt(list)));
  if (want["maxCount"] && ToInt(want["maxCount"], n) && static_cast<int64_t>(types.size()) > n)
    Fail(name + ".maxCount",
         absl::StrCat("want <= ", n, ", got ", types.size(), ": ", Excerpt(list)));
  if (want["exactly"]) CheckStringSet(name + ".exactly", want["exactly"], types, false, list);
  if (want["first"] && (types.empty() || types[0] != want["first"].Scalar()))
    Fail(name + ".first", "want " + want["first"].Scalar() + ": " + Excerpt(list));
  for (const std::string& type : Scalars(want["contains"])) {
    if (std::find(types.begin(), types.end(), type) == types.end())
      Fail(name + ".contains", type + " missing: " + Excerpt(list));
  }
  for (const std::string& type : Scalars(want["excludes"])) {
    if (std::find(types.begin(), types.end(), type) != types.end())
      Fail(name + ".excludes", type + " present: " + Excerpt(list));
  }
  if (want["distinct"]) CheckDistinct(name + ".distinct", want["distinct"], types, list);
  if (want["match"]) {
    for (const std::string& type : types) {
      std::string why;
      if (!TypeMatches(type, want["match"], why)) {
        Fail(name + ".match", why);
        break;
      }
    }
  }
}

void Checker::CheckClaim(const std::string& name, const YAML::Node& spec, const json& claim) {
  static const std::set<std::string> kKnown = {
      "pod",           "index",          "nodePool",        "capacityType",   "instanceType",
      "zone",          "instanceTypeIn", "launchMatch",     "zoneIn",         "zones",
      "zonesSubsetOf", "capacityTypes",  "labels",          "labelsAbsent",   "pods",
      "podCount",      "requests",       "requestsAtLeast", "requestsAtMost", "instanceTypes"};
  for (const auto& entry : spec) {
    if (!kKnown.count(entry.first.Scalar())) Fail(name + "." + entry.first.Scalar(), "unknown key");
  }
  const json* launch = Get(claim, "launch");
  std::string excerpt = Excerpt(&claim);
  auto expect_string = [&](const char* key, const json* got) {
    if (spec[key] && Str(got) != spec[key].Scalar())
      Fail(name + "." + key, "want " + spec[key].Scalar() + ", got " + Str(got) + "; " + excerpt);
  };
  expect_string("nodePool", Get(claim, "nodePool"));
  expect_string("capacityType", launch ? Get(*launch, "capacityType") : nullptr);
  expect_string("instanceType", launch ? Get(*launch, "instanceType") : nullptr);
  expect_string("zone", launch ? Get(*launch, "zone") : nullptr);
  std::string launched = Str(launch ? Get(*launch, "instanceType") : nullptr);
  if (spec["instanceTypeIn"]) {
    std::vector<std::string> allowed = Scalars(spec["instanceTypeIn"]);
    if (std::find(allowed.begin(), allowed.end(), launched) == allowed.end())
      Fail(name + ".instanceTypeIn", "launch type " + launched + " not listed; " + excerpt);
  }
  if (spec["launchMatch"]) {
    std::string why;
    if (!TypeMatches(launched, spec["launchMatch"], why)) Fail(name + ".launchMatch", why);
  }
  if (spec["zoneIn"]) {
    std::string zone = Str(launch ? Get(*launch, "zone") : nullptr);
    std::vector<std::string> allowed = Scalars(spec["zoneIn"]);
    if (std::find(allowed.begin(), allowed.end(), zone) == allowed.end())
      Fail(name + ".zoneIn", "launch zone " + zone + " not listed; " + excerpt);
  }
  if (spec["zones"])
    CheckStringSet(name + ".zones", spec["zones"], Strings(Get(claim, "zones")), false, &claim);
  if (spec["zonesSubsetOf"])
    CheckStringSet(name + ".zonesSubsetOf", spec["zonesSubsetOf"], Strings(Get(claim, "zones")),
                   true, &claim);
  if (spec["capacityTypes"])
    CheckStringSet(name + ".capacityTypes", spec["capacityTypes"],
                   Strings(Get(claim, "capacityTypes")), false, &claim);
  const json* labels = Get(claim, "labels");
  if (spec["labels"]) {
    for (const auto& entry : spec["labels"]) {
      std::string key = entry.first.Scalar();
      const json* got = labels ? Get(*labels, key) : nullptr;
      if (Str(got) != entry.second.Scalar())
        Fail(name + ".labels." + key, "want " + entry.second.Scalar() + ", got " + Str(got) +
                                          "; labels: " + Excerpt(labels));
    }
  }
  for (const std::string& key : Scalars(spec["labelsAbsent"])) {
    if (labels && Get(*labels, key)) Fail(name + ".labelsAbsent", key + " set: " + Excerpt(labels));
  }
  std::vector<std::string> pods = Strings(Get(claim, "pods"));
  if (spec["pods"]) CheckPodSet(name + ".pods", spec["pods"], pods, &claim);
  if (spec["podCount"]) CheckCount(name + ".podCount", spec["podCount"], pods.size(), &claim);
  const json* requests = Get(claim, "requests");
  if (spec["requests"]) CheckRequests(name + ".requests", spec["requests"], requests, 0);
  if (spec["requestsAtLeast"])
    CheckRequests(name + ".requestsAtLeast", spec["requestsAtLeast"], requests, 1);
  if (spec["requestsAtMost"])
    CheckRequests(name + ".requestsAtMost", spec["requestsAtMost"], requests, -1);
  if (spec["instanceTypes"])
    CheckInstanceTypes(name + ".instanceTypes", spec["instanceTypes"], claim);
}

}  // namespace

std::vector<std::string> CheckClaimExpectations(const std::string& name, const YAML::Node& spec,
                                                const json& claim, const json& plan,
                                                const cloudprovider::Catalog& catalog) {
  PlanIndex index = Index(plan);
  Checker checker(index, catalog);
  try {
    checker.CheckClaim(name, spec, claim);
  } catch (const std::exception& e) {
    checker.Fail(name, std::string("malformed expectation: ") + e.what());
  }
  return checker.TakeFailures();
}

std::vector<std::string> CheckExpectations(const YAML::Node& expect, const json& plan,
                                           const cloudprovider::Catalog& catalog) {
  PlanIndex index = Index(plan);
  Checker checker(index, catalog);
  try {
    checker.CheckTop(expect);
  } catch (const std::exception& e) {  // yaml-cpp reports a malformed header by throwing.
    checker.Fail("header", std::string("malformed expectation: ") + e.what());
  }
  return checker.TakeFailures();
}

}  // namespace karpenter::scenario
