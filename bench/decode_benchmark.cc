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
#include <filesystem>
#include <fstream>
#include <iostream>
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

int Generate(const std::string& path, size_t pods) {
  std::ofstream(path, std::ios::binary) << karpenter::bench::GeneratePodListJson(pods);
  return 0;
}

int Decode(const std::string& path, bool json) {
  long baseline_kb = ReadStatusKb("VmRSS:");
  // Loading (into simdjson's padded buffer, as `karpenter plan` does) and decoding into typed
  // objects are timed apart; throughput is for the decode.
  auto start = std::chrono::steady_clock::now();
  simdjson::padded_string content;
  if (simdjson::padded_string::load(path).get(content) != simdjson::SUCCESS) {
    std::cerr << "cannot read " << path << "\n";
    return 1;
  }
  auto loaded = std::chrono::steady_clock::now();
  auto manifests = karpenter::api::DecodeManifests(simdjson::padded_string_view(content), path);
  auto decoded = std::chrono::steady_clock::now();
  double load_seconds = std::chrono::duration<double>(loaded - start).count();
  double seconds = std::chrono::duration<double>(decoded - loaded).count();
  if (!manifests.ok()) {
    std::cerr << manifests.status() << "\n";
    return 1;
  }
  auto input_bytes = static_cast<double>(std::filesystem::file_size(path));
  size_t pods = 0;
  size_t errors = 0;
  for (const auto& m : *manifests) {
    if (m.object && std::holds_alternative<karpenter::api::Pod>(*m.object)) ++pods;
    errors += m.report.errors.size();
  }
  double mb = input_bytes / 1e6;
  double peak_mb = static_cast<double>(ReadStatusKb("VmHWM:") - baseline_kb) / 1024.0;
  double ratio = peak_mb * 1024.0 * 1024.0 / input_bytes;
  double typed_mb = static_cast<double>(mallinfo2().uordblks) / 1048576.0;
  if (json) {
    std::cout << fmt::format(
        R"({{"pods":{},"inputMB":{:.2f},"loadSeconds":{:.4f},"seconds":{:.4f},"mbPerSecond":{:.1f},"peakMB":{:.1f},"peakToInput":{:.2f},"typedMB":{:.1f},"errors":{}}})"
        "\n",
        pods, mb, load_seconds, seconds, mb / seconds, peak_mb, ratio, typed_mb, errors);
  } else {
    std::cout << fmt::format(
        "pods={} input={:.1f}MB load={:.3f}s decode={:.3f}s throughput={:.0f}MB/s peak={:.1f}MB "
        "({:.2f}x input) typed objects={:.1f}MB errors={}\n",
        pods, mb, load_seconds, seconds, mb / seconds, peak_mb, ratio, typed_mb, errors);
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
    if (arg == "--generate" && i + 1 < argc)
      generate = argv[++i];
    else if (arg == "--decode" && i + 1 < argc)
      decode = argv[++i];
    else if (arg == "--pods" && i + 1 < argc)
      pods = std::stoul(argv[++i]);
    else if (arg == "--json")
      json = true;
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
