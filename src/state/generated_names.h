// Deterministic stand-ins for what the API server randomises when controllers create objects:
// the 5-character `generateName` suffix and the object UID. Derived from a stable hash of what
// identifies the object, so the same snapshot always expands to the same names, whatever the
// input order, process or platform.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace karpenter::state {

// Kubernetes' suffix alphabet (k8s.io/apimachinery/pkg/util/rand): consonants and digits without
// look-alikes, so generated names never spell words or confuse 0/o, 1/l.
inline constexpr std::string_view kNameSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";
inline constexpr size_t kNameSuffixLength = 5;
// generateName keeps at most this much of the base (63 − 5, as the API server's name generator).
inline constexpr size_t kMaxGeneratedNameBaseLength = 58;

// 64-bit FNV-1a of the parts joined with NUL separators (so ("ab","c") and ("a","bc") differ),
// finished with a SplitMix64 mix so nearby inputs spread over the whole range.
uint64_t StableHash(std::initializer_list<std::string_view> parts);

// Five characters of kNameSuffixAlphabet drawn from `hash`.
std::string NameSuffix(uint64_t hash);

// `base` (truncated to kMaxGeneratedNameBaseLength) followed by NameSuffix(hash), as the API
// server expands `generateName: base`.
std::string GeneratedName(std::string_view base, uint64_t hash);

// A UUID-shaped identifier (8-4-4-4-12 lowercase hex) derived from the parts.
std::string DeterministicUid(std::initializer_list<std::string_view> parts);

}  // namespace karpenter::state
