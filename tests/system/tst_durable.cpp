// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The crash test (issue 5): a script makes 1000 calls; the studio process (`toolstudio
// run`) is SIGKILLed at a random point; every step the script saw is in the journal,
// none half-written; Resume completes with the output of an uninterrupted run.

#include "clirunner.h"
#include "journal/journal.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace {

constexpr int Calls = 1000;

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

void makeProject(const QString &dir)
{
    // Each printed line carries the running total, so a lost or repeated step shows.
    writeFile(
        dir + QStringLiteral("/toolstudio.json"),
        "{\"name\": \"crash\", \"default_script\": \"main\","
        " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"}],"
        " \"limits\": {\"max_calls\": 2000, \"run_timeout_seconds\": 600},"
        " \"tools\": [{\"name\": \"echo\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\"}}},"
        "  \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": \"ok\"}]}}]}");
    writeFile(dir + QStringLiteral("/scripts/main.py"),
              "from toolstudio import tools\n"
              "total = 0\n"
              "for i in range(1000):\n"
              "    r = tools.echo(n=i)\n"
              "    total += i\n"
              "    print(i, r, total, flush=True)\n"
              "print('done', total, flush=True)\n");
}

/// The run id from the first line `run ID: main.py`.
QString runIdOf(const QByteArray &out)
{
    const QRegularExpression re(QStringLiteral("^run (\\S+): "), QRegularExpression::MultilineOption);
    return re.match(QString::fromUtf8(out)).captured(1);
}

} // namespace

