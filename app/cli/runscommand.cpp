// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runscommand.h"

#include "headlessrun.h"
#include "journal/journal.h"
#include "journal/journalhousekeeping.h"
#include "runsservice.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace {

/// --delete, --prune and --compact on an open journal; the exit code.
int keepHouse(const QString &path, const QStringList &toDelete, std::optional<qint64> startedBeforeMs,
              std::optional<int> keep, bool compactAfter)
{
    JournalHousekeeping house;
    QString error;
    if (!house.open(path, &error)) {
        printLine(stderr, QStringLiteral("toolstudio runs: %1").arg(error));
        return ExitBadInput;
    }
    QStringList runs = toDelete;
    if (startedBeforeMs || keep) {
        const QStringList candidates = house.pruneCandidates(startedBeforeMs, keep, &error);
        if (!error.isEmpty()) {
            printLine(stderr, QStringLiteral("toolstudio runs: %1").arg(error));
            return ExitBadInput;
        }
        runs += candidates;
        if (candidates.isEmpty())
            printLine(stdout, QStringLiteral("nothing to prune"));
    }
    int exitCode = ExitCompleted;
    if (!runs.isEmpty()) {
        const JournalHousekeeping::Outcome outcome = house.deleteRuns(runs, &error);
        if (!error.isEmpty()) {
            printLine(stderr, QStringLiteral("toolstudio runs: nothing deleted: %1").arg(error));
            return ExitBadInput;
        }
        for (const QString &run : outcome.deleted)
            printLine(stdout, QStringLiteral("deleted run %1").arg(run));
        for (const QString &refused : outcome.refused)
            printLine(stderr, QStringLiteral("toolstudio runs: not deleted: %1").arg(refused));
        if (!outcome.refused.isEmpty())
            exitCode = ExitBadInput;
    }
    if (compactAfter) {
        qint64 before = 0;
        qint64 after = 0;
        if (!house.compact(&before, &after, &error)) {
            printLine(stderr, QStringLiteral("toolstudio runs: %1").arg(error));
            return ExitBadInput;
        }
        const QLocale c = QLocale::c();
        printLine(stdout,
                  QStringLiteral("compacted the journal: %1 -> %2")
                      .arg(c.formattedDataSize(before, 1), c.formattedDataSize(after, 1)));
    }
    return exitCode;
}

} // namespace

int runsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("List the runs in a project's journal, with their status."));
    parser.addPositionalArgument(QStringLiteral("PROJECT"), QStringLiteral("The project folder."));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("One JSON object per run."));
    parser.addOption(jsonOption);
    const QCommandLineOption deleteOption(QStringLiteral("delete"),
                                          QStringLiteral("Delete this run (repeat for more); a live run is refused."),
                                          QStringLiteral("RUN"));
    const QCommandLineOption pruneOption(
        QStringLiteral("prune"),
        QStringLiteral("Delete the runs that are not live, chosen by --older-than and/or --keep."));
    const QCommandLineOption olderOption(QStringLiteral("older-than"),
                                         QStringLiteral("With --prune: runs started more than DAYS days ago."),
                                         QStringLiteral("DAYS"));
    const QCommandLineOption keepOption(
        QStringLiteral("keep"), QStringLiteral("With --prune: all but the N newest runs."), QStringLiteral("N"));
    const QCommandLineOption compactOption(
        QStringLiteral("compact"),
        QStringLiteral("Give the space of deleted runs back to the disk (after any deletes)."));
    parser.addOptions({deleteOption, pruneOption, olderOption, keepOption, compactOption});
    int exitCode = ExitCompleted;
    const auto positional = parseArguments(parser, QStringLiteral("runs"), arguments, 1, 1, &exitCode);
    if (!positional)
        return exitCode;
    std::optional<qint64> startedBeforeMs;
    std::optional<int> keep;
    const auto usage = [&](const QString &message) {
        printLine(stderr,
                  QStringLiteral("toolstudio runs: %1\n%2").arg(message, usageText(parser, QStringLiteral("runs"))));
        return ExitBadInput;
    };
    if (parser.isSet(olderOption)) {
        bool ok = false;
        const double days = parser.value(olderOption).toDouble(&ok);
        if (!ok || days < 0 || days > 100000)
            return usage(QStringLiteral("--older-than wants a number of days, e.g. 30"));
        startedBeforeMs = QDateTime::currentMSecsSinceEpoch() - qint64(days * 86400000.0);
    }
    if (parser.isSet(keepOption)) {
        bool ok = false;
        keep = parser.value(keepOption).toInt(&ok);
        if (!ok || *keep < 0)
            return usage(QStringLiteral("--keep wants a number of runs, e.g. 20"));
    }
    if (parser.isSet(pruneOption) && !startedBeforeMs && !keep)
        return usage(QStringLiteral("--prune needs --older-than DAYS and/or --keep N"));
    if ((startedBeforeMs || keep) && !parser.isSet(pruneOption))
        return usage(QStringLiteral("--older-than and --keep choose what --prune deletes; add --prune"));
    const bool housekeeping = parser.isSet(deleteOption) || parser.isSet(pruneOption) || parser.isSet(compactOption);
    if (housekeeping && parser.isSet(jsonOption))
        return usage(QStringLiteral("--json lists runs; it does not go with --delete, --prune or --compact"));
    const auto project = loadProjectFor(QStringLiteral("runs"), positional->at(0));
    if (!project)
        return ExitBadInput;
    // A project never run has no journal: say so, and do not create one by opening it.
    const QString noRuns = QStringLiteral("no runs yet in %1 (run one with: toolstudio run %1)").arg(positional->at(0));
    if (!QFileInfo::exists(project->journalPath())) {
        if (parser.isSet(deleteOption)) {
            printLine(stderr,
                      QStringLiteral("toolstudio runs: not deleted: %1: %2 has no runs yet")
                          .arg(parser.values(deleteOption).join(QStringLiteral(", ")), positional->at(0)));
            return ExitBadInput;
        }
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
    if (housekeeping)
        return keepHouse(project->journalPath(), parser.values(deleteOption), startedBeforeMs, keep,
                         parser.isSet(compactOption));
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
