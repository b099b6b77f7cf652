// Error plumbing shared by every library: absl::Status / absl::StatusOr plus the two
// propagation macros the project allows (see STYLE.md, "Errors").
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define KP_STATUS_CONCAT_INNER_(a, b) a##b
#define KP_STATUS_CONCAT_(a, b) KP_STATUS_CONCAT_INNER_(a, b)

// Returns from the enclosing function when `expr` (an absl::Status) is not OK.
#define KP_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::absl::Status kp_status_ = (expr);      \
    if (!kp_status_.ok()) return kp_status_; \
  } while (false)

// `KP_ASSIGN_OR_RETURN(auto x, MakeX());` unwraps a StatusOr or returns its error.
#define KP_ASSIGN_OR_RETURN(lhs, expr) \
  KP_ASSIGN_OR_RETURN_IMPL_(KP_STATUS_CONCAT_(kp_statusor_, __LINE__), lhs, expr)
#define KP_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
