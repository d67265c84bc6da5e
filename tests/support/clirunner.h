// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Running the built toolstudio's headless commands, for the suites that test them
// end to end (tests/system/).
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

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

/// Runs `toolstudio ARGUMENTS...` to its end (killed after 60 s). Without `input` its
/// stdin is /dev/null (not a terminal: it never prompts); with it, `input` is written
/// and stdin closed.
inline CommandResult toolstudio(const QStringList &arguments, const QByteArray &input = {})
{
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
