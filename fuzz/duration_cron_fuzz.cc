// Fuzzes the parsers of time values in manifests: Go durations (time.ParseDuration), Karpenter's
// NillableDuration, the CRD duration patterns and budget cron schedules. Any crash, sanitizer
// report or failed invariant is a bug:
//  - a parsed duration's Go form parses back to the same value;
//  - errors are InvalidArgument.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/api/cron.h"
#include "src/api/duration.h"

namespace {

using karpenter::api::Duration;
using karpenter::api::NillableDuration;

[[noreturn]] void Fail(const char* invariant, std::string_view input) {
  std::fprintf(stderr, "duration_cron_fuzz: %s: \"%.*s\"\n", invariant,
               static_cast<int>(input.size()), input.data());
  std::abort();
}

void CheckDuration(std::string_view input) {
  const absl::StatusOr<Duration> parsed = Duration::Parse(input);
  if (!parsed.ok()) {
    if (parsed.status().code() != absl::StatusCode::kInvalidArgument) Fail("error code", input);
  } else {
    const absl::StatusOr<Duration> again = Duration::Parse(parsed->String());
    if (!again.ok() || *again != *parsed) Fail("Go form does not parse back", input);
  }
  // The pattern matchers must answer for any text (they replace regexes).
  (void)karpenter::api::MatchesKarpenterDurationPattern(input);
  (void)karpenter::api::MatchesBudgetDurationPattern(input);
  (void)karpenter::api::MatchesTgpPattern(input);
  const absl::StatusOr<NillableDuration> nillable = NillableDuration::Parse(input);
  if (nillable.ok() && nillable->ToString() != input && !nillable->IsNever()) {
    Fail("NillableDuration does not keep its text", input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  CheckDuration(input);
  const absl::Status cron = karpenter::api::ValidateCron(input);
  if (!cron.ok() && cron.code() != absl::StatusCode::kInvalidArgument) Fail("cron code", input);
  return 0;
}
