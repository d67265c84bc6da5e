// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Running the built toolstudio's headless commands, for the suites that test them
// end to end (tests/system/).
#pragma once

#include "trustedproject.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <vector>

/// What one command left: its exit code and everything it wrote.
struct CommandResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// The built toolstudio (TOOLSTUDIO_BINARY, which CTest sets).
inline QString toolstudioBinary()
{
    return qEnvironmentVariable("TOOLSTUDIO_BINARY");
}

/// `arguments` of a toolstudio command with --trust after the verb when the verb runs
/// the project's code (run, replay, resume, tools, mcp, chat): the suites that run projects trust
/// them explicitly, this way (docs/sandbox.md "Trust before code runs"). The grant is
/// recorded in the suite's own config folder: it calls isolateConfigDir(), so every
/// child started after it inherits that folder.
inline QStringList withTrust(QStringList arguments)
{
    isolateConfigDir();
    static const QStringList verbs{QStringLiteral("run"),   QStringLiteral("replay"), QStringLiteral("resume"),
                                   QStringLiteral("tools"), QStringLiteral("mcp"),    QStringLiteral("chat")};
    if (!arguments.isEmpty() && verbs.contains(arguments.first()) && !arguments.contains(QStringLiteral("--trust")))
        arguments.insert(arguments.first() == QLatin1String("mcp") ? arguments.size() : 1, QStringLiteral("--trust"));
    return arguments;
}

/// Runs `toolstudio ARGUMENTS...` as given (no --trust added) to its end (killed after
/// 60 s), in the suite's config folder (isolateConfigDir()). Without `input` its stdin
/// is /dev/null (not a terminal: it never prompts); with it, `input` is written and
/// stdin closed.
inline CommandResult toolstudioAsGiven(const QStringList &arguments, const QByteArray &input = {})
{
    isolateConfigDir();
    QProcess process;
    process.setProgram(toolstudioBinary());
    process.setArguments(arguments);
    if (input.isNull())
        process.setStandardInputFile(QProcess::nullDevice()); // not a terminal: never prompt
    process.start();
    if (!input.isNull()) {
        process.waitForStarted();
        process.write(input);
        process.closeWriteChannel();
    }
    if (!process.waitForFinished(60000))
        process.kill();
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

/// toolstudioAsGiven() of withTrust(`arguments`): the project trusted when the command
/// runs its code.
inline CommandResult toolstudio(const QStringList &arguments, const QByteArray &input = {})
{
    return toolstudioAsGiven(withTrust(arguments), input);
}

/// The JSON lines of a command's `--json` output whose "event" is `event`.
inline std::vector<nlohmann::json> jsonEvents(const QByteArray &out, const char *event)
{
    std::vector<nlohmann::json> found;
    for (const QByteArray &line : out.split('\n')) {
        const nlohmann::json json = nlohmann::json::parse(line.toStdString(), nullptr, false);
        if (json.is_object() && json.value("event", "") == event)
            found.push_back(json);
    }
    return found;
}

/// What the script wrote to stdout, from a command's `--json` output events.
inline QByteArray scriptStdout(const QByteArray &out)
{
    QByteArray text;
    for (const nlohmann::json &event : jsonEvents(out, "output"))
        if (event.value("stream", "") == "stdout")
            text += QByteArray::fromStdString(event.value("text", ""));
    return text;
}
