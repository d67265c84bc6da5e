// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Issue 20 "Housekeeping": `toolstudio runs --delete / --prune / --compact` on a real
// journal written by `toolstudio run`; a live run (waiting for a person) is refused.
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "testfiles.h"
#include "waitingrun.h"

#include <nlohmann/json.hpp>

namespace {

/// One manual tool `approve`, and a script `fast` that calls nothing.
void writeProject(const QString &dir)
{
    writeFile(dir + QStringLiteral("/scripts/main.py"),
              "from toolstudio import tools\nprint('approved:', tools.approve(item='x'), flush=True)\n");
    writeFile(dir + QStringLiteral("/scripts/fast.py"), "print('fast', flush=True)\n");
    writeFile(dir + QStringLiteral("/toolstudio.json"),
              "{\"name\": \"hk\", \"default_script\": \"fast\",\n"
              " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"},\n"
              "             {\"name\": \"fast\", \"path\": \"scripts/fast.py\"}],\n"
              " \"tools\": [{\"name\": \"approve\", \"description\": \"A person approves\",\n"
              "   \"input_schema\": {\"type\": \"object\", \"properties\": {\"item\": {\"type\": \"string\"}}},\n"
              "   \"handler\": {\"kind\": \"manual\"}}]}\n");
}

QStringList runIds(const QString &dir)
{
    QStringList ids;
    const CommandResult listed = toolstudio({QStringLiteral("runs"), dir, QStringLiteral("--json")});
    for (const QByteArray &line : listed.out.split('\n'))
        if (!line.isEmpty())
            ids.append(QString::fromStdString(nlohmann::json::parse(line.toStdString()).value("id", "")));
    return ids;
}

QStringList runThreeFastRuns(const QString &dir)
{
    for (int i = 0; i < 3; ++i)
        if (toolstudio({QStringLiteral("run"), dir}).exitCode != 0)
            return {};
    return runIds(dir);
}

} // namespace

class TstRunsHousekeeping : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deleteRemovesTheRunAndOnlyIt()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        const QStringList before = runThreeFastRuns(dir.path());
        QCOMPARE(before.size(), 3);
        const CommandResult deleted
            = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--delete"), before[1]});
        QCOMPARE(deleted.exitCode, 0);
        QCOMPARE(deleted.out, QStringLiteral("deleted run %1\n").arg(before[1]).toUtf8());
        QCOMPARE(runIds(dir.path()), (QStringList{before[0], before[2]}));
        // Its trace is gone too: the export says the run does not exist.
        const CommandResult exported
            = toolstudio({QStringLiteral("trace"), QStringLiteral("export"), dir.path(), before[1]});
        QVERIFY(exported.exitCode != 0);
        // The others are whole.
        const CommandResult kept
            = toolstudio({QStringLiteral("trace"), QStringLiteral("export"), dir.path(), before[2]});
        QCOMPARE(kept.exitCode, 0);
    }

    void unknownRunIsRefusedAndTheRestDeleted()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        const QStringList before = runThreeFastRuns(dir.path());
        const CommandResult result = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--delete"),
                                                 QStringLiteral("nosuch"), QStringLiteral("--delete"), before[0]});
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.out, QStringLiteral("deleted run %1\n").arg(before[0]).toUtf8());
        QVERIFY2(result.err.contains("not deleted: nosuch: no such run in this journal"), result.err.constData());
        QCOMPARE(runIds(dir.path()), (QStringList{before[1], before[2]}));
    }

    void aLiveRunIsRefused()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                  fileBytes(dir.filePath(QStringLiteral("toolstudio.json")))
                      .replace("\"default_script\": \"fast\"", "\"default_script\": \"main\""));
        WaitingRun run;
        QVERIFY2(run.start(dir.path()), run.err.constData());
        const CommandResult refused
            = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--delete"), run.runId});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(
            refused.err.contains(QStringLiteral("not deleted: %1: the run is waiting; stop it (or let it end) first")
                                     .arg(run.runId)
                                     .toUtf8()),
            refused.err.constData());
        // Pruning everything leaves the live run alone.
        const CommandResult pruned = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--prune"),
                                                 QStringLiteral("--keep"), QStringLiteral("0")});
        QCOMPARE(pruned.exitCode, 0);
        QCOMPARE(pruned.out, QByteArray("nothing to prune\n"));
        QCOMPARE(runIds(dir.path()), QStringList{run.runId});
        run.process.kill();
        run.process.waitForFinished(10000);
    }

    void pruneKeepsTheNewestAndCompactShrinksTheFile()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        QStringList before = runThreeFastRuns(dir.path());
        before += runThreeFastRuns(dir.path()).mid(3);
        QCOMPARE(before.size(), 6);
        const CommandResult pruned
            = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--prune"), QStringLiteral("--keep"),
                          QStringLiteral("2"), QStringLiteral("--compact")});
        QCOMPARE(pruned.exitCode, 0);
        QString expected;
        for (int i = 0; i < 4; ++i)
            expected += QStringLiteral("deleted run %1\n").arg(before[i]);
        QVERIFY2(pruned.out.startsWith(expected.toUtf8()), pruned.out.constData());
        QVERIFY2(pruned.out.contains("compacted the journal: "), pruned.out.constData());
        QCOMPARE(runIds(dir.path()), before.mid(4));
        // --older-than: nothing of today is older than a day.
        const CommandResult none = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--prune"),
                                               QStringLiteral("--older-than"), QStringLiteral("1")});
        QCOMPARE(none.out, QByteArray("nothing to prune\n"));
        QCOMPARE(runIds(dir.path()), before.mid(4));
        const CommandResult all = toolstudio({QStringLiteral("runs"), dir.path(), QStringLiteral("--prune"),
                                              QStringLiteral("--older-than"), QStringLiteral("0")});
        QCOMPARE(all.exitCode, 0);
        QCOMPARE(runIds(dir.path()), QStringList());
    }

    void badUsageIsSaid_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("prune without a choice") << QStringList{QStringLiteral("--prune")}
                                                << QStringLiteral("--prune needs --older-than DAYS and/or --keep N");
        QTest::newRow("keep without prune") << QStringList{QStringLiteral("--keep"), QStringLiteral("3")}
                                            << QStringLiteral("--older-than and --keep choose what --prune deletes");
        QTest::newRow("keep not a number")
            << QStringList{QStringLiteral("--prune"), QStringLiteral("--keep"), QStringLiteral("many")}
            << QStringLiteral("--keep wants a number of runs");
        QTest::newRow("older-than negative")
            << QStringList{QStringLiteral("--prune"), QStringLiteral("--older-than"), QStringLiteral("-1")}
            << QStringLiteral("--older-than wants a number of days");
        QTest::newRow("json with delete")
            << QStringList{QStringLiteral("--json"), QStringLiteral("--delete"), QStringLiteral("x")}
            << QStringLiteral("--json lists runs");
    }

    void badUsageIsSaid()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        writeProject(dir.path());
        QVERIFY(toolstudio({QStringLiteral("run"), dir.path()}).exitCode == 0);
        const CommandResult result = toolstudio(QStringList{QStringLiteral("runs"), dir.path()} + arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message.toUtf8()), result.err.constData());
        QCOMPARE(runIds(dir.path()).size(), 1); // nothing deleted
    }
};

QTEST_GUILESS_MAIN(TstRunsHousekeeping)
#include "tst_runshousekeeping.moc"
