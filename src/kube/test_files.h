// Test helpers: a fresh directory per test and files written into it.
#pragma once

#include <sys/stat.h>

#include <fstream>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "src/kube/rest_config.h"

namespace karpenter::kube::testing {

// A directory unique to the running test, created empty.
inline std::string TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string dir = ::testing::TempDir() + "kube_" + info->test_suite_name() + "_" + info->name();
  std::string command = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  return dir;
}

inline std::string WriteFile(const std::string& path, const std::string& content,
                             bool executable = false) {
  std::ofstream(path, std::ios::binary) << content;
  if (executable) chmod(path.c_str(), 0755);
  return path;
}

inline GetEnv MapEnv(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace karpenter::kube::testing
