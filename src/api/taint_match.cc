#include "src/api/taint_match.h"

#include <algorithm>
#include <string>
#include <vector>

#include "src/api/labels.h"

namespace karpenter::api {
namespace {

bool IsKnownEffect(std::string_view effect) {
  return effect == kTaintEffectNoSchedule || effect == kTaintEffectPreferNoSchedule ||
         effect == kTaintEffectNoExecute;
}

std::string Join(const std::vector<std::string>& msgs, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (i > 0) out += separator;
    out += msgs[i];
  }
  return out;
}

// Kubernetes' validateTaintEffect: `allow_empty` distinguishes tolerations ("" matches every
// effect) from taints (an effect is required).
void ValidateEffect(std::string_view effect, bool allow_empty, const std::string& path,
                    FieldErrors* errors) {
  if (effect.empty() && !allow_empty) {
    errors->Required(path);
    return;
  }
  if (!IsKnownEffect(effect)) {
    errors->NotSupported(
        path, effect,
        {kTaintEffectNoSchedule, kTaintEffectPreferNoSchedule, kTaintEffectNoExecute});
  }
}

void ValidateKey(std::string_view key, const std::string& path, FieldErrors* errors) {
  for (const std::string& msg : IsQualifiedName(key)) errors->Invalid(path, Quote(key), msg);
}

}  // namespace

bool ToleratesTaint(const Toleration& toleration, const Taint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (!toleration.key.empty() && toleration.key != taint.key) return false;
  if (toleration.operator_.empty() || toleration.operator_ == kTolerationOpEqual) {
    return toleration.value == taint.value;
  }
  return toleration.operator_ == kTolerationOpExists;
}

bool ToleratesAll(const std::vector<Toleration>& tolerations, const std::vector<Taint>& taints,
                  bool ignore_prefer_no_schedule) {
  return ToleratesAll(tolerations, taints, ignore_prefer_no_schedule, nullptr);
}

bool ToleratesAll(const std::vector<Toleration>& tolerations, const std::vector<Taint>& taints,
                  bool ignore_prefer_no_schedule, const Taint** untolerated) {
  for (const Taint& taint : taints) {
    if (ignore_prefer_no_schedule && taint.effect == kTaintEffectPreferNoSchedule) continue;
    bool tolerated = std::any_of(tolerations.begin(), tolerations.end(),
                                 [&](const Toleration& t) { return ToleratesTaint(t, taint); });
    if (!tolerated) {
      if (untolerated != nullptr) *untolerated = &taint;
      return false;
    }
  }
  return true;
}

std::string TaintToString(const Taint& taint) {
  std::string out = taint.key;
  if (!taint.value.empty()) {
    out += '=';
    out += taint.value;
  }
  out += ':';
  out += taint.effect;
  return out;
}

absl::StatusOr<Taint> ParseTaint(std::string_view spec) {
  const std::string spec_text(spec);
  auto invalid_spec = [&](std::string_view detail) {
    std::string msg = "invalid taint spec: " + spec_text;
    if (!detail.empty()) msg += ", " + std::string(detail);
    return absl::InvalidArgumentError(msg);
  };
  Taint taint;
  std::string_view key = spec;
  size_t colon = spec.find(':');
  if (colon != std::string_view::npos) {
    if (spec.find(':', colon + 1) != std::string_view::npos) return invalid_spec("");
    std::string_view effect = spec.substr(colon + 1);
    if (!IsKnownEffect(effect)) {
      return absl::InvalidArgumentError("invalid taint effect: " + std::string(effect) +
                                        ", unsupported taint effect");
    }
    taint.effect = std::string(effect);
    std::string_view key_value = spec.substr(0, colon);
    key = key_value;
    size_t equals = key_value.find('=');
    if (equals != std::string_view::npos) {
      if (key_value.find('=', equals + 1) != std::string_view::npos) return invalid_spec("");
      key = key_value.substr(0, equals);
      std::string_view value = key_value.substr(equals + 1);
      if (std::vector<std::string> errs = IsValidLabelValue(value); !errs.empty()) {
        return invalid_spec(Join(errs, "; "));
      }
      taint.value = std::string(value);
    }
  }
  if (std::vector<std::string> errs = IsQualifiedName(key); !errs.empty()) {
    return invalid_spec(Join(errs, "; "));
  }
  taint.key = std::string(key);
  return taint;
}

void ValidateTaint(const Taint& taint, std::string_view path, FieldErrors* errors) {
  ValidateKey(taint.key, ChildPath(path, "key"), errors);
  if (std::vector<std::string> errs = IsValidLabelValue(taint.value); !errs.empty()) {
    errors->Invalid(ChildPath(path, "value"), Quote(taint.value), Join(errs, ";"));
  }
  ValidateEffect(taint.effect, /*allow_empty=*/false, ChildPath(path, "effect"), errors);
}

void ValidateToleration(const Toleration& toleration, std::string_view path, FieldErrors* errors) {
  const std::string operator_path = ChildPath(path, "operator");
  if (!toleration.key.empty()) ValidateKey(toleration.key, ChildPath(path, "key"), errors);
  if (toleration.key.empty() && toleration.operator_ != kTolerationOpExists) {
    errors->Invalid(operator_path, Quote(toleration.operator_),
                    "operator must be Exists when `key` is empty, which means \"match all "
                    "values and all keys\"");
  }
  if (toleration.toleration_seconds.has_value() && toleration.effect != kTaintEffectNoExecute) {
    errors->Invalid(ChildPath(path, "effect"), Quote(toleration.effect),
                    "effect must be 'NoExecute' when `tolerationSeconds` is set");
  }
  // Kubernetes reports value problems under `operator`, since the operator decides which
  // values are allowed; kept so paths match what users see from the API server.
  if (toleration.operator_.empty() || toleration.operator_ == kTolerationOpEqual) {
    if (std::vector<std::string> errs = IsValidLabelValue(toleration.value); !errs.empty()) {
      errors->Invalid(operator_path, Quote(toleration.value), Join(errs, ";"));
    }
  } else if (toleration.operator_ == kTolerationOpExists) {
    if (!toleration.value.empty()) {
      // Kubernetes prints the whole toleration struct as the bad value; the value alone says
      // the same thing more readably.
      errors->Invalid(operator_path, Quote(toleration.value),
                      "value must be empty when `operator` is 'Exists'");
    }
  } else {
    errors->NotSupported(operator_path, toleration.operator_,
                         {kTolerationOpEqual, kTolerationOpExists});
  }
  if (!toleration.effect.empty()) {
    ValidateEffect(toleration.effect, /*allow_empty=*/true, ChildPath(path, "effect"), errors);
  }
}

}  // namespace karpenter::api
