// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracecommand.h"

#include "exchange/traceexport.h"
#include "headlessrun.h"
#include "journal/journal.h"

#include <QCommandLineParser>
#include <QDir>

int traceCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Export a recorded run as JSON (docs/run-export.md) or Chrome trace-event JSON (Perfetto)."));
    parser.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The subcommand: export."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"),
                                 QStringLiteral("The project folder (default: the current folder)."));
    parser.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("The run id (toolstudio runs PROJECT)."));
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("json (default) or chrome."),
                                          QStringLiteral("FORMAT"), QStringLiteral("json"));
    const QCommandLineOption outputOption({QStringLiteral("o"), QStringLiteral("output")},
                                          QStringLiteral("Write to FILE instead of standard output."),
                                          QStringLiteral("FILE"));
    parser.addOption(formatOption);
    parser.addOption(outputOption);
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("trace"), arguments, 2, 3, &exitCode);
    if (!positional)
        return exitCode;
    if (positional->at(0) != QLatin1String("export")) {
        printLine(stderr,
                  QStringLiteral("toolstudio trace: unknown trace command '%1' (the only one is: export)\n%2")
                      .arg(positional->at(0), usageText(parser, QStringLiteral("trace"))));
        return ExitBadInput;
    }
    const QString dir = positional->size() == 3 ? positional->at(1) : QDir::currentPath();
    const QString runId = positional->last();
    const auto project = loadProjectFor(QStringLiteral("trace"), dir);
    if (!project)
        return ExitBadInput;
    Journal journal;
    QString error;
    if (!journal.open(project->journalPath(), &error)
        || !TraceExport::exportRun(journal, runId, parser.value(formatOption), parser.value(outputOption), &error)) {
        printLine(stderr, QStringLiteral("toolstudio trace: %1").arg(error));
        return ExitBadInput;
    }
    return ExitCompleted;
}
