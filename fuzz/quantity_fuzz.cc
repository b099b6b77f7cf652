// libFuzzer target for the quantity parser: any input must either fail cleanly or produce a
// quantity whose printed forms parse back to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "src/api/quantity.h"

namespace {

using karpenter::api::Quantity;

[[noreturn]] void Fail(const char* what, std::string_view input, const std::string& printed) {
  std::fprintf(stderr, "%s: input \"%.*s\" printed \"%s\"\n", what, static_cast<int>(input.size()),
               input.data(), printed.c_str());
  std::abort();
}

void CheckReparses(std::string_view input, const Quantity& q, const std::string& printed) {
  const absl::StatusOr<Quantity> again = Quantity::Parse(printed);
  if (!again.ok()) Fail("printed form does not parse", input, printed);
  if (*again != q) Fail("printed form parses to a different value", input, printed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<Quantity> q = Quantity::Parse(input);
  if (!q.ok()) {
    const absl::StatusCode code = q.status().code();
    if (code != absl::StatusCode::kInvalidArgument && code != absl::StatusCode::kOutOfRange) {
      Fail("unexpected error code", input, std::string(q.status().message()));
    }
    return 0;
  }
  const std::string printed = q->String();
  CheckReparses(input, *q, printed);
  const std::string canonical = q->CanonicalString();
  CheckReparses(input, *q, canonical);
  if (q->format() != Quantity::Format::kBinarySI) {
    // Decimal formats survive the round trip, so the canonical form is a fixed point.
    const absl::StatusOr<Quantity> again = Quantity::Parse(canonical);
    if (again->CanonicalString() != canonical) Fail("canonical form not stable", input, canonical);
  }
  // Accessors must agree with the ordering.
  const int64_t milli = q->MilliValue();
  if ((milli > 0) != (q->Sign() > 0) || (milli < 0) != (q->Sign() < 0)) {
    Fail("MilliValue sign disagrees with Sign()", input, printed);
  }
  // Doubling stays exact below half the range; beyond it Add saturates by design.
  const absl::int128 half_limit(Quantity::kNanoLimit / 2);
  Quantity sum = *q;
  sum.Add(*q);
  sum.Sub(*q);
  if (q->Nanos() < half_limit && q->Nanos() > -half_limit && sum != *q) {
    Fail("Add then Sub changed the value", input, sum.String());
  }
  return 0;
}
