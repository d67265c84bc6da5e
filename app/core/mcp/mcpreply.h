// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonrpc/jsonrpcmessage.h"

#include <QString>

#include <nlohmann/json.hpp>

/// The answer to one request the studio sent a server: its result, or why there is
/// none — the server's JSON-RPC error (`error.code` ≠ 0), or `failure` (the server
/// ended, the session closed, the request timed out) with `error.code` 0.
struct McpReply
{
    nlohmann::json result;
    JsonRpcError error;
    QString failure;

    bool ok() const { return failure.isEmpty() && error.code == 0; }
    /// One line for a person: the failure, or "CODE: message" of the server's error
    /// (the message printable and cut after 2000 characters, printabletext.h).
    QString errorText() const;

    /// Server text quoted in a failure (the end of its stderr, an error's message): enough
    /// lines to show a stack trace's last frames or an npm error, not a whole log. Quoted
    /// printable (printabletext.h): a server must not drive the terminal or the label
    /// showing it.
    static constexpr qsizetype QuotedServerChars = 2000;
};
