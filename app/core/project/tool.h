// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

/// How a tool's calls are answered (DESIGN.md glossary, "handler kinds").
enum class HandlerKind {
    Mock,    ///< a scripted sequence of results/errors/delays
    Manual,  ///< a person answers every call (a pending call)
    Command, ///< a host command: JSON args on stdin, JSON result on stdout
    Python,  ///< a method of a `class Tools` file (trusted tool worker; a later issue)
    Mcp,     ///< a tool of one of the project's MCP servers (`SERVER__TOOL`, docs/mcp.md)
};

QString handlerKindName(HandlerKind kind);

/// Retry policy of a step (DESIGN.md "Steps: the engine"). Times in milliseconds;
/// 0 for a timeout means "no bound".
struct RetryPolicy
{
    int maxAttempts = 3;
    int initialBackoffMs = 500;
    double factor = 2.0;
    int maxBackoffMs = 30000;
    double jitter = 0.2; ///< fraction of the backoff added or removed at random
    int attemptTimeoutMs = 30000;
    int totalTimeoutMs = 0;
};

/// One entry of a mock tool's sequence. Entry i answers the i-th attempt made on the
/// tool within a run; after the last entry, the last one repeats.
struct MockResponse
{
    bool isError = false;
    nlohmann::json result; ///< for a result entry
    QString errorMessage;  ///< for an error entry
    bool retryable = true; ///< for an error entry
    int delayMs = 0;       ///< wait before answering
};

/// A tool as declared in `toolstudio.json` (name, description, input_schema,
/// optional output_schema, handler, tags, active flag, retry policy).
struct Tool
{
    QString name;
    QString title; ///< MCP's human-readable title (optional; the name stays the identity)
    QString description;
    /// MCP's behaviour hints, as declared: any of readOnlyHint, destructiveHint,
    /// idempotentHint, openWorldHint (booleans). Hints for people; nothing enforces them.
    nlohmann::json annotations = nlohmann::json::object();
    nlohmann::json inputSchema = nlohmann::json::object();
    std::optional<nlohmann::json> outputSchema;
    /// Top-level property names of input_schema in declaration order; positional
    /// arguments are mapped onto these.
    QStringList parameterOrder;
    HandlerKind handler = HandlerKind::Mock;
    QStringList tags;
    bool active = true;
    RetryPolicy retry;
    /// What the derived schema cannot say exactly (Python tools: a recursive model cut
    /// off, an untyped list/dict parameter, no docstring), one sentence each; the tool
    /// still loads. Shown on the tool's row in the Project dock and by `tools list`.
    QStringList warnings;

    std::vector<MockResponse> mockSequence; ///< Mock handlers
    QStringList command;                    ///< Command handlers: argv, run in the project dir
    /// Command handlers: names of string arguments that name a file in the run's work
    /// dir; the studio opens each with WorkDirFile and hands it to the command as an
    /// open fd ("/dev/fd/N" replaces the value). docs/project-format.md "file_args".
    QStringList commandFileArgs;

    /// Tool names follow MCP's rule, 1–128 of `A-Z a-z 0-9 _ - .` (DESIGN.md glossary),
    /// with a first character that is a letter, digit or '_': a name is never an option
    /// on a command line (`-x`) nor a path component ('.', '..').
    /// ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$
    static QString nameRule();
    static bool isValidName(const QString &name);
    /// A valid name close to `name` (each character outside the rule becomes '_', a
    /// leading '-' or '.' gets a '_' before it, cut to 128), for a person to accept.
    static QString suggestName(const QString &name);
};
