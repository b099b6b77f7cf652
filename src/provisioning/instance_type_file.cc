#include "src/provisioning/instance_type_file.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "src/api/karpenter_labels.h"
#include "src/api/quantity.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::provisioning {
namespace {

using Json = nlohmann::json;

absl::Status FieldError(const std::string& path, const std::string& problem) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", problem));
}

absl::StatusOr<const Json*> Member(const Json& object, const std::string& path, const char* name,
                                   Json::value_t type, bool required) {
  auto found = object.find(name);
  const std::string field = absl::StrCat(path, path.empty() ? "" : ".", name);
  if (found == object.end()) {
    if (required) return FieldError(field, "required");
    return nullptr;
  }
  // Any JSON number is accepted where a number is wanted.
  const bool number_wanted = type == Json::value_t::number_float;
  if (number_wanted ? !found->is_number() : found->type() != type) {
    return FieldError(field,
                      absl::StrCat("want ", Json(type).type_name(), ", got ", found->type_name()));
  }
  return &*found;
}

absl::StatusOr<std::string> StringAt(const Json& value, const std::string& path) {
  if (!value.is_string()) return FieldError(path, "want string");
  return value.get<std::string>();
}

absl::StatusOr<api::ResourceList> ParseResources(const Json& object, const std::string& path) {
  api::ResourceList out;
  for (const auto& [name, value] : object.items()) {
    const std::string field = absl::StrCat(path, ".", name);
    KP_ASSIGN_OR_RETURN(const std::string text, StringAt(value, field));
    absl::StatusOr<api::Quantity> quantity = api::Quantity::Parse(text);
    if (!quantity.ok()) return FieldError(field, std::string(quantity.status().message()));
    out[name] = *quantity;
  }
  return out;
}

absl::StatusOr<scheduling::Requirement> ParseRequirement(const Json& item,
                                                         const std::string& path) {
  if (!item.is_object()) return FieldError(path, "want object");
  api::NodeSelectorRequirement requirement;
  KP_ASSIGN_OR_RETURN(const Json* key,
                      Member(item, path, "key", Json::value_t::string, /*required=*/true));
  KP_ASSIGN_OR_RETURN(const Json* op,
                      Member(item, path, "operator", Json::value_t::string, /*required=*/true));
  KP_ASSIGN_OR_RETURN(const Json* values,
                      Member(item, path, "values", Json::value_t::array, /*required=*/false));
  requirement.key = key->get<std::string>();
  requirement.operator_ = op->get<std::string>();
  if (values != nullptr) {
    for (size_t i = 0; i < values->size(); ++i) {
      KP_ASSIGN_OR_RETURN(std::string value,
                          StringAt((*values)[i], absl::StrCat(path, ".values[", i, "]")));
      requirement.values.push_back(std::move(value));
    }
  }
  absl::StatusOr<scheduling::Requirement> parsed =
      scheduling::FromNodeSelectorRequirement(requirement);
  if (!parsed.ok()) return FieldError(path, std::string(parsed.status().message()));
  return parsed;
}

absl::StatusOr<OfferingView> ParseOffering(const Json& item, const std::string& path) {
  if (!item.is_object()) return FieldError(path, "want object");
  KP_ASSIGN_OR_RETURN(const Json* zone,
                      Member(item, path, "zone", Json::value_t::string, /*required=*/true));
  KP_ASSIGN_OR_RETURN(const Json* capacity_type,
                      Member(item, path, "capacityType", Json::value_t::string, /*required=*/true));
  KP_ASSIGN_OR_RETURN(const Json* price, Member(item, path, "price", Json::value_t::number_float,
                                                /*required=*/true));
  KP_ASSIGN_OR_RETURN(const Json* available,
                      Member(item, path, "available", Json::value_t::boolean, /*required=*/false));
  OfferingView offering{zone->get<std::string>(), capacity_type->get<std::string>(),
                        price->get<double>(), available == nullptr || available->get<bool>()};
  if (!(offering.price >= 0)) {
    return FieldError(absl::StrCat(path, ".price"), "must not be negative");
  }
  return offering;
}

// The offerings' values of a label, sorted, for types that do not state the requirement.
scheduling::Requirement FromOfferings(std::string_view key, const std::vector<OfferingView>& all,
                                      std::string OfferingView::*field) {
  std::set<std::string> values;
  for (const OfferingView& offering : all) {
    if (offering.available) values.insert(offering.*field);
  }
  return scheduling::Requirement::In(key, std::vector<std::string>(values.begin(), values.end()));
}

