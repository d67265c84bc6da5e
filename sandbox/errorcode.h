// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

/// Why a tool call failed: the error codes of the bridge protocol (docs/bridge.md,
/// DESIGN.md's list). The one place their wire names are spelled; Qt-free, so the
/// sandbox's codec and the studio's core (StepError) both use it.
enum class ErrorCode {
    UnknownTool,
    InactiveTool,
    InvalidArguments,
    RequestTooLarge,
    ReplyTooLarge,
    MaxCallsExceeded,
    Timeout,
    ToolFailed,
    Cancelled,
    ProtocolError,
    // Model steps (docs/models.md "The model step"): refusals, then ModelError's codes.
    UnknownModel,
    MaxModelCallsExceeded,
    MaxTokensExceeded,
    InvalidRequest,
    ModelUnreachable,
    ModelAuth,
    MissingSecret,
    RateLimited,
    ModelServerError,
    ModelRefused,
    ModelBadReply,
    ModelFailed,
};

namespace ErrorCodes {
inline constexpr std::array<std::pair<ErrorCode, std::string_view>, 22> names{{
    {ErrorCode::UnknownTool, "unknown_tool"},
    {ErrorCode::InactiveTool, "inactive_tool"},
    {ErrorCode::InvalidArguments, "invalid_arguments"},
    {ErrorCode::RequestTooLarge, "request_too_large"},
    {ErrorCode::ReplyTooLarge, "reply_too_large"},
    {ErrorCode::MaxCallsExceeded, "max_calls_exceeded"},
    {ErrorCode::Timeout, "timeout"},
    {ErrorCode::ToolFailed, "tool_failed"},
    {ErrorCode::Cancelled, "cancelled"},
    {ErrorCode::ProtocolError, "protocol_error"},
    {ErrorCode::UnknownModel, "unknown_model"},
    {ErrorCode::MaxModelCallsExceeded, "max_model_calls_exceeded"},
    {ErrorCode::MaxTokensExceeded, "max_tokens_exceeded"},
    {ErrorCode::InvalidRequest, "invalid_request"},
    {ErrorCode::ModelUnreachable, "model_unreachable"},
    {ErrorCode::ModelAuth, "model_auth"},
    {ErrorCode::MissingSecret, "missing_secret"},
    {ErrorCode::RateLimited, "rate_limited"},
    {ErrorCode::ModelServerError, "model_server_error"},
    {ErrorCode::ModelRefused, "model_refused"},
    {ErrorCode::ModelBadReply, "model_bad_reply"},
    {ErrorCode::ModelFailed, "model_failed"},
}};
} // namespace ErrorCodes

/// The wire name: "unknown_tool", "timeout", …
constexpr std::string_view errorCodeName(ErrorCode code)
{
    for (const auto &[value, name] : ErrorCodes::names)
        if (value == code)
            return name;
    return {};
}

/// The code a wire name stands for; nullopt for a name the protocol does not have.
constexpr std::optional<ErrorCode> errorCodeFromName(std::string_view name)
{
    for (const auto &[value, text] : ErrorCodes::names)
        if (text == name)
            return value;
    return std::nullopt;
}
