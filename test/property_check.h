// RapidCheck properties run as GoogleTest assertions with a fixed seed, so every run (local or CI)
// checks the same cases and a failure reproduces. Header-only: include it from any *_test.cc.
#pragma once

#include <cstdint>
#include <sstream>
#include <utility>

#include "gtest/gtest.h"
#include "rapidcheck.h"

namespace karpenter::property_test {

struct PropertyOptions {
  uint64_t seed = 0;
  int runs = 100;      // successful cases required
  int max_size = 100;  // RapidCheck's size bound for generators
};

// Checks `testable` (a RapidCheck property) and reports a failure, with the shrunk
// counterexample, through ADD_FAILURE.
template <class Testable>
void CheckProperty(const PropertyOptions& options, const char* name, Testable&& testable) {
  rc::detail::TestParams params;
  params.seed = options.seed;
  params.maxSuccess = options.runs;
  params.maxSize = options.max_size;
  rc::detail::TestMetadata metadata;
  metadata.id = name;
  metadata.description = name;
  const rc::detail::TestResult result =
      rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    ADD_FAILURE() << message.str();
  }
}

}  // namespace karpenter::property_test