absl::StatusOr<InstanceTypeView> ParseInstanceType(const Json& item, const std::string& path) {
  if (!item.is_object()) return FieldError(path, "want object");
  InstanceTypeView type;
  KP_ASSIGN_OR_RETURN(const Json* name,
                      Member(item, path, "name", Json::value_t::string, /*required=*/true));
  type.name = name->get<std::string>();
  if (type.name.empty()) return FieldError(absl::StrCat(path, ".name"), "must not be empty");
  KP_ASSIGN_OR_RETURN(const Json* capacity,
                      Member(item, path, "capacity", Json::value_t::object, /*required=*/true));
  KP_ASSIGN_OR_RETURN(type.capacity, ParseResources(*capacity, absl::StrCat(path, ".capacity")));
  KP_ASSIGN_OR_RETURN(const Json* allocatable,
                      Member(item, path, "allocatable", Json::value_t::object, /*required=*/false));
  if (allocatable != nullptr) {
    KP_ASSIGN_OR_RETURN(type.allocatable,
                        ParseResources(*allocatable, absl::StrCat(path, ".allocatable")));
  } else {
    type.allocatable = type.capacity;
  }
  KP_ASSIGN_OR_RETURN(const Json* offerings,
                      Member(item, path, "offerings", Json::value_t::array, /*required=*/true));
  for (size_t i = 0; i < offerings->size(); ++i) {
    KP_ASSIGN_OR_RETURN(OfferingView offering,
                        ParseOffering((*offerings)[i], absl::StrCat(path, ".offerings[", i, "]")));
    type.offerings.push_back(std::move(offering));
  }
  KP_ASSIGN_OR_RETURN(const Json* requirements,
                      Member(item, path, "requirements", Json::value_t::array, /*required=*/false));
  type.requirements.Add(scheduling::Requirement::In(api::kLabelInstanceTypeStable, {type.name}));
  if (requirements != nullptr) {
    for (size_t i = 0; i < requirements->size(); ++i) {
      KP_ASSIGN_OR_RETURN(
          scheduling::Requirement requirement,
          ParseRequirement((*requirements)[i], absl::StrCat(path, ".requirements[", i, "]")));
      type.requirements.Add(std::move(requirement));
    }
  }
  if (type.requirements.Find(api::kLabelTopologyZone) == nullptr) {
    type.requirements.Add(
        FromOfferings(api::kLabelTopologyZone, type.offerings, &OfferingView::zone));
  }
  if (type.requirements.Find(api::kCapacityTypeLabelKey) == nullptr) {
    type.requirements.Add(
        FromOfferings(api::kCapacityTypeLabelKey, type.offerings, &OfferingView::capacity_type));
  }
  return type;
}

Json EncodeResources(const api::ResourceList& resources) {
  Json out = Json::object();
  for (const auto& [name, quantity] : resources) out[name] = quantity.String();
  return out;
}

}  // namespace

absl::StatusOr<InstanceTypeFile> ParseInstanceTypeFile(std::string_view json) {
  const Json document = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return absl::InvalidArgumentError("not valid JSON");
  if (!document.is_object()) return absl::InvalidArgumentError("want a JSON object");
  InstanceTypeFile catalog;
  KP_ASSIGN_OR_RETURN(const Json* labels, Member(document, "", "wellKnownLabels",
                                                 Json::value_t::array, /*required=*/false));
  if (labels != nullptr) {
    for (size_t i = 0; i < labels->size(); ++i) {
      KP_ASSIGN_OR_RETURN(std::string label,
                          StringAt((*labels)[i], absl::StrCat("wellKnownLabels[", i, "]")));
      catalog.well_known_labels.push_back(std::move(label));
    }
  }
  KP_ASSIGN_OR_RETURN(const Json* types, Member(document, "", "instanceTypes", Json::value_t::array,
                                                /*required=*/true));
  std::set<std::string> names;
  for (size_t i = 0; i < types->size(); ++i) {
    const std::string path = absl::StrCat("instanceTypes[", i, "]");
    KP_ASSIGN_OR_RETURN(InstanceTypeView type, ParseInstanceType((*types)[i], path));
    if (!names.insert(type.name).second) {
      return FieldError(absl::StrCat(path, ".name"), absl::StrCat("duplicate \"", type.name, "\""));
    }
    catalog.instance_types.push_back(std::move(type));
  }
  return catalog;
}

std::string EncodeInstanceTypeFile(const InstanceTypeFile& catalog) {
  nlohmann::ordered_json document;
  document["wellKnownLabels"] = catalog.well_known_labels;
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (const InstanceTypeView& type : catalog.instance_types) {
    nlohmann::ordered_json item;
    item["name"] = type.name;
    nlohmann::ordered_json requirements = nlohmann::ordered_json::array();
    for (const scheduling::Requirement& requirement : type.requirements) {
      if (requirement.key() == api::kLabelInstanceTypeStable) continue;  // Implied by the name.
      std::vector<std::string> values(requirement.Values().begin(), requirement.Values().end());
      requirements.push_back({{"key", std::string(requirement.key())},
                              {"operator", std::string(OperatorName(requirement.Operator()))},
                              {"values", values}});
    }
    item["requirements"] = std::move(requirements);
    item["capacity"] = EncodeResources(type.capacity);
    item["allocatable"] = EncodeResources(type.allocatable);
    nlohmann::ordered_json offerings = nlohmann::ordered_json::array();
    for (const OfferingView& offering : type.offerings) {
      offerings.push_back({{"zone", offering.zone},
                           {"capacityType", offering.capacity_type},
                           {"price", offering.price},
                           {"available", offering.available}});
    }
    item["offerings"] = std::move(offerings);
    types.push_back(std::move(item));
  }
  document["instanceTypes"] = std::move(types);
  return document.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void DeclareWellKnownLabels(const InstanceTypeFile& file, scheduling::WellKnownLabels& labels) {
  for (const std::string& label : file.well_known_labels) labels.Insert(label);
}

}  // namespace karpenter::provisioning
