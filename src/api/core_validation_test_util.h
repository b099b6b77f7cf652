// Fixtures shared by the core-kind validation tests: minimal valid objects to break one field
// at a time, and error-list matchers that print every error on failure.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

#include "src/api/core_validation.h"

namespace karpenter::api::testing_util {

inline Quantity Q(std::string_view text) { return Quantity::Parse(text).value_or(Quantity()); }

inline std::string Dump(const FieldErrors& errors) {
  std::string out;
  for (const FieldError& error : errors.errors()) out += "\n  " + error.ToString();
  return out.empty() ? " (no errors)" : out;
}

// Succeeds when some error sits at exactly `path` and its message contains `message`; the
// failure message lists every error.
inline ::testing::AssertionResult HasError(const FieldErrors& errors, std::string_view path,
                                           std::string_view message) {
  for (const FieldError& error : errors.errors()) {
    if (error.path == path && error.message.find(message) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure()
         << "expected " << path << ": " << message << ", got:" << Dump(errors);
}

inline ::testing::AssertionResult NoErrors(const FieldErrors& errors) {
  if (errors.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "unexpected errors:" << Dump(errors);
}

inline Container ValidContainer(std::string name = "app") {
  Container container;
  container.name = std::move(name);
  container.image = "public.ecr.aws/nginx/nginx:latest";
  container.resources.requests = {{"cpu", Q("500m")}, {"memory", Q("512Mi")}};
  container.resources.limits = {{"cpu", Q("1")}, {"memory", Q("512Mi")}};
  container.ports.push_back({.name = "http", .container_port = 80, .protocol = "TCP"});
  return container;
}

inline Pod ValidPod() {
  Pod pod;
  pod.metadata.name = "web-0";
  pod.metadata.namespace_ = "default";
  pod.metadata.labels = {{"app", "web"}};
  pod.spec.containers.push_back(ValidContainer());
  ApplyDefaults(pod);
  return pod;
}

inline PodTemplateSpec ValidTemplate() {
  PodTemplateSpec pod_template;
  pod_template.metadata.labels = {{"app", "web"}};
  pod_template.spec.containers.push_back(ValidContainer());
  ApplyDefaults(pod_template);
  return pod_template;
}

inline LabelSelector AppSelector() {
  LabelSelector selector;
  selector.match_labels = {{"app", "web"}};
  return selector;
}

inline Deployment ValidDeployment() {
  Deployment deployment;
  deployment.metadata.name = "web";
  deployment.spec.replicas = 3;
  deployment.spec.selector = AppSelector();
  deployment.spec.template_ = ValidTemplate();
  ApplyDefaults(deployment);
  return deployment;
}

inline PersistentVolumeClaimSpec ValidClaimSpec() {
  PersistentVolumeClaimSpec spec;
  spec.access_modes = {"ReadWriteOnce"};
  spec.resources.requests = {{"storage", Q("10Gi")}};
  spec.storage_class_name = "gp3";
  ApplyDefaults(spec);
  return spec;
}

}  // namespace karpenter::api::testing_util
