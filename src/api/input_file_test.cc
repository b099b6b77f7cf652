#include "src/api/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "src/api/manifest.h"

namespace karpenter::api {
namespace {

namespace fs = std::filesystem;

fs::path TempPath(const std::string& name) {
  return fs::temp_directory_path() / (name + "_" + std::to_string(getpid()));
}

// Reading a FIFO with no writer blocked `validate` forever.
TEST(InputFile, FifosAndDirectoriesAreRefusedWithoutBlocking) {
  const fs::path fifo = TempPath("kp_input_fifo");
  fs::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  absl::StatusOr<std::vector<Manifest>> manifests = LoadManifestFile(fifo.string());
  fs::remove(fifo);
  ASSERT_FALSE(manifests.ok());
  EXPECT_EQ(std::string(manifests.status().message()),
            "not a regular file (a FIFO, device, socket or directory); pass - to read standard "
            "input");
  EXPECT_FALSE(ReadInputFile(fs::temp_directory_path().string()).ok());
  EXPECT_FALSE(CheckRegularFile("/dev/zero").ok());
  EXPECT_EQ(CheckRegularFile("/nonexistent/x.yaml").message(),
            "cannot open /nonexistent/x.yaml: No such file or directory");
}

// `-f /dev/stdin` from a pipe failed: the file-size probe cannot read a pipe.
TEST(InputFile, DevStdinReadsAPipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const std::string yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: piped}\n";
  ASSERT_EQ(write(fds[1], yaml.data(), yaml.size()), static_cast<ssize_t>(yaml.size()));
  close(fds[1]);
  const int saved_stdin = dup(STDIN_FILENO);
  ASSERT_GE(saved_stdin, 0);
  ASSERT_EQ(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
  close(fds[0]);
  absl::StatusOr<std::vector<Manifest>> manifests = LoadManifestFile("/dev/stdin");
  dup2(saved_stdin, STDIN_FILENO);
  close(saved_stdin);
  std::clearerr(stdin);
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 1u);
  EXPECT_EQ((*manifests)[0].Ref(), "Node/piped");
  EXPECT_EQ((*manifests)[0].source, "<stdin>");
}

}  // namespace
}  // namespace karpenter::api
