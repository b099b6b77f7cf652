// What `karpenter validate` found, kept as data so that the text lines and the `-o json|yaml`
// document are two renderings of one result (the same objects, errors and exit code).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <variant>
#include <vector>

#include "cmd/karpenter/validate_migration.h"
#include "src/api/field_errors.h"

namespace karpenter::cli {

enum class ObjectVerdict { kValid, kInvalid, kSkipped };

struct ValidatedObject {
  std::string source;  // file name, or "<stdin>"
  int line = 0;        // 1-based line of the YAML document; 0 for JSON input
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_;
  std::string ref;  // "Kind/name" as the text lines print it
  ObjectVerdict verdict = ObjectVerdict::kValid;
  std::vector<api::FieldError> errors;
  // For an object of an apiVersion v1 no longer serves: the v1 spelling of each field it sets.
  std::vector<LegacyField> migrations;
  std::string skip_reason;  // why a skipped object was not validated
};

// A file (or flag, or the region check) that failed as a whole rather than one object in it.
struct InputProblem {
  std::string source;
  std::string message;
};

struct ValidateReport {
  // In the order they were found, which is the order of the text lines.
  std::vector<std::variant<ValidatedObject, InputProblem>> entries;

  size_t Count(ObjectVerdict verdict) const;
  size_t Objects() const;
  bool Failed() const;  // an invalid object or an input problem: exit 1
};

// The text lines, one per error ("FILE: Kind/name: path: message"), as validate has always
// printed them on stdout.
void WriteValidateErrors(const ValidateReport& report, std::ostream& out);
// The skipped kinds and the "N object(s) valid" summary, for stderr whatever the output format.
void WriteValidateNotes(const ValidateReport& report, std::ostream& err);

// The same result as one JSON document: valid, summary counts, every object with its verdict,
// errors and migrations, and the input problems.
std::string ValidateReportJson(const ValidateReport& report);

}  // namespace karpenter::cli
