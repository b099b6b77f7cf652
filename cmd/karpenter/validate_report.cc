#include "cmd/karpenter/validate_report.h"

#include <ostream>

#include "src/api/json_writer.h"

namespace karpenter::cli {
namespace {

const char* VerdictName(ObjectVerdict verdict) {
  switch (verdict) {
    case ObjectVerdict::kValid:
      return "valid";
    case ObjectVerdict::kInvalid:
      return "invalid";
    case ObjectVerdict::kSkipped:
      return "skipped";
  }
  return "invalid";
}

void WriteObject(const ValidatedObject& object, api::JsonWriter& json) {
  json.BeginObject();
  json.Key("source");
  json.String(object.source);
  if (object.line > 0) {
    json.Key("line");
    json.Int(object.line);
  }
  json.Key("apiVersion");
  json.String(object.api_version);
  json.Key("kind");
  json.String(object.kind);
  json.Key("name");
  json.String(object.name);
  if (!object.namespace_.empty()) {
    json.Key("namespace");
    json.String(object.namespace_);
  }
  json.Key("verdict");
  json.String(VerdictName(object.verdict));
  if (object.verdict == ObjectVerdict::kSkipped) {
    json.Key("reason");
    json.String(object.skip_reason);
  }
  json.Key("errors");
  json.BeginArray();
  for (const api::FieldError& error : object.errors) {
    json.BeginObject();
    json.Key("field");
    json.String(error.path);
    json.Key("message");
    json.String(error.message);
    json.EndObject();
  }
  json.EndArray();
  if (!object.migrations.empty()) {
    json.Key("migrations");
    json.BeginArray();
    for (const LegacyField& field : object.migrations) {
      json.BeginObject();
      json.Key("field");
      json.String(field.from);
      json.Key("change");
      json.String(field.change);
      json.Key("v1");
      json.String(field.to);
      json.EndObject();
    }
    json.EndArray();
  }
  json.EndObject();
}

}  // namespace

size_t ValidateReport::Count(ObjectVerdict verdict) const {
  size_t count = 0;
  for (const auto& entry : entries) {
    const auto* object = std::get_if<ValidatedObject>(&entry);
    if (object != nullptr && object->verdict == verdict) ++count;
  }
  return count;
}

size_t ValidateReport::Objects() const {
  size_t count = 0;
  for (const auto& entry : entries) count += std::holds_alternative<ValidatedObject>(entry);
  return count;
}

bool ValidateReport::Failed() const {
  for (const auto& entry : entries) {
    if (std::holds_alternative<InputProblem>(entry)) return true;
  }
  return Count(ObjectVerdict::kInvalid) > 0;
}

void WriteValidateErrors(const ValidateReport& report, std::ostream& out) {
  for (const auto& entry : report.entries) {
    if (const auto* problem = std::get_if<InputProblem>(&entry)) {
      if (!problem->source.empty()) out << problem->source << ": ";
      out << problem->message << "\n";
      continue;
    }
    const auto& object = std::get<ValidatedObject>(entry);
    for (const api::FieldError& error : object.errors) {
      out << object.source << ": " << object.ref << ": " << error.ToString() << "\n";
    }
    for (const LegacyField& field : object.migrations) {
      out << object.source << ": " << object.ref << ": " << field.from << ": " << field.change
          << " in v1: " << field.to << "\n";
    }
  }
}

void WriteValidateNotes(const ValidateReport& report, std::ostream& err) {
  for (const auto& entry : report.entries) {
    const auto* object = std::get_if<ValidatedObject>(&entry);
    if (object != nullptr && object->verdict == ObjectVerdict::kSkipped) {
      err << object->source << ": " << object->ref << ": skipped: " << object->skip_reason << "\n";
    }
  }
  if (report.Failed()) {
    err << report.Count(ObjectVerdict::kInvalid) << " of " << report.Objects()
        << " object(s) invalid\n";
  } else {
    err << report.Objects() << " object(s) valid\n";
  }
}

std::string ValidateReportJson(const ValidateReport& report) {
  api::JsonWriter json;
  json.BeginObject();
  json.Key("valid");
  json.Bool(!report.Failed());
  json.Key("summary");
  json.BeginObject();
  json.Key("objects");
  json.Int(static_cast<int64_t>(report.Objects()));
  json.Key("valid");
  json.Int(static_cast<int64_t>(report.Count(ObjectVerdict::kValid)));
  json.Key("invalid");
  json.Int(static_cast<int64_t>(report.Count(ObjectVerdict::kInvalid)));
  json.Key("skipped");
  json.Int(static_cast<int64_t>(report.Count(ObjectVerdict::kSkipped)));
  json.EndObject();
  json.Key("objects");
  json.BeginArray();
  for (const auto& entry : report.entries) {
    if (const auto* object = std::get_if<ValidatedObject>(&entry)) WriteObject(*object, json);
  }
  json.EndArray();
  json.Key("inputErrors");
  json.BeginArray();
  for (const auto& entry : report.entries) {
    const auto* problem = std::get_if<InputProblem>(&entry);
    if (problem == nullptr) continue;
    json.BeginObject();
    json.Key("source");
    json.String(problem->source);
    json.Key("message");
    json.String(problem->message);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.Take() + "\n";
}

}  // namespace karpenter::cli
