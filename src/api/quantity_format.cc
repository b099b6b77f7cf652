// Printing, conversion and arithmetic of Kubernetes quantities (see quantity.h). The canonical
// form follows upstream's CanonicalizeBytes.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "src/api/quantity.h"
#include "src/api/quantity_internal.h"

namespace karpenter::api {
namespace {

using quantity_internal::FromNative;
using quantity_internal::I128;
using quantity_internal::kNanosPerUnit;
using quantity_internal::ToNative;
using quantity_internal::U128;

U128 Magnitude(I128 v) { return v < 0 ? U128{0} - static_cast<U128>(v) : static_cast<U128>(v); }

template <class U>
U Pow10(int n) {
  U r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

// U is uint64_t or U128; callers use the narrow type whenever the value fits.
template <class U>
void AppendUnsigned(quantity_internal::ShortText& out, U v) {
  char buf[40];
  size_t i = sizeof(buf);
  do {
    buf[--i] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  out.append(std::string_view(buf + i, sizeof(buf) - i));
}

// Decimal SI suffixes for exponents -9, -6, ..., 18.
constexpr std::string_view kDecimalSuffixes[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
// Binary suffixes for powers of 1024 from 0 to 6.
constexpr std::string_view kBinarySuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

// Appends the canonical form of a non-negative value of `magnitude` nano-units.
template <class U>
void AppendCanonical(quantity_internal::ShortText& out, U magnitude, Quantity::Format format) {
  using Format = Quantity::Format;
  if (magnitude == 0) {
    out.push_back('0');
    return;
  }
  if (format == Format::kBinarySI &&
      (magnitude < U{1024} * kNanosPerUnit || magnitude % kNanosPerUnit != 0)) {
    // Small binary values print as decimal rather than as a rounded "1Ki"-style number, and so
    // do fractional ones: rounding up to whole units would lose precision.
    format = Format::kDecimalSI;
  }
  if (format == Format::kBinarySI) {
    U units = magnitude / kNanosPerUnit;
    size_t power = 0;
    // Upstream has no suffix beyond Ei (and would print none at all); keep Ei with a larger
    // mantissa so the text still parses back to the same value.
    while (units >= 1024 && units % 1024 == 0 && power + 1 < std::size(kBinarySuffixes)) {
      units /= 1024;
      ++power;
    }
    AppendUnsigned(out, units);
    out.append(kBinarySuffixes[power]);
    return;
  }
  // mantissa * 10^exponent with every factor of ten moved into the exponent, then the exponent
  // lowered to a multiple of three. Neither step makes the mantissa exceed `magnitude`.
  U mantissa = magnitude;
  int exponent = -9;
  while (mantissa >= 10 && mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  const int remainder = ((exponent % 3) + 3) % 3;
  mantissa *= Pow10<U>(remainder);
  exponent -= remainder;
  if (format == Format::kDecimalExponent) {
    AppendUnsigned(out, mantissa);
    if (exponent != 0) {
      out.push_back('e');
      if (exponent < 0) out.push_back('-');
      AppendUnsigned(out, static_cast<uint64_t>(exponent < 0 ? -exponent : exponent));
    }
    return;
  }
  if (exponent > 18) {
    // Beyond "E" upstream prints no suffix at all, which changes the value; stay with "E".
    mantissa *= Pow10<U>(exponent - 18);
    exponent = 18;
  }
  AppendUnsigned(out, mantissa);
  out.append(kDecimalSuffixes[(exponent + 9) / 3]);
}

constexpr double kPow10Double[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                   1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
                                   1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29};

// Divides by `divisor`, rounding away from zero, and saturates at the int64 range.
int64_t ScaleAwayFromZero(I128 nanos, uint64_t divisor) {
  const U128 magnitude = Magnitude(nanos);
  U128 q = magnitude / divisor;
  if (magnitude % divisor != 0) ++q;
  if (nanos >= 0) {
    return q > quantity_internal::kMaxInt64 ? std::numeric_limits<int64_t>::max()
                                            : static_cast<int64_t>(q);
  }
  if (q > U128{quantity_internal::kMaxInt64} + 1) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(0 - static_cast<uint64_t>(q));
}

// a + b clamped into the representable range (|v| < 10^38 nano-units).
I128 SaturatingAdd(I128 a, I128 b) {
  const I128 max = static_cast<I128>(ToNative(Quantity::kNanoLimit)) - 1;
  I128 r;
  // The operands lie within the range, so an overflow means both share a's sign.
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? max : -max;
  if (r > max) return max;
  if (r < -max) return -max;
  return r;
}

}  // namespace

namespace quantity_internal {

ShortText CanonicalText(absl::int128 value, Quantity::Format format) {
  ShortText out;
  const I128 nanos = ToNative(value);
  if (nanos < 0) out.push_back('-');
  const U128 magnitude = Magnitude(nanos);
  // Parsing compares every kept text with this form, so keep common values off the 128-bit
  // division library calls.
  if (magnitude <= std::numeric_limits<uint64_t>::max()) {
    AppendCanonical(out, static_cast<uint64_t>(magnitude), format);
  } else {
    AppendCanonical(out, magnitude, format);
  }
  return out;
}

}  // namespace quantity_internal

Quantity Quantity::FromInt(int64_t value, Format format) {
  return Quantity(FromNative(I128{value} * kNanosPerUnit), format);
}

Quantity Quantity::FromMilli(int64_t milli_value, Format format) {
  return Quantity(FromNative(I128{milli_value} * (kNanosPerUnit / 1000)), format);
}

std::string Quantity::String() const { return text_.has_value() ? *text_ : CanonicalString(); }

std::string Quantity::CanonicalString() const {
  return std::string(quantity_internal::CanonicalText(Nanos(), format_).view());
}

int64_t Quantity::Value() const { return ScaleAwayFromZero(ToNative(Nanos()), kNanosPerUnit); }

int64_t Quantity::MilliValue() const {
  return ScaleAwayFromZero(ToNative(Nanos()), kNanosPerUnit / 1000);
}

double Quantity::AsApproximateFloat64() const {
  const I128 nanos = ToNative(Nanos());
  if (nanos == 0) return 0.0;
  U128 mantissa = Magnitude(nanos);
  int exponent = -9;
  while (mantissa >= 10 && mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  const double base = static_cast<double>(mantissa);
  // Dividing by an exact power of ten rounds once; multiplying by an inexact 10^-k would not.
  const double value =
      exponent >= 0 ? base * kPow10Double[exponent] : base / kPow10Double[-exponent];
  return nanos < 0 ? -value : value;
}

void Quantity::Add(const Quantity& other) {
  text_.reset();
  if (IsZero()) format_ = other.format_;
  SetNanos(FromNative(SaturatingAdd(ToNative(Nanos()), ToNative(other.Nanos()))));
}

void Quantity::Sub(const Quantity& other) {
  text_.reset();
  if (IsZero()) format_ = other.format_;
  SetNanos(FromNative(SaturatingAdd(ToNative(Nanos()), -ToNative(other.Nanos()))));
}

void Quantity::Neg() {
  text_.reset();
  SetNanos(-Nanos());
}

std::string_view FormatName(Quantity::Format format) {
  switch (format) {
    case Quantity::Format::kDecimalSI:
      return "DecimalSI";
    case Quantity::Format::kBinarySI:
      return "BinarySI";
    case Quantity::Format::kDecimalExponent:
      return "DecimalExponent";
  }
  return "DecimalSI";
}

}  // namespace karpenter::api