class TestDurable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void killedStudioResumes_data()
    {
        QTest::addColumn<quint32>("seed");
        for (quint32 seed : {1u, 2u, 3u})
            QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed))) << seed;
    }

    void killedStudioResumes()
    {
        QFETCH(quint32, seed);
        QTemporaryDir dir;
        makeProject(dir.path());

        // The uninterrupted run: its output is the reference.
        QProcess reference;
        reference.start(toolstudioBinary(), withTrust({QStringLiteral("run"), dir.path()}));
        QVERIFY(reference.waitForFinished(120000));
        QCOMPARE(reference.exitCode(), 0);
        const QString referenceRun = runIdOf(reference.readAllStandardOutput());
        QByteArray expected;
        {
            Journal journal;
            QVERIFY(journal.open(dir.path() + QStringLiteral("/.toolstudio/journal.sqlite")));
            expected = journal.output(referenceRun, 1);
        }
        QVERIFY(expected.endsWith("done 499500\n"));

        // The run to kill: SIGKILL once the script has printed a random number of results.
        const int killAfter = int(QRandomGenerator(seed).bounded(20, Calls - 20));
        QProcess studio;
        studio.start(toolstudioBinary(), withTrust({QStringLiteral("run"), dir.path()}));
        QVERIFY(studio.waitForStarted());
        QByteArray out;
        const QRegularExpression resultLine(QStringLiteral("^(\\d+) ok \\d+$"));
        int seen = -1;
        while (seen < killAfter && studio.state() == QProcess::Running) {
            studio.waitForReadyRead(100);
            out += studio.readAllStandardOutput();
            for (const QByteArray &line : out.split('\n')) {
                const auto match = resultLine.match(QString::fromUtf8(line));
                if (match.hasMatch())
                    seen = std::max(seen, match.captured(1).toInt());
            }
        }
        ::kill(pid_t(studio.processId()), SIGKILL);
        QVERIFY(studio.waitForFinished(5000));
        out += studio.readAllStandardOutput();
        seen = -1;
        for (const QByteArray &line : out.split('\n')) {
            const auto match = resultLine.match(QString::fromUtf8(line));
            if (match.hasMatch())
                seen = std::max(seen, match.captured(1).toInt());
        }
        QVERIFY2(seen >= killAfter, out.right(300).constData());
        const QString runId = runIdOf(out);
        QVERIFY(!runId.isEmpty());

        {
            Journal journal;
            QVERIFY(journal.open(dir.path() + QStringLiteral("/.toolstudio/journal.sqlite")));
            QCOMPARE(journal.run(runId)->status, RunStatus::Suspended);
            const auto steps = journal.steps(runId);
            // Every result the script printed (call i = step i + 1) is there, final.
            QVERIFY(int(steps.size()) >= seen + 1);
            for (int i = 0; i <= seen; ++i) {
                const Step &step = steps[std::size_t(i)];
                QCOMPARE(step.sequence, i + 1);
                QCOMPARE(step.status, StepStatus::Succeeded);
                QCOMPARE(QByteArray::fromStdString(step.result->dump()), QByteArray("\"ok\""));
                QCOMPARE(QByteArray::fromStdString(step.args.dump()),
                         QByteArray("{\"n\":") + QByteArray::number(i) + "}");
            }
            // None half-written: a final step has its result or error and ended attempts.
            for (const Step &step : steps) {
                if (!isFinal(step.status))
                    continue;
                QVERIFY(step.result || step.error);
                QVERIFY(!step.attempts.empty());
                QVERIFY(step.attempts.back().endedAt > 0);
            }
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
            db.setDatabaseName(dir.path() + QStringLiteral("/.toolstudio/journal.sqlite"));
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("PRAGMA integrity_check")) && query.next());
            QCOMPARE(query.value(0).toString(), QStringLiteral("ok"));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("check"));

        // Resume: the same run completes with the output of the uninterrupted one.
        QProcess resume;
        resume.start(toolstudioBinary(), withTrust({QStringLiteral("resume"), dir.path(), runId}));
        QVERIFY(resume.waitForFinished(120000));
        QVERIFY2(resume.exitCode() == 0, resume.readAllStandardError().constData());
        Journal journal;
        QVERIFY(journal.open(dir.path() + QStringLiteral("/.toolstudio/journal.sqlite")));
        QCOMPARE(journal.run(runId)->status, RunStatus::Completed);
        QCOMPARE(journal.output(runId, 1), expected);
        const auto steps = journal.steps(runId);
        QCOMPARE(int(steps.size()), Calls);
        for (const Step &step : steps)
            QCOMPARE(step.status, StepStatus::Succeeded);
        // Issue 17: a resumed run's timeline is its own: every step and attempt lies
        // within the run's span (the memoized rows keep their times from before the
        // kill, which the run record's start covers), and none ends before it starts.
        const RunRecord run = *journal.run(runId);
        for (const Step &step : steps) {
            QVERIFY2(step.queuedAt >= run.startedAt && step.endedAt <= run.endedAt && step.queuedAt <= step.endedAt,
                     qPrintable(QStringLiteral("step %1").arg(step.sequence)));
            for (const Attempt &attempt : step.attempts)
                QVERIFY(attempt.startedAt >= run.startedAt && attempt.startedAt <= attempt.endedAt
                        && attempt.endedAt <= run.endedAt);
        }
    }

    void replayOfChangedScriptReportsDivergence()
    {
        QTemporaryDir dir;
        makeProject(dir.path());
        writeFile(dir.path() + QStringLiteral("/scripts/main.py"),
                  "from toolstudio import tools\nfor i in range(5):\n    print(tools.echo(n=i), flush=True)\n");
        QProcess first;
        first.start(toolstudioBinary(), withTrust({QStringLiteral("run"), dir.path()}));
        QVERIFY(first.waitForFinished(60000));
        const QString runId = runIdOf(first.readAllStandardOutput());
        writeFile(
            dir.path() + QStringLiteral("/scripts/main.py"),
            "from toolstudio import tools\nfor i in range(5):\n    print(tools.echo(n=i if i != 3 else 30), flush=True)\n");
        QProcess replay;
        replay.start(toolstudioBinary(), withTrust({QStringLiteral("replay"), dir.path(), runId}));
        QVERIFY(replay.waitForFinished(60000));
        QCOMPARE(replay.exitCode(), 0);
        const QByteArray out = replay.readAllStandardOutput();
        const QByteArray err = replay.readAllStandardError();
        QVERIFY2(err.contains("divergence at step 4: step 4: expected echo({\"n\":3}), got echo({\"n\":30})"),
                 err.constData());
        QCOMPARE(out.count(" memoized "), 3);
        QVERIFY2(out.contains("[step 4] echo succeeded"), out.constData());
        QVERIFY2(out.contains("[step 5] echo succeeded"), out.constData());

        QProcess runs;
        runs.start(toolstudioBinary(), {QStringLiteral("runs"), dir.path()});
        QVERIFY(runs.waitForFinished(10000));
        const QByteArray list = runs.readAllStandardOutput();
        QVERIFY2(list.contains("completed  replay") && list.contains("(of " + runId.toUtf8() + ")"), list.constData());
    }
};

QTEST_GUILESS_MAIN(TestDurable)
#include "tst_durable.moc"
