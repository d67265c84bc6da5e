// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runscommand.h"

#include "headlessrun.h"
#include "journal/journal.h"
#include "runsservice.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

int runsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("List the runs in a project's journal, with their status."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("One JSON object per run."));
    parser.addOption(jsonOption);
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("runs"), arguments, 1, 1, &exitCode);
    if (!positional)
        return exitCode;
    const auto project = loadProjectFor(QStringLiteral("runs"), positional->at(0));
    if (!project)
        return ExitBadInput;
    // A project never run has no journal: say so, and do not create one by opening it.
    const QString noRuns = QStringLiteral("no runs yet in %1 (run one with: toolstudio run %1)").arg(positional->at(0));
    if (!QFileInfo::exists(project->journalPath())) {
        if (!parser.isSet(jsonOption))
            printLine(stdout, noRuns);
        return ExitCompleted;
    }
    Journal journal;
    QString error;
    if (!journal.open(project->journalPath(), &error)) {
        printLine(stderr, QStringLiteral("toolstudio runs: %1").arg(error));
        return ExitBadInput;
    }
    const auto runs = journal.runs();
    if (runs.empty() && !parser.isSet(jsonOption))
        printLine(stdout, noRuns);
    for (const RunRecord &run : runs) {
        const int steps = journal.stepCount(run.id);
        const QString script = QDir(project->dir).relativeFilePath(run.scriptPath);
        if (parser.isSet(jsonOption)) {
            const nlohmann::json json = runSummaryJson(run, steps, script);
            printLine(stdout, QString::fromStdString(json.dump()));
            continue;
        }
        QString line
            = QStringLiteral("%1  %2  %3  %4  %5 step%6  %7")
                  .arg(run.id, runStatusName(run.status).leftJustified(9), runKindName(run.kind).leftJustified(8),
                       QDateTime::fromMSecsSinceEpoch(run.startedAt).toString(Qt::ISODate))
                  .arg(steps)
                  .arg(steps == 1 ? QString() : QStringLiteral("s"))
                  .arg(script);
        if (!run.sourceRun.isEmpty())
            line += QStringLiteral("  (of %1)").arg(run.sourceRun);
        printLine(stdout, line);
    }
    return ExitCompleted;
}
