// Decode throughput and memory for a `kubectl get pods -o json` list.
//
//   kp_decode_bench --generate pods.json --pods 20000   # write the input once
//   kp_decode_bench --decode pods.json [--json]          # measure in a fresh process
//
// Peak memory is the process high-water mark (VmHWM) minus the resident size before the file
// is read, divided by the input size; wall time covers decode into typed objects only.
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "bench/pod_list_generator.h"
#include "fmt/format.h"
#include "src/api/manifest.h"

namespace {

long ReadStatusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field)));
  }
  return 0;
}

size_t HeapInUse() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

int Generate(const std::string& path, size_t pods) {
  std::ofstream(path, std::ios::binary) << karpenter::bench::GeneratePodListJson(pods);
  return 0;
}

int Decode(const std::string& path, bool json) {
  long baseline_kb = ReadStatusKb("VmRSS:");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string content = std::move(buffer).str();
  size_t heap_before = HeapInUse();
  auto start = std::chrono::steady_clock::now();
  auto manifests = karpenter::api::DecodeManifests(content, path);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!manifests.ok()) {
    std::cerr << manifests.status() << "\n";
    return 1;
  }
  size_t pods = 0;
  size_t errors = 0;
  for (const auto& m : *manifests) {
    if (m.object && std::holds_alternative<karpenter::api::Pod>(*m.object)) ++pods;
    errors += m.report.errors.size();
  }
  // Heap still held by the decoded objects once the parser is gone, including the vector of
  // manifests (large blocks are mmapped, so hblkhd counts next to the arena's uordblks).
  double heap_mib = static_cast<double>(HeapInUse() - heap_before) / (1024.0 * 1024.0);
  double mb = static_cast<double>(content.size()) / 1e6;
  double peak_mb = static_cast<double>(ReadStatusKb("VmHWM:") - baseline_kb) / 1024.0;
  double ratio = peak_mb * 1024.0 * 1024.0 / static_cast<double>(content.size());
  if (json) {
    std::cout << fmt::format(
        R"({{"pods":{},"inputMB":{:.2f},"seconds":{:.4f},"mbPerSecond":{:.1f},"peakMB":{:.1f},"peakToInput":{:.2f},"heapInUseMiB":{:.1f},"errors":{}}})"
        "\n",
        pods, mb, seconds, mb / seconds, peak_mb, ratio, heap_mib, errors);
  } else {
    std::cout << fmt::format(
        "pods={} input={:.1f}MB decode={:.3f}s throughput={:.0f}MB/s peak={:.1f}MB "
        "({:.2f}x input) heap_in_use={:.1f}MiB errors={}\n",
        pods, mb, seconds, mb / seconds, peak_mb, ratio, heap_mib, errors);
  }
  return errors == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string generate;
  std::string decode;
  size_t pods = 20000;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--generate" && i + 1 < argc) generate = argv[++i];
    else if (arg == "--decode" && i + 1 < argc) decode = argv[++i];
    else if (arg == "--pods" && i + 1 < argc) pods = std::stoul(argv[++i]);
    else if (arg == "--json") json = true;
    else {
      std::cerr << "usage: kp_decode_bench --generate FILE [--pods N] | --decode FILE [--json]\n";
      return 2;
    }
  }
  if (!generate.empty()) return Generate(generate, pods);
  if (!decode.empty()) return Decode(decode, json);
  std::cerr << "nothing to do\n";
  return 2;
}
