// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/tool.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

/// One result the client posts for a call (`tool_results[]`).
struct ProgrammaticResult
{
    QString callId;
    nlohmann::json result;
    bool isError = false;
    QString errorMessage;
};

/// A body of `POST /v1/exec/programmatic` or `POST /v1/exec`, checked (docs/server.md
/// "Programmatic tool calling"): either a new session (code, language, tools, files,
/// timeout) or a continuation (session_id, continuation_token, tool_results).
struct ProgrammaticRequest
{
    /// The limits of a body's parts.
    static constexpr std::size_t MaxResultBytes = 1024 * 1024; ///< one call's result or error_message (compact JSON)
    static constexpr int MaxFiles = 100;
    static constexpr int MaxTools = 128;
    static constexpr int MaxTimeoutSeconds = 3600;

    bool continuation = false;
    // A new session.
    QString code;
    QString language = QStringLiteral("python"); ///< "python" or "bash"
    std::vector<Tool> tools;                     ///< manual-like tools the client answers
    QList<QPair<QString, QByteArray>> files;     ///< name → decoded bytes
    int timeoutSeconds = 0;                      ///< 0 = the server's default
    /// The body without its code (compact JSON, members in their order): kept with the
    /// session so that a restarted studio can start it again (ServedSessionRecord).
    std::string startSpec;
    // A continuation.
    QString sessionId;
    std::string continuationToken;
    std::vector<ProgrammaticResult> results;

    /// What was wrong: the HTTP status (400, 413), a stable code and the message.
    struct Problem
    {
        int status = 400;
        const char *code = "bad_request";
        QString message;
    };

    /// Parses `body`; `withTools` false for `/v1/exec` (no tools, no continuation).
    static std::optional<ProgrammaticRequest> parse(const std::string &body, bool withTools, Problem *problem);
};
