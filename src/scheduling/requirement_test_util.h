// Shared fixtures for the requirement tests: the fourteen single-key requirements the tables
// are written against (upstream requirement_test.go uses the same cast), and a field-by-field
// view of a Requirement so expectations do not depend on the operations under test.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/scheduling/requirement.h"

namespace karpenter::scheduling::testing {

inline constexpr std::string_view kKey = "key";

// Column and row order of every table in the tests.
inline const std::vector<std::string>& FixtureNames() {
  static const std::vector<std::string> kNames = {
      "exists", "doesNotExist", "inA",     "inB", "inAB", "notInA", "in1",
      "in9",    "in19",         "notIn12", "gt1", "gt9",  "lt1",    "lt9"};
  return kNames;
}

inline Requirement Fixture(std::string_view name, Requirement::MinValues min_values = {}) {
  if (name == "exists") return Requirement::Exists(kKey, min_values);
  if (name == "doesNotExist") return Requirement::DoesNotExist(kKey, min_values);
  if (name == "inA") return Requirement::In(kKey, {"A"}, min_values);
  if (name == "inB") return Requirement::In(kKey, {"B"}, min_values);
  if (name == "inAB") return Requirement::In(kKey, {"A", "B"}, min_values);
  if (name == "notInA") return Requirement::NotIn(kKey, {"A"}, min_values);
  if (name == "in1") return Requirement::In(kKey, {"1"}, min_values);
  if (name == "in9") return Requirement::In(kKey, {"9"}, min_values);
  if (name == "in19") return Requirement::In(kKey, {"1", "9"}, min_values);
  if (name == "notIn12") return Requirement::NotIn(kKey, {"1", "2"}, min_values);
  if (name == "gt1") return Requirement::Gt(kKey, 1, min_values);
  if (name == "gt9") return Requirement::Gt(kKey, 9, min_values);
  if (name == "lt1") return Requirement::Lt(kKey, 1, min_values);
  return Requirement::Lt(kKey, 9, min_values);  // "lt9"
}

// Everything that defines a Requirement's set, read through accessors only.
struct Shape {
  bool complement = false;
  std::vector<std::string> values;
  std::optional<int64_t> gte;
  std::optional<int64_t> lte;
  bool operator==(const Shape&) const = default;
};

inline Shape ShapeOf(const Requirement& requirement) {
  return {.complement = requirement.is_complement(),
          .values = {requirement.Values().begin(), requirement.Values().end()},
          .gte = requirement.gte(),
          .lte = requirement.lte()};
}

inline std::ostream& operator<<(std::ostream& os, const Shape& shape) {
  os << (shape.complement ? "complement{" : "finite{");
  for (const std::string& value : shape.values) os << value << ",";
  os << "}";
  if (shape.gte) os << " >=" << *shape.gte;
  if (shape.lte) os << " <=" << *shape.lte;
  return os;
}

// Expected results of intersections, by name: the fixtures plus the mixed sets that only
// intersections produce.
inline Shape ExpectedShape(std::string_view name) {
  if (name == "exists") return {.complement = true};
  if (name == "doesNotExist") return {};
  if (name == "inA") return {.values = {"A"}};
  if (name == "inB") return {.values = {"B"}};
  if (name == "inAB") return {.values = {"A", "B"}};
  if (name == "notInA") return {.complement = true, .values = {"A"}};
  if (name == "in1") return {.values = {"1"}};
  if (name == "in9") return {.values = {"9"}};
  if (name == "in19") return {.values = {"1", "9"}};
  if (name == "notIn12") return {.complement = true, .values = {"1", "2"}};
  if (name == "gt1") return {.complement = true, .gte = 2};
  if (name == "gt9") return {.complement = true, .gte = 10};
  if (name == "lt1") return {.complement = true, .lte = 0};
  if (name == "lt9") return {.complement = true, .lte = 8};
  if (name == "notInA12") return {.complement = true, .values = {"1", "2", "A"}};
  if (name == "gt1ex2") return {.complement = true, .values = {"2"}, .gte = 2};
  if (name == "lt9ex12") return {.complement = true, .values = {"1", "2"}, .lte = 8};
  if (name == "gt1lt9") return {.complement = true, .gte = 2, .lte = 8};
  return {.complement = true, .values = {"<unknown expectation>"}};
}

}  // namespace karpenter::scheduling::testing
