#include "src/api/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "fmt/format.h"

namespace karpenter::api {

bool IsStandardInput(std::string_view path) { return path == "-" || path == "/dev/stdin"; }

absl::Status CheckRegularFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  }
  struct stat info {};
  const int stat_result = fstat(fd, &info);
  close(fd);
  if (stat_result != 0) {
    return absl::NotFoundError(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  }
  if (!S_ISREG(info.st_mode)) {
    // Callers prefix the path, as for "cannot open".
    return absl::InvalidArgumentError(
        "not a regular file (a FIFO, device, socket or directory); pass - to read standard "
        "input");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadInputFile(const std::string& path) {
  if (IsStandardInput(path)) {
    std::string content((std::istreambuf_iterator<char>(std::cin)),
                        std::istreambuf_iterator<char>());
    if (std::cin.bad()) return absl::NotFoundError("cannot read standard input");
    return content;
  }
  KP_RETURN_IF_ERROR(CheckRegularFile(path));
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return absl::NotFoundError(fmt::format("cannot read {}", path));
  return text.str();
}

}  // namespace karpenter::api
