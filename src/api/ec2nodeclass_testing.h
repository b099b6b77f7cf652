// Test helpers for EC2NodeClass: a minimal valid object (the upstream CEL suite's baseline) and
// gmock matchers over validation errors. Used only by *_test.cc files.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/ec2nodeclass_validation.h"
#include "src/api/field_errors.h"

namespace karpenter::api {

// amiFamily AL2023 with alias al2023@latest, role "role-1", and "*": "*" tag selectors.
inline EC2NodeClass ValidEC2NodeClass() {
  EC2NodeClass node_class;
  node_class.metadata.name = "default";
  node_class.spec.ami_family = "AL2023";
  node_class.spec.ami_selector_terms = {AMISelectorTerm{.alias = "al2023@latest"}};
  node_class.spec.role = "role-1";
  node_class.spec.subnet_selector_terms = {SubnetSelectorTerm{.tags = {{"*", "*"}}}};
  node_class.spec.security_group_selector_terms = {SecurityGroupSelectorTerm{.tags = {{"*", "*"}}}};
  return node_class;
}

inline std::vector<FieldError> ValidationErrors(const EC2NodeClass& node_class) {
  FieldErrors errors;
  ValidateEC2NodeClass(node_class, &errors);
  return errors.errors();
}

inline void PrintTo(const FieldError& error, std::ostream* os) { *os << error.ToString(); }

// Matches a FieldError with exactly `path` whose message contains `message`.
MATCHER_P2(FieldErrorIs, path, message,
           std::string("error at ") + ::testing::PrintToString(path) + " containing " +
               ::testing::PrintToString(message)) {
  return arg.path == std::string(path) &&
         arg.message.find(std::string(message)) != std::string::npos;
}

}  // namespace karpenter::api
