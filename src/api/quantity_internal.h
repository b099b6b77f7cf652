// Helpers shared by the quantity sources: native 128-bit integers (GCC/Clang `__int128`, which
// the overflow builtins accept), conversions to and from the absl types in the public header, and
// the canonical form written into a fixed buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "absl/numeric/int128.h"
#include "src/api/quantity.h"

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

// Text built in place without allocating. A canonical quantity is at most 42 characters: a
// sign, 38 digits of nano-units and a suffix or an exponent such as "e-9".
class ShortText {
 public:
  static constexpr size_t kCapacity = 48;
  void push_back(char c) { buf_[size_++] = c; }
  void append(std::string_view s) {
    std::memcpy(buf_ + size_, s.data(), s.size());
    size_ += s.size();
  }
  std::string_view view() const { return std::string_view(buf_, size_); }

 private:
  char buf_[kCapacity];
  size_t size_ = 0;
};

// What Quantity::CanonicalString() returns, for the given value and format.
ShortText CanonicalText(absl::int128 nanos, Quantity::Format format);

}  // namespace karpenter::api::quantity_internal
