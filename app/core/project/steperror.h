// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "errorcode.h"
#include "project/result.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <string>

struct BridgeError;

/// The wire name of `code` (errorCodeName()) as a QString, for views and messages.
QString errorCodeText(ErrorCode code);

/// Why a step, or one attempt of it, failed (DESIGN.md glossary, "attempt"): what the
/// script's ToolError carries, what the journal stores and the views show. The bridge
/// codec's BridgeError is its wire form (toBridge()).
struct StepError
{
    ErrorCode code = ErrorCode::ToolFailed;
    std::string message;
    bool retryable = false;
    int attempts = 0;
    /// Optional extra fields (e.g. "pointer" for invalid_arguments).
    nlohmann::json details = nlohmann::json::object();

    /// The code's wire name: "tool_failed", …
    QString codeName() const;
    /// "code: message", as the trace, the inspector and the comparison show it.
    QString text() const;

    /// The journal's and the run export's shape, the one of the bridge's error reply:
    /// {"code","message","retryable","attempts"} plus the fields of `details`.
    nlohmann::json toJson() const;
    /// The inverse of toJson(). Fails naming the field when a known field has the wrong
    /// type or `json` is not an object, and naming the code when the protocol has none
    /// of that name.
    static Result<StepError> fromJson(const nlohmann::json &json);
    /// The error as the bridge codec sends it (bridgemessage.h).
    BridgeError toBridge() const;
};
