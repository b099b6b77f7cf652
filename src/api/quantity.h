// Kubernetes resource quantities ("500m", "1.5Gi", "1e3") with the parsing, rounding and
// printing rules of k8s.io/apimachinery/pkg/api/resource.Quantity.
//
// Representation: an exact signed count of nano-units (10^-9) in 128 bits plus the format the
// value was written in. Kubernetes never keeps precision below 1n (it rounds finer values away
// from zero), so nano-units lose nothing. Upstream falls back to arbitrary precision for huge
// values; here magnitudes must stay below 10^29 (38 decimal digits of nano-units). Parse rejects
// larger decimal values with OutOfRange, while binary-suffixed values are capped at 2^63-1 exactly
// as upstream caps them. Add and Sub saturate at the range limit instead of wrapping.
//
// A Quantity is 32 bytes: resource lists hold many of them, so the value is stored as two
// 64-bit halves (no 16-byte alignment) and the verbatim input text that upstream's String()
// sometimes returns is kept on the heap, only in the rare case that it differs from the
// canonical form ("+1", "1E3", "1.500").
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/numeric/int128.h"
#include "absl/status/statusor.h"
#include "src/api/box.h"

namespace karpenter::api {

class Quantity {
 public:
  // How a quantity prints; kept from the suffix it was parsed with.
  enum class Format : uint8_t {
    kDecimalSI,        // 12M  (12 * 10^6)
    kBinarySI,         // 12Mi (12 * 2^20)
    kDecimalExponent,  // 12e6
  };

  // Exclusive bound on |value| in nano-units: values are below 10^29.
  static constexpr absl::uint128 kNanoLimit =
      absl::MakeUint128(0x4B3B4CA85A86C47AULL, 0x098A224000000000ULL);  // 10^38

  Quantity() = default;  // zero, DecimalSI

  // Accepts exactly the strings Kubernetes accepts ("500m", "+1", ".5", "1.5Gi", "1E3", and the
  // odd ones upstream also takes such as "1." or "-"). Errors carry upstream's messages.
  static absl::StatusOr<Quantity> Parse(std::string_view text);
  static Quantity FromInt(int64_t value, Format format);
  static Quantity FromMilli(int64_t milli_value, Format format);

  // What upstream's String() returns: the parsed text itself when upstream keeps it (inputs that
  // were already canonical-looking, e.g. "500m", "1Ki", but also "+1" or "1E3"), otherwise the
  // canonical form.
  std::string String() const;
  // The canonical form: no fractional digits, largest suffix that loses no precision
  // ("1.5" -> "1500m", "1.5Gi" -> "1536Mi", "1000" -> "1k").
  std::string CanonicalString() const;

  // Value rounded away from zero to an integer, or to milli-units; saturates at the int64 range.
  int64_t Value() const;
  int64_t MilliValue() const;
  double AsApproximateFloat64() const;
  // The exact value in nano-units.
  absl::int128 Nanos() const { return absl::MakeInt128(nanos_high_, nanos_low_); }

  Format format() const { return format_; }
  bool IsZero() const { return nanos_high_ == 0 && nanos_low_ == 0; }
  int Sign() const { return nanos_high_ < 0 ? -1 : (IsZero() ? 0 : 1); }
  int Cmp(const Quantity& other) const {
    const absl::int128 a = Nanos();
    const absl::int128 b = other.Nanos();
    return a < b ? -1 : (a == b ? 0 : 1);
  }

  // In-place arithmetic as upstream: a zero receiver adopts the other operand's format.
  void Add(const Quantity& other);
  void Sub(const Quantity& other);
  void Neg();

  // Numeric comparison; the format and remembered text do not take part.
  friend bool operator==(const Quantity& a, const Quantity& b) {
    return a.nanos_low_ == b.nanos_low_ && a.nanos_high_ == b.nanos_high_;
  }
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
    return a.Cmp(b) <=> 0;
  }

 private:
  Quantity(absl::int128 nanos, Format format) : format_(format) { SetNanos(nanos); }
  void SetNanos(absl::int128 nanos) {
    nanos_low_ = absl::Int128Low64(nanos);
    nanos_high_ = absl::Int128High64(nanos);
  }

  uint64_t nanos_low_ = 0;
  int64_t nanos_high_ = 0;
  // The parsed text when upstream would print it back verbatim and it differs from
  // CanonicalString(); empty otherwise (String() then prints the canonical form, which is what
  // upstream would print too).
  Box<std::string> text_;
  Format format_ = Format::kDecimalSI;
};

// "DecimalSI", "BinarySI" or "DecimalExponent", as upstream spells the formats.
std::string_view FormatName(Quantity::Format format);

}  // namespace karpenter::api
