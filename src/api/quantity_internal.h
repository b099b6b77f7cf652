// Helpers shared by the quantity sources: native 128-bit integers (GCC/Clang `__int128`, which
// the overflow builtins accept) and conversions to and from the absl types in the public header.
#pragma once

#include <cstdint>
#include <limits>

#include "absl/numeric/int128.h"

namespace karpenter::api::quantity_internal {

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

inline constexpr uint64_t kNanosPerUnit = 1'000'000'000;
inline constexpr uint64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

inline constexpr U128 ToNative(absl::uint128 v) {
  return (U128{absl::Uint128High64(v)} << 64) | absl::Uint128Low64(v);
}

inline constexpr I128 ToNative(absl::int128 v) {
  return static_cast<I128>((U128{static_cast<uint64_t>(absl::Int128High64(v))} << 64) |
                           absl::Int128Low64(v));
}

inline constexpr absl::int128 FromNative(I128 v) {
  const U128 bits = static_cast<U128>(v);
  return absl::MakeInt128(static_cast<int64_t>(static_cast<uint64_t>(bits >> 64)),
                          static_cast<uint64_t>(bits));
}

}  // namespace karpenter::api::quantity_internal
