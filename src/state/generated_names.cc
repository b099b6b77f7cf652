#include "src/state/generated_names.h"

#include "fmt/format.h"

namespace karpenter::state {
namespace {

constexpr uint64_t kFnvOffsetBasis = 14695981039346656037ULL;
constexpr uint64_t kFnvPrime = 1099511628211ULL;

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t StableHash(std::initializer_list<std::string_view> parts) {
  uint64_t hash = kFnvOffsetBasis;
  bool first = true;
  for (std::string_view part : parts) {
    if (!first) hash *= kFnvPrime;  // a NUL separator byte: hash ^ 0 is hash
    first = false;
    for (unsigned char c : part) hash = (hash ^ c) * kFnvPrime;
  }
  return Mix(hash);
}

std::string NameSuffix(uint64_t hash) {
  std::string suffix;
  suffix.reserve(kNameSuffixLength);
  for (size_t i = 0; i < kNameSuffixLength; ++i) {
    suffix.push_back(kNameSuffixAlphabet[hash % kNameSuffixAlphabet.size()]);
    hash /= kNameSuffixAlphabet.size();
  }
  return suffix;
}

std::string GeneratedName(std::string_view base, uint64_t hash) {
  std::string name(base.substr(0, kMaxGeneratedNameBaseLength));
  name += NameSuffix(hash);
  return name;
}

std::string DeterministicUid(std::initializer_list<std::string_view> parts) {
  const uint64_t high = StableHash(parts);
  const uint64_t low = Mix(high ^ 0x5bd1e9955bd1e995ULL);
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xffff,
                     high & 0xffff, low >> 48, low & 0xffffffffffffULL);
}

}  // namespace karpenter::state
