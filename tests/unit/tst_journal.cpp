// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journal.h"
#include "journal/journalreader.h"
#include "journal/journaltail.h"
#include "journaledattempt.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QtEndian>

#include <atomic>
#include <memory>
#include <thread>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace {

RunRecord sampleRun()
{
    RunRecord run;
    run.id = QStringLiteral("run-1");
    run.projectDir = QStringLiteral("/home/ada/exchange-rate");
    run.scriptPath = QStringLiteral("/home/ada/exchange-rate/scripts/main.py");
    run.status = RunStatus::Completed;
    run.startedAt = 1700000000000;
    run.endedAt = 1700000001500;
    run.exitCode = 0;
    return run;
}

Step sampleStep()
{
    Step step;
    step.runId = QStringLiteral("run-1");
    step.callId = QStringLiteral("c1");
    step.sequence = 1;
    step.tool = QStringLiteral("get_exchange_rate");
    step.args = {{"base", "USD"}, {"quote", "EUR"}};
    step.idempotencyKey = QStringLiteral("run-1:1");
    step.status = StepStatus::Succeeded;
    step.maxAttempts = 3;
    step.queuedAt = 1700000000100;
    step.startedAt = 1700000000101;
    step.endedAt = 1700000000900;

    Attempt first;
    first.number = 1;
    first.startedAt = 1700000000101;
    first.endedAt = 1700000000200;
    StepError error;
    error.code = ErrorCode::ToolFailed;
    error.message = "rate service down";
    error.retryable = true;
    error.attempts = 1;
    first.error = error;
    first.output = QByteArray("traceback\n\x00\xff binary", 20);

    Attempt second;
    second.number = 2;
    second.startedAt = 1700000000700;
    second.endedAt = 1700000000900;
    second.succeeded = true;

    step.attempts = {first, second};
    step.result = nlohmann::json(0.92);
    return step;
}

/// A step whose one attempt succeeded at once (its attempt folded into its row).
Step foldedStep(int sequence)
{
    Step step;
    step.runId = QStringLiteral("run-1");
    step.callId = QStringLiteral("c%1").arg(sequence);
    step.sequence = sequence;
    step.tool = QStringLiteral("echo");
    step.args = {{"n", sequence}};
    step.idempotencyKey = QStringLiteral("run-1:%1").arg(sequence);
    step.status = StepStatus::Succeeded;
    step.maxAttempts = 1;
    step.queuedAt = 1700000000000 + sequence;
    step.startedAt = step.queuedAt;
    step.endedAt = step.queuedAt + 1;
    Attempt attempt;
    attempt.number = 1;
    attempt.startedAt = step.startedAt;
    attempt.endedAt = step.endedAt;
    attempt.succeeded = true;
    step.attempts = {attempt};
    step.result = nlohmann::json("ok " + std::to_string(sequence));
    return step;
}

/// foldedStep(sequence) while it waits for a person: its attempt open, no result.
Step waitingStep(int sequence)
{
    Step step = foldedStep(sequence);
    step.status = StepStatus::Waiting;
    step.attempts.front().succeeded = false;
    step.attempts.front().endedAt = 0;
    step.result.reset();
    return step;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(bytes);
}

/// Runs `statements` through a connection of its own (what another process would do).
void rawExec(const QString &path, const QStringList &statements)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("rawexec"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery query(db);
        for (const QString &sql : statements)
            QVERIFY2(query.exec(sql), qPrintable(sql + QStringLiteral(": ") + query.lastError().text()));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("rawexec"));
}

/// Reads one value through a connection of its own (what another process would see).
QVariant rawValue(const QString &path, const QString &sql)
{
    QVariant value;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery query(db);
            if (query.exec(sql) && query.next())
                value = query.value(0);
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    return value;
}

} // namespace

class TestJournal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral(".toolstudio/journal.sqlite")); // parent created on open
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        QVERIFY(journal.isOpen());
        QCOMPARE(journal.path(), path);

        QVERIFY2(journal.recordRun(sampleRun()), qPrintable(journal.lastError()));
        QVERIFY2(journal.recordStep(sampleStep()), qPrintable(journal.lastError()));
        QVERIFY(journal.appendOutput(QStringLiteral("run-1"), 1, "100 USD = "));
        QVERIFY(journal.appendOutput(QStringLiteral("run-1"), 2, "warning\n"));
        QVERIFY(journal.appendOutput(QStringLiteral("run-1"), 1, "92.0 EUR\n"));

        const auto run = journal.run(QStringLiteral("run-1"));
        QVERIFY(run);
        QCOMPARE(run->projectDir, QStringLiteral("/home/ada/exchange-rate"));
        QCOMPARE(run->scriptPath, QStringLiteral("/home/ada/exchange-rate/scripts/main.py"));
        QCOMPARE(run->status, RunStatus::Completed);
        QCOMPARE(run->startedAt, qint64(1700000000000));
        QCOMPARE(run->endedAt, qint64(1700000001500));
        QCOMPARE(run->exitCode, 0);
        QVERIFY(!journal.run(QStringLiteral("run-2")));

        const std::vector<Step> steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        const Step &step = steps.front();
        QCOMPARE(step.callId, QStringLiteral("c1"));
        QCOMPARE(step.sequence, 1);
        QCOMPARE(step.tool, QStringLiteral("get_exchange_rate"));
        QCOMPARE(step.args.dump(), std::string("{\"base\":\"USD\",\"quote\":\"EUR\"}"));
        QCOMPARE(step.idempotencyKey, QStringLiteral("run-1:1"));
        QCOMPARE(step.status, StepStatus::Succeeded);
        QCOMPARE(step.maxAttempts, 3);
        QVERIFY(step.result);
        QCOMPARE(step.result->dump(), std::string("0.92"));
        QVERIFY(!step.error);
        QCOMPARE(step.queuedAt, qint64(1700000000100));
        QCOMPARE(step.startedAt, qint64(1700000000101));
        QCOMPARE(step.endedAt, qint64(1700000000900));
        QCOMPARE(step.attemptsText(), QStringLiteral("2/3"));

        QCOMPARE(step.attempts.size(), std::size_t(2));
        QCOMPARE(step.attempts[0].number, 1);
        QVERIFY(!step.attempts[0].succeeded);
        QVERIFY(step.attempts[0].error);
        QCOMPARE(step.attempts[0].error->codeName(), QStringLiteral("tool_failed"));
        QCOMPARE(step.attempts[0].error->message, std::string("rate service down"));
        QVERIFY(step.attempts[0].error->retryable);
        QCOMPARE(step.attempts[0].output, QByteArray("traceback\n\x00\xff binary", 20));
        QCOMPARE(step.attempts[0].endedAt, qint64(1700000000200));
        QCOMPARE(step.attempts[1].number, 2);
        QVERIFY(step.attempts[1].succeeded);
        QVERIFY(!step.attempts[1].error);

        QCOMPARE(journal.output(QStringLiteral("run-1"), 1), QByteArray("100 USD = 92.0 EUR\n"));
        QCOMPARE(journal.output(QStringLiteral("run-1"), 2), QByteArray("warning\n"));
    }

    void recordStepReplaces()
    {
        // A step is recorded many times as it runs; the last write wins, attempts included.
        QTemporaryDir dir;
        Journal journal;
        QVERIFY(journal.open(dir.filePath(QStringLiteral("j.sqlite"))));
        Step step = sampleStep();
        QVERIFY(journal.recordStep(step)); // no recordRun first: a minimal run row is created
        step.status = StepStatus::Failed;
        step.result.reset();
        StepError error;
        error.code = ErrorCode::InvalidArguments;
        error.message = "invalid arguments for 'get_exchange_rate' at /quote: required property is missing";
        error.details = {{"pointer", "/quote"}};
        step.error = error;
        step.attempts.resize(1);
        QVERIFY(journal.recordStep(step));

        const auto steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].status, StepStatus::Failed);
        QVERIFY(!steps[0].result);
        QVERIFY(steps[0].error);
        QCOMPARE(steps[0].error->codeName(), QStringLiteral("invalid_arguments"));
        QCOMPARE(steps[0].error->details.value("pointer", std::string()), std::string("/quote"));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        const auto run = journal.run(QStringLiteral("run-1"));
        QVERIFY(run);
        QCOMPARE(run->status, RunStatus::Running);
        QCOMPARE(journal.runs().size(), std::size_t(1));
    }

    void reopen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
            QVERIFY(journal.recordRun(sampleRun()));
            QVERIFY(journal.recordStep(sampleStep()));
            RunRecord second = sampleRun();
            second.id = QStringLiteral("run-2");
            second.startedAt += 5000;
            second.status = RunStatus::Suspended;
            second.error = QStringLiteral("the studio was closed while a call waited");
            QVERIFY(journal.recordRun(second));
        }
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        const auto runs = journal.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].id, QStringLiteral("run-1"));
        QCOMPARE(runs[1].id, QStringLiteral("run-2"));
        QCOMPARE(runs[1].status, RunStatus::Suspended);
        QCOMPARE(runs[1].error, QStringLiteral("the studio was closed while a call waited"));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).size(), std::size_t(1));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).front().attempts.size(), std::size_t(2));

        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA user_version")).toInt(), 9);
        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
    }

    // A new journal and its WAL are the user's only: they hold every call's arguments
    // and results (attack26 F6).
    void newJournalIsPrivate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        QVERIFY(journal.recordRun(sampleRun()));
        const QFileDevice::Permissions owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
        QCOMPARE(QFile::permissions(path) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser), owner);
        QCOMPARE(QFile::permissions(path + QStringLiteral("-wal")) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
                 owner);
    }

    void twoJournalsOnOneFile()
    {
        // The write-ahead check in tst_stepengine reads through a second Journal.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal writer;
        Journal reader;
        QVERIFY(writer.open(path));
        QVERIFY(reader.open(path));
        QVERIFY(writer.recordStep(sampleStep()));
        QCOMPARE(reader.steps(QStringLiteral("run-1")).size(), std::size_t(1));
    }

    void refusesOtherFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        QTest::newRow("text file") << QByteArray("this is not a database, just some notes\n").repeated(200)
                                   << QStringLiteral("not a Tool Studio journal (file is not a database)");
        QTest::newRow("a folder") << QByteArray() << QStringLiteral("not a file");
    }

    void refusesOtherFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.sqlite"));
        if (content.isEmpty()) {
            QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("notes.sqlite")));
        } else {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(content);
        }
        Journal journal;
        QString error;
        QVERIFY(!journal.open(path, &error));
        QCOMPARE(error, path + QStringLiteral(": ") + reason);
        QCOMPARE(journal.lastError(), error);
        QVERIFY(!journal.isOpen());
        QVERIFY(!journal.recordRun(sampleRun()));
        if (!content.isEmpty()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), content); // untouched
        }
    }

    void refusesAnotherProgramsDatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("other.sqlite"));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("CREATE TABLE contacts (name TEXT)")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        Journal journal;
        QString error;
        QVERIFY(!journal.open(path, &error));
        QCOMPARE(error, path + QStringLiteral(": an SQLite database, but not a Tool Studio journal"));
    }

    void refusesNewerVersion()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
        }
        QVERIFY(rawValue(path, QStringLiteral("PRAGMA user_version = 10")).isNull());
        Journal journal;
        QString error;
        QVERIFY(!journal.open(path, &error));
        QCOMPARE(error,
                 path
                     + QStringLiteral(
                         ": journal version 10 is newer than this Tool Studio supports (9); update Tool Studio"));
    }

    void migratesVersion1AndSuspendsOrphans()
    {
        // A journal as version 1 wrote it, with a run that was live when its studio died.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        rawExec(
            path,
            {
                QStringLiteral(
                    "CREATE TABLE runs (id TEXT PRIMARY KEY, project_dir TEXT NOT NULL DEFAULT '', script_path TEXT NOT NULL DEFAULT '',"
                    " status TEXT NOT NULL, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " exit_code INTEGER NOT NULL DEFAULT -1, error TEXT NOT NULL DEFAULT '')"),
                QStringLiteral(
                    "CREATE TABLE steps (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,"
                    " call_id TEXT NOT NULL, tool TEXT NOT NULL, args TEXT NOT NULL, idempotency_key TEXT NOT NULL,"
                    " status TEXT NOT NULL, max_attempts INTEGER NOT NULL, result TEXT, error TEXT,"
                    " queued_at INTEGER NOT NULL DEFAULT 0, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " next_attempt_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run_id, sequence))"),
                QStringLiteral(
                    "CREATE TABLE attempts (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, number INTEGER NOT NULL,"
                    " started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0, succeeded INTEGER NOT NULL DEFAULT 0,"
                    " error TEXT, output BLOB, PRIMARY KEY (run_id, sequence, number),"
                    " FOREIGN KEY (run_id, sequence) REFERENCES steps(run_id, sequence) ON DELETE CASCADE)"),
                QStringLiteral(
                    "CREATE TABLE output (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, stream INTEGER NOT NULL,"
                    " seq INTEGER NOT NULL, chunk BLOB NOT NULL, PRIMARY KEY (run_id, stream, seq))"),
                QStringLiteral(
                    "INSERT INTO runs (id, status, started_at) VALUES ('old-live', 'waiting', 1), ('old-done', 'completed', 2)"),
                QStringLiteral(
                    "INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts)"
                    " VALUES ('old-live', 1, 'c1', 'ask', '{\"q\":1}', 'old-live:1', 'waiting', 1)"),
                QStringLiteral("INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded, error)"
                               " VALUES ('old-live', 1, 1, 10, 20, 0, '{\"code\":\"timeout\",\"message\":\"late\"}'),"
                               " ('old-live', 1, 2, 30, 0, 0, NULL)"),
                QStringLiteral("PRAGMA application_id = 1414744625"),
                QStringLiteral("PRAGMA user_version = 1"),
            });
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA user_version")).toInt(), 9);
        // Version 3: the trace's filter indexes (docs/trace.md "Indexes"); version 6 moved
        // steps_by_tool into step_tools, filled for runs that are not live.
        QCOMPARE(rawValue(path,
                          QStringLiteral("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master"
                                         " WHERE type = 'index' AND name IN ('steps_by_tool', 'steps_failed',"
                                         " 'steps_waiting', 'attempts_failed') ORDER BY name)"))
                     .toString(),
                 QStringLiteral("attempts_failed steps_failed steps_waiting"));
        // old-live was live in the file: it has no tool rows (it is suspended now, by the
        // open, not by recordRun), so its tool filter scans.
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM step_tools")).toInt(), 0);
        QCOMPARE(
            rawValue(path, QStringLiteral("SELECT group_concat(id || '=' || tools_indexed, ' ') FROM runs")).toString(),
            QStringLiteral("old-live=0 old-done=1"));
        QCOMPARE(journal.suspendedOnOpen(), QStringList{QStringLiteral("old-live")});
        QCOMPARE(journal.run(QStringLiteral("old-live"))->status, RunStatus::Suspended);
        QCOMPARE(journal.run(QStringLiteral("old-done"))->status, RunStatus::Completed);
        QCOMPARE(runKindName(journal.run(QStringLiteral("old-live"))->kind), QStringLiteral("run"));
        const auto steps = journal.steps(QStringLiteral("old-live"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].status, StepStatus::Waiting); // the open call stays open for Resume
        QVERIFY(steps[0].argsHash.isEmpty());
        // Version 4: steps and attempts WITHOUT ROWID, their rows copied over.
        QCOMPARE(steps[0].args.dump(), std::string("{\"q\":1}"));
        QCOMPARE(steps[0].attempts.size(), std::size_t(2));
        QCOMPARE(steps[0].attempts[0].error->codeName(), QStringLiteral("timeout"));
        QCOMPARE(steps[0].attempts[1].startedAt, qint64(30));
        QCOMPARE(rawValue(path,
                          QStringLiteral("SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                                         " AND name IN ('steps', 'attempts') AND sql LIKE '%WITHOUT ROWID'"))
                     .toInt(),
                 2);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v3'")).toInt(),
                 0);
        const auto events = journal.events(QStringLiteral("old-live"));
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(policyEventKindName(events[0].kind), QStringLiteral("suspended"));
    }

    void liveRunIsNotSuspended_data()
    {
        QTest::addColumn<bool>("ownerAlive");
        QTest::addColumn<QString>("status");
        QTest::newRow("owner is this process") << true << QStringLiteral("running");
        QTest::newRow("owner is gone") << false << QStringLiteral("suspended");
    }

    void liveRunIsNotSuspended()
    {
        QFETCH(bool, ownerAlive);
        QFETCH(QString, status);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        {
            Journal journal;
            QVERIFY(journal.open(path));
            RunRecord run = sampleRun();
            run.status = RunStatus::Running;
            QVERIFY(journal.recordRun(run));
            QCOMPARE(journal.run(run.id)->ownerPid, Journal::selfPid());
        }
        if (!ownerAlive) // a pid that cannot exist (pid_max is at most 2^22)
            rawExec(path, {QStringLiteral("UPDATE runs SET owner_pid = 99999999")});
        Journal reader; // e.g. `toolstudio answer` in another process, or the window
        QVERIFY(reader.open(path));
        QCOMPARE(runStatusName(reader.run(QStringLiteral("run-1"))->status), status);
    }

    void batchCommitIsAtomic()
    {
        QTemporaryDir dir;
        Journal journal;
        QVERIFY(journal.open(dir.filePath(QStringLiteral("journal.sqlite"))));
        Step a = sampleStep();
        Step b = sampleStep();
        b.sequence = 2;
        b.callId = QStringLiteral("c2");
        PolicyEvent event{
            QStringLiteral("run-1"), 2, 1700000000000, PolicyEventKind::RetryScheduled, {{"delay_ms", 500}}};
        QVERIFY(journal.commit({&a, &b}, {event, event}));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).size(), std::size_t(2));
        QCOMPARE(journal.events(QStringLiteral("run-1")).size(), std::size_t(2));
        QCOMPARE(journal.events(QStringLiteral("run-1"))[0].detail.dump(), std::string("{\"delay_ms\":500}"));

        // One bad step (two attempts numbered 1) rolls back the whole batch.
        Step c = sampleStep();
        c.sequence = 3;
        c.attempts[1].number = 1;
        Step d = sampleStep();
        d.sequence = 4;
        QVERIFY(!journal.commit({&d, &c}, {event}));
        QVERIFY(journal.lastError().contains(QStringLiteral("recording step 3")));
        QCOMPARE(journal.steps(QStringLiteral("run-1")).size(), std::size_t(2));
        QCOMPARE(journal.events(QStringLiteral("run-1")).size(), std::size_t(2));
    }

    void pendingAnswers()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal writer;
        QVERIFY(writer.open(path));
        PendingAnswer answer;
        answer.runId = QStringLiteral("run-1");
        answer.callId = QStringLiteral("c3");
        answer.attempt = 2;
        answer.answer.isError = true;
        answer.answer.message = QStringLiteral("printer on fire");
        answer.answer.retryable = true;
        answer.createdAt = 1700000000000;
        const qint64 id = writer.addPendingAnswer(answer);
        QVERIFY(id > 0);

        Journal runner;
        QVERIFY(runner.open(path));
        const auto fresh = runner.newPendingAnswers(QStringLiteral("run-1"));
        QCOMPARE(fresh.size(), std::size_t(1));
        QCOMPARE(fresh[0].callId, QStringLiteral("c3"));
        QCOMPARE(fresh[0].attempt, 2);
        QVERIFY(fresh[0].answer.isError);
        QCOMPARE(fresh[0].answer.message, QStringLiteral("printer on fire"));
        QVERIFY(fresh[0].answer.retryable);
        QVERIFY(runner.resolvePendingAnswer(id, false,
                                            QStringLiteral("answer is for attempt 2 but the call is at attempt 3")));
        QVERIFY(!runner.resolvePendingAnswer(id, true, QString())); // resolved once
        QVERIFY(runner.newPendingAnswers(QStringLiteral("run-1")).empty());
        QCOMPARE(writer.pendingAnswer(id)->state, QStringLiteral("refused"));
        QCOMPARE(writer.pendingAnswer(id)->reason,
                 QStringLiteral("answer is for attempt 2 but the call is at attempt 3"));
    }

    void foldsASingleSuccessfulAttempt()
    {
        // Schema 5: a step whose one attempt succeeded at once has no attempts row; it
        // reads back with that attempt, exactly.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        Step step = sampleStep();
        step.attempts.erase(step.attempts.begin());
        step.attempts[0].number = 1;
        step.attempts[0].startedAt = step.startedAt;
        QVERIFY2(journal.recordStep(step), qPrintable(journal.lastError()));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 0);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT attempt_ended_at FROM steps")).toLongLong(),
                 qint64(1700000000900));
        const auto steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        const Attempt &attempt = steps[0].attempts[0];
        QCOMPARE(attempt.number, 1);
        QCOMPARE(attempt.startedAt, qint64(1700000000101));
        QCOMPARE(attempt.endedAt, qint64(1700000000900));
        QVERIFY(attempt.succeeded);
        QVERIFY(!attempt.error);
        QVERIFY(attempt.output.isEmpty());
        QCOMPARE(steps[0].attemptsText(), QStringLiteral("1/3"));
        {
            JournalReader reader;
            QVERIFY(reader.open(path));
            const auto summaries = reader.summaries(QStringLiteral("run-1"), 1, 1);
            QCOMPARE(summaries.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts[0].startedAt, qint64(1700000000101));
            QCOMPARE(summaries[0].attempts[0].endedAt, qint64(1700000000900));
            QVERIFY(summaries[0].attempts[0].succeeded);
            QCOMPARE(reader.step(QStringLiteral("run-1"), 1)->attempts.size(), std::size_t(1));
        }

        // Not folded: output to keep, an attempt that started after the step did, a
        // failed one. Each keeps its row.
        Step withOutput = step;
        withOutput.sequence = 2;
        withOutput.attempts[0].output = "stderr line\n";
        Step later = step;
        later.sequence = 3;
        later.attempts[0].startedAt = step.startedAt + 5;
        Step failed = step;
        failed.sequence = 4;
        failed.status = StepStatus::Failed;
        failed.attempts[0].succeeded = false;
        QVERIFY2(journal.commit({&withOutput, &later, &failed}, {}), qPrintable(journal.lastError()));
        QCOMPARE(
            rawValue(path,
                     QStringLiteral(
                         "SELECT group_concat(sequence, ' ') FROM (SELECT sequence FROM attempts ORDER BY sequence)"))
                .toString(),
            QStringLiteral("2 3 4"));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM steps WHERE attempt_ended_at > 0")).toInt(), 1);
        const auto all = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(all.size(), std::size_t(4));
        QCOMPARE(all[1].attempts.size(), std::size_t(1));
        QCOMPARE(all[1].attempts[0].output, QByteArray("stderr line\n"));
        QCOMPARE(all[2].attempts[0].startedAt, step.startedAt + 5);
        QVERIFY(!all[3].attempts[0].succeeded);
    }

    /// A resumed run keeps its rows: the reopened call keeps its recorded sequence under
    /// the id the resumed script gave it, which an older row of the run may also have.
    /// sequenceOf names the newest row with the id (latest queued), not the highest sequence.
    void protocolExchangeSurvivesReopen()
    {
        // An MCP attempt's JSON-RPC exchange (the Protocol tab): journaled with its
        // attempt, read back the same by the journal and by a reader after a reopen. An
        // attempt that succeeded at once is not folded into its step when it has one.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Step step = sampleStep();
        step.attempts.erase(step.attempts.begin());
        step.attempts.front().number = 1;
        step.attempts.front().startedAt = step.startedAt;
        const nlohmann::json exchange
            = {{"startedAt", 1700000000101},
               {"messages",
                {{{"direction", "sent"},
                  {"offsetMs", 0},
                  {"message", {{"id", 7}, {"jsonrpc", "2.0"}, {"method", "tools/call"}, {"params", {{"name", "x"}}}}}},
                 {{"direction", "received"},
                  {"offsetMs", 12},
                  {"kind", "result"},
                  {"id", 7},
                  {"bytes", 70000},
                  {"head", "[1,2"}}}},
               {"omittedMessages", 3},
               {"omittedBytes", 420}};
        step.attempts.front().protocol = exchange;
        Step plain = step;
        plain.sequence = 2;
        plain.callId = QStringLiteral("c2");
        plain.attempts.front().protocol = nullptr;
        {
            Journal journal;
            QVERIFY(journal.open(path));
            QVERIFY2(journal.commit({&step, &plain}, {}), qPrintable(journal.lastError()));
        }
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 1);
        Journal journal;
        QVERIFY(journal.open(path));
        const std::vector<Step> steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(2));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts[0].protocol.dump(), exchange.dump());
        QVERIFY(steps[1].attempts[0].protocol.is_null());
        JournalReader reader;
        QVERIFY(reader.open(path));
        const auto read = reader.step(QStringLiteral("run-1"), 1);
        QVERIFY(read);
        QCOMPARE(read->attempts.size(), std::size_t(1));
        QCOMPARE(read->attempts[0].protocol.dump(), exchange.dump());
    }

    void sequenceOfTheNewestRowWithACallId()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        Step reopened = sampleStep();
        reopened.callId = QStringLiteral("7");
        reopened.queuedAt = 1700000005000; // pending again from the resume
        Step old = sampleStep();
        old.sequence = 2;
        old.callId = QStringLiteral("7"); // memoized on resume: its recorded row, kept as it was
        old.queuedAt = 1700000000300;
        Step other = sampleStep();
        other.sequence = 3;
        other.callId = QStringLiteral("8");
        QVERIFY2(journal.commit({&reopened, &old, &other}, {}), qPrintable(journal.lastError()));
        JournalReader reader;
        QVERIFY(reader.open(path));
        QCOMPARE(reader.sequenceOf(QStringLiteral("run-1"), QStringLiteral("7")), 1);
        QCOMPARE(reader.sequenceOf(QStringLiteral("run-1"), QStringLiteral("8")), 3);
        QCOMPARE(reader.sequenceOf(QStringLiteral("run-1"), QStringLiteral("9")), 0);
    }

    void foldedAttemptReplacesEarlierRows_data()
    {
        QTest::addColumn<bool>("sameJournal");
        QTest::newRow("written by this journal") << true;
        QTest::newRow("written by an earlier process (resume)") << false;
    }

    void foldedAttemptReplacesEarlierRows()
    {
        // A step recorded while its attempt runs (a row in attempts), then final with the
        // attempt folded: the row goes, and the step has exactly one attempt.
        QFETCH(bool, sameJournal);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Step step = sampleStep();
        step.attempts.resize(1);
        step.attempts[0] = journaledAttempt(1, step.startedAt, 0, false);
        step.status = StepStatus::Running;
        step.result.reset();
        auto first = std::make_unique<Journal>();
        QVERIFY(first->open(path));
        QVERIFY(first->recordStep(step));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 1);
        if (!sameJournal) {
            first.reset();
            first = std::make_unique<Journal>();
            QVERIFY(first->open(path));
        }
        step.status = StepStatus::Succeeded;
        step.result = nlohmann::json(1);
        step.attempts[0].endedAt = step.endedAt;
        step.attempts[0].succeeded = true;
        QVERIFY2(first->recordStep(step), qPrintable(first->lastError()));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 0);
        const auto steps = first->steps(QStringLiteral("run-1"));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts.size(), std::size_t(1));
        QCOMPARE(steps[0].attempts[0].endedAt, step.endedAt);
        QVERIFY(steps[0].attempts[0].succeeded);

        // And back: a retry after all (the step written again with two attempts).
        step.attempts.push_back(journaledAttempt(2, step.endedAt + 1, step.endedAt + 2, true));
        step.attempts[0].succeeded = false;
        QVERIFY(first->recordStep(step));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 2);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT attempt_ended_at FROM steps")).toLongLong(), qint64(0));
        QCOMPARE(first->steps(QStringLiteral("run-1"))[0].attempts.size(), std::size_t(2));
    }

    void migratesVersion4()
    {
        // A journal as version 4 wrote it: its steps keep their attempt rows, new steps fold.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        rawExec(
            path,
            {
                QStringLiteral(
                    "CREATE TABLE runs (id TEXT PRIMARY KEY, project_dir TEXT NOT NULL DEFAULT '', script_path TEXT NOT NULL DEFAULT '',"
                    " status TEXT NOT NULL, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " exit_code INTEGER NOT NULL DEFAULT -1, error TEXT NOT NULL DEFAULT '', kind TEXT NOT NULL DEFAULT 'run',"
                    " source_run TEXT NOT NULL DEFAULT '', owner_pid INTEGER NOT NULL DEFAULT 0, owner_start INTEGER NOT NULL DEFAULT 0)"),
                QStringLiteral(
                    "CREATE TABLE steps (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,"
                    " call_id TEXT NOT NULL, tool TEXT NOT NULL, args TEXT NOT NULL, idempotency_key TEXT NOT NULL,"
                    " status TEXT NOT NULL, max_attempts INTEGER NOT NULL, result TEXT, error TEXT,"
                    " queued_at INTEGER NOT NULL DEFAULT 0, started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0,"
                    " next_attempt_at INTEGER NOT NULL DEFAULT 0, args_hash TEXT NOT NULL DEFAULT '', original_args TEXT,"
                    " divergence TEXT NOT NULL DEFAULT '', PRIMARY KEY (run_id, sequence)) WITHOUT ROWID"),
                QStringLiteral(
                    "CREATE TABLE attempts (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, number INTEGER NOT NULL,"
                    " started_at INTEGER NOT NULL DEFAULT 0, ended_at INTEGER NOT NULL DEFAULT 0, succeeded INTEGER NOT NULL DEFAULT 0,"
                    " error TEXT, output BLOB, PRIMARY KEY (run_id, sequence, number),"
                    " FOREIGN KEY (run_id, sequence) REFERENCES steps(run_id, sequence) ON DELETE CASCADE) WITHOUT ROWID"),
                QStringLiteral(
                    "CREATE TABLE output (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, stream INTEGER NOT NULL,"
                    " seq INTEGER NOT NULL, chunk BLOB NOT NULL, PRIMARY KEY (run_id, stream, seq))"),
                QStringLiteral(
                    "CREATE TABLE policy_events (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, sequence INTEGER NOT NULL DEFAULT 0,"
                    " at INTEGER NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '{}')"),
                QStringLiteral(
                    "CREATE TABLE pending_answers (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, call_id TEXT NOT NULL,"
                    " attempt INTEGER NOT NULL, answer TEXT NOT NULL, created_at INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'new',"
                    " reason TEXT NOT NULL DEFAULT '', handled_at INTEGER NOT NULL DEFAULT 0)"),
                QStringLiteral("CREATE INDEX steps_by_tool ON steps (run_id, tool, sequence)"),
                QStringLiteral("INSERT INTO runs (id, status, started_at) VALUES ('old', 'completed', 1)"),
                QStringLiteral(
                    "INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts, result,"
                    " started_at, ended_at) VALUES ('old', 1, 'c1', 'echo', '{}', 'old:1', 'succeeded', 3, '1', 10, 20)"),
                QStringLiteral("INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded)"
                               " VALUES ('old', 1, 1, 10, 20, 1)"),
                QStringLiteral("PRAGMA application_id = 1414744625"),
                QStringLiteral("PRAGMA user_version = 4"),
            });
        {
            // The trace's reader never migrates: on the version 4 file it reads the rows.
            JournalReader reader;
            QVERIFY2(reader.open(path), qPrintable(reader.lastError()));
            const auto summaries = reader.summaries(QStringLiteral("old"), 1, 1);
            QCOMPARE(summaries.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts.size(), std::size_t(1));
            QCOMPARE(summaries[0].attempts[0].endedAt, qint64(20));
            const auto step = reader.step(QStringLiteral("old"), 1);
            QVERIFY(step);
            QCOMPARE(step->attempts.size(), std::size_t(1));
        }
        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        QCOMPARE(rawValue(path, QStringLiteral("PRAGMA user_version")).toInt(), 9);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT attempt_ended_at FROM steps")).toLongLong(), qint64(0));
        // Version 6: the ended run's by-tool rows, steps_by_tool gone.
        QCOMPARE(
            rawValue(path,
                     QStringLiteral("SELECT group_concat(run_id || ' ' || tool || ' ' || sequence) FROM step_tools"))
                .toString(),
            QStringLiteral("old echo 1"));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT tools_indexed FROM runs")).toInt(), 1);
        QCOMPARE(
            rawValue(path, QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'steps_by_tool'")).toInt(),
            0);
        const auto old = journal.steps(QStringLiteral("old"));
        QCOMPARE(old.size(), std::size_t(1));
        QCOMPARE(old[0].attempts.size(), std::size_t(1)); // its row, not a folded copy as well
        QCOMPARE(old[0].attempts[0].endedAt, qint64(20));

        // The old run's step written again (a resume): its row is replaced by the fold.
        Step again = old[0];
        again.runId = QStringLiteral("old");
        again.sequence = 1;
        QVERIFY2(journal.recordStep(again), qPrintable(journal.lastError()));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM attempts")).toInt(), 0);
        QCOMPARE(journal.steps(QStringLiteral("old"))[0].attempts.size(), std::size_t(1));
        QCOMPARE(journal.steps(QStringLiteral("old"))[0].attempts[0].endedAt, qint64(20));
    }

    void toolIndexFollowsTheRun()
    {
        // Schema 6: a step's commit writes no by-tool row; the run's rows are written when
        // it stops being live and dropped when it goes live again. The trace's filter by
        // tool gives the same answer either way.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        RunRecord run = sampleRun();
        run.status = RunStatus::Running;
        QVERIFY(journal.recordRun(run));
        const auto record = [&](int sequence, const char *tool) {
            Step step = sampleStep();
            step.sequence = sequence;
            step.callId = QStringLiteral("c%1").arg(sequence);
            step.tool = QString::fromLatin1(tool);
            step.attempts.resize(1);
            step.attempts[0] = journaledAttempt(1, step.startedAt, step.endedAt, true);
            return journal.recordStep(step);
        };
        QVERIFY(record(1, "echo"));
        QVERIFY(record(2, "other"));
        QVERIFY(record(3, "echo"));
        const auto toolRows = [&] { return rawValue(path, QStringLiteral("SELECT count(*) FROM step_tools")).toInt(); };
        const auto indexed = [&] { return rawValue(path, QStringLiteral("SELECT tools_indexed FROM runs")).toInt(); };
        JournalReader reader;
        QVERIFY(reader.open(path));
        StepQuery echo;
        echo.tool = QStringLiteral("echo");
        StepQuery late;
        late.tool = QStringLiteral("late");
        const QStringList echoOther{QStringLiteral("echo"), QStringLiteral("other")};
        QCOMPARE(toolRows(), 0); // live: nothing per commit
        QCOMPARE(reader.tools(QStringLiteral("run-1")), echoOther);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), (std::vector<int>{1, 3}));

        run.status = RunStatus::Completed;
        QVERIFY2(journal.recordRun(run), qPrintable(journal.lastError()));
        // Ending the run does not wait for its rows: the next checkpoint() writes them.
        QCOMPARE(toolRows(), 0);
        QCOMPARE(indexed(), 0);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), (std::vector<int>{1, 3}));
        QVERIFY2(journal.checkpoint(), qPrintable(journal.lastError()));
        QCOMPARE(toolRows(), 3);
        QCOMPARE(indexed(), 1);
        QCOMPARE(reader.tools(QStringLiteral("run-1")), echoOther);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), (std::vector<int>{1, 3}));

        // A step written after the run ended (an import, a late write): the rows are
        // incomplete, so they go and the filter scans until the run is indexed again.
        QVERIFY(record(4, "late"));
        QCOMPARE(indexed(), 0);
        QCOMPARE(toolRows(), 0);
        QCOMPARE(reader.tools(QStringLiteral("run-1")),
                 (QStringList{QStringLiteral("echo"), QStringLiteral("late"), QStringLiteral("other")}));
        QCOMPARE(reader.matching(QStringLiteral("run-1"), late), std::vector<int>{4});
        QVERIFY(journal.recordRun(run));
        QVERIFY(journal.checkpoint());
        QCOMPARE(toolRows(), 4);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), late), std::vector<int>{4});

        // Resumed: live again, its rows go (a divergent call may change a step's tool).
        run.status = RunStatus::Running;
        QVERIFY(journal.recordRun(run));
        QCOMPARE(indexed(), 0);
        QCOMPARE(toolRows(), 0);
        QVERIFY(record(3, "other"));
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), std::vector<int>{1});
        run.status = RunStatus::Suspended; // not live either
        QVERIFY(journal.recordRun(run));
        QCOMPARE(toolRows(), 0);
        QVERIFY(journal.open(path)); // closes the file first: the rows are written then
        QCOMPARE(toolRows(), 4);
        QCOMPARE(reader.matching(QStringLiteral("run-1"), echo), std::vector<int>{1});
        QCOMPARE(reader.tools(QStringLiteral("run-1")),
                 (QStringList{QStringLiteral("echo"), QStringLiteral("late"), QStringLiteral("other")}));
    }

    void combinedFiltersWithAndWithoutToolRows()
    {
        // Tool + failed / pending / text: the same rows whether the run has its
        // step_tools rows (ended) or not (live, or a crash left it 'running'); the status
        // lists come from the partial indexes steps_failed, steps_waiting, attempts_failed.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        RunRecord run = sampleRun();
        run.status = RunStatus::Running;
        QVERIFY(journal.recordRun(run));
        const auto record
            = [&](int sequence, const char *tool, StepStatus status, bool failedAttempt, const char *result) {
                  Step step = sampleStep(); // attempt 1 failed, attempt 2 succeeded
                  step.sequence = sequence;
                  step.callId = QStringLiteral("c%1").arg(sequence);
                  step.tool = QString::fromLatin1(tool);
                  step.status = status;
                  step.result = nlohmann::json(result);
                  if (status == StepStatus::Failed) {
                      step.result.reset();
                      step.error = step.attempts[0].error;
                  }
                  if (!failedAttempt)
                      step.attempts = {step.attempts[1]};
                  if (status == StepStatus::Waiting) {
                      step.result.reset();
                      step.endedAt = 0;
                      step.attempts = {journaledAttempt(1, step.startedAt, 0, false)};
                  }
                  return journal.recordStep(step);
              };
        QVERIFY(record(1, "echo", StepStatus::Succeeded, false, "plain"));
        QVERIFY(record(2, "other", StepStatus::Failed, true, ""));
        QVERIFY(record(3, "echo", StepStatus::Failed, true, ""));
        QVERIFY(record(4, "echo", StepStatus::Succeeded, true, "needle after a retry"));
        QVERIFY(record(5, "echo", StepStatus::Waiting, false, ""));
        QVERIFY(record(6, "other", StepStatus::Waiting, false, ""));
        QVERIFY(record(7, "echo", StepStatus::Succeeded, false, "needle"));
        QVERIFY(record(8, "other", StepStatus::Succeeded, false, "needle"));
        JournalReader reader;
        QVERIFY(reader.open(path));
        const auto rows = [&](const char *tool, StepQuery::Status status, const char *text) {
            return reader.matching(QStringLiteral("run-1"),
                                   StepQuery{QString::fromLatin1(tool), status, QString::fromLatin1(text)});
        };
        const auto check = [&] {
            QCOMPARE(rows("echo", StepQuery::Status::FailedOnly, ""), std::vector<int>{3});
            QCOMPARE(rows("echo", StepQuery::Status::HadFailures, ""), (std::vector<int>{3, 4}));
            QCOMPARE(rows("other", StepQuery::Status::FailedOnly, ""), std::vector<int>{2});
            QCOMPARE(rows("", StepQuery::Status::FailedOnly, ""), (std::vector<int>{2, 3}));
            QCOMPARE(rows("", StepQuery::Status::HadFailures, ""), (std::vector<int>{2, 3, 4}));
            QCOMPARE(rows("echo", StepQuery::Status::PendingOnly, ""), std::vector<int>{5});
            QCOMPARE(rows("", StepQuery::Status::PendingOnly, ""), (std::vector<int>{5, 6}));
            QCOMPARE(rows("echo", StepQuery::Status::All, "NEEDLE"), (std::vector<int>{4, 7}));
            QCOMPARE(rows("other", StepQuery::Status::All, "needle"), std::vector<int>{8});
            QCOMPARE(rows("echo", StepQuery::Status::FailedOnly, "needle"), std::vector<int>{});
            QCOMPARE(rows("echo", StepQuery::Status::HadFailures, "needle"), std::vector<int>{4});
            QCOMPARE(rows("echo", StepQuery::Status::PendingOnly, "needle"), std::vector<int>{});
            QCOMPARE(rows("echo", StepQuery::Status::All, ""), (std::vector<int>{1, 3, 4, 5, 7}));
        };
        const auto toolRows = [&] { return rawValue(path, QStringLiteral("SELECT count(*) FROM step_tools")).toInt(); };
        QCOMPARE(toolRows(), 0); // live, as a crashed run left 'running' stays
        check();
        if (QTest::currentTestFailed())
            return;
        run.status = RunStatus::Failed;
        QVERIFY(journal.recordRun(run));
        QVERIFY(journal.checkpoint());
        QCOMPARE(toolRows(), 8);
        check();
    }

    // --- Group commit and the durable tail (docs/steps.md "The commit path") ---

    void groupCommitTailThenSqlite()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        const QString count = QStringLiteral("SELECT count(*) FROM steps");
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(50);
        Step a = foldedStep(1);
        QVERIFY(journal.commit({&a}, {}));
        // Durable in the tail, not yet in SQLite: another connection does not see it.
        QVERIFY(!journal.tailPath().isEmpty());
        QVERIFY(QFileInfo(journal.tailPath()).size() > 0);
        QCOMPARE(rawValue(path, count).toInt(), 0);
        // The group commit (a single-shot timer) puts it there and marks in the same
        // transaction how far in the tail it got (record 1).
        QTRY_COMPARE(rawValue(path, count).toInt(), 1);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT serial FROM journal_tails")).toInt(), 1);

        // Reads through the same object always see what it committed.
        Step b = foldedStep(2);
        QVERIFY(journal.commit({&b}, {}));
        QCOMPARE(rawValue(path, count).toInt(), 1);
        QCOMPARE(journal.steps(QStringLiteral("run-1")).size(), std::size_t(2));
        QCOMPARE(rawValue(path, count).toInt(), 2);

        // A call waiting for a person is in SQLite at once (`toolstudio answer` looks).
        Step c = waitingStep(3);
        QVERIFY(journal.commit({&c}, {}));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT status FROM steps WHERE sequence = 3")).toString(),
                 QStringLiteral("waiting"));

        // At maxRows the group goes at once.
        journal.setGroupCommit(60000, 3);
        std::vector<Step> more;
        for (int sequence = 4; sequence <= 6; ++sequence)
            more.push_back(foldedStep(sequence));
        QVERIFY(journal.commit({&more[0], &more[1]}, {}));
        QCOMPARE(rawValue(path, count).toInt(), 3);
        QVERIFY(journal.commit({&more[2]}, {}));
        QCOMPARE(rawValue(path, count).toInt(), 6);

        // Closing writes the rest and deletes the tail.
        Step d = foldedStep(7);
        QVERIFY(journal.commit({&d}, {}));
        const QString tail = journal.tailPath();
        QVERIFY(QFile::exists(tail));
        QCOMPARE(rawValue(path, count).toInt(), 6);
        journal.flush();
        QCOMPARE(rawValue(path, count).toInt(), 7);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM journal_tails")).toInt(), 1);
        Step e = foldedStep(8);
        QVERIFY(journal.commit({&e}, {}));
        QVERIFY(journal.open(path)); // closes first
        QVERIFY(!QFile::exists(tail));
        QCOMPARE(rawValue(path, count).toInt(), 8);
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM journal_tails")).toInt(), 0);
    }

    void groupCommitTimerDoesNotWaitForAnotherWriter()
    {
        // The group commit's timer runs on the run's thread beside the attempts' timers:
        // while another writer holds the file it gives up at once and tries again
        // (attack41 F3: its 5 s wait made an attempt that had finished time out).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(10);
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        {
            QSqlQuery lock(db);
            QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
            Step a = foldedStep(1);
            QVERIFY(journal.commit({&a}, {}));
            // Ten turns of 100 ms, each with the timer's tries in it; one 5 s wait would
            // make a turn last that long.
            QElapsedTimer clock;
            clock.start();
            qint64 longest = 0;
            for (int turn = 0; turn < 10; ++turn) {
                const qint64 before = clock.elapsed();
                QTest::qWait(100);
                longest = std::max(longest, clock.elapsed() - before);
            }
            QVERIFY2(longest < 2000, qPrintable(QStringLiteral("a turn took %1 ms").arg(longest)));
            QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM steps")).toInt(), 0);
            QVERIFY(lock.exec(QStringLiteral("COMMIT")));
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("locker"));
        // Tried again by itself once the file is free.
        QTRY_COMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM steps")).toInt(), 1);
    }

    void groupCommitDropsOnlyARefusedRecord()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(600000);
        Step a = foldedStep(1);
        Step bad = sampleStep(); // two attempts numbered 1: the attempts table refuses it
        bad.sequence = 2;
        bad.attempts[1].number = 1;
        Step c = foldedStep(3);
        QVERIFY(journal.commit({&a}, {}));
        QVERIFY(journal.commit({&bad}, {})); // in the tail: SQLite has not seen it yet
        QVERIFY(journal.commit({&c}, {}));
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral(
                                 "a step commit SQLite refused was dropped: recording step 2 \\(get_exchange_rate\\): "
                                 "attempt 1: UNIQUE constraint failed")));
        QVERIFY(!journal.flush());
        QVERIFY(
            journal.lastError().startsWith(QStringLiteral("recording step 2 (get_exchange_rate): attempt 1: UNIQUE")));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT group_concat(sequence) FROM steps")).toString(),
                 QStringLiteral("1,3"));
        // Handled: the mark is past it, so a recovery of this tail would not stop there.
        QCOMPARE(rawValue(path, QStringLiteral("SELECT serial FROM journal_tails")).toInt(), 3);
        QVERIFY(journal.flush()); // nothing left
    }

    // A live run's running/waiting goes with the next transaction, never one of its own.
    void liveStatusRidesOnTheNextCommit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        const QString status = QStringLiteral("SELECT status FROM runs WHERE id = 'run-1'");
        Journal journal;
        QVERIFY(journal.open(path));
        journal.setGroupCommit(600000);
        RunRecord run = sampleRun();
        run.status = RunStatus::Running;
        run.endedAt = 0;
        QVERIFY(journal.recordRun(run));
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("running"));

        // Waiting: written in the same transaction as the step that waits for a person.
        QVERIFY(journal.setLiveStatus(run.id, RunStatus::Waiting));
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("running"));
        Step waiting = waitingStep(1);
        QVERIFY(journal.commit({&waiting}, {}));
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("waiting"));
        QCOMPARE(rawValue(path, QStringLiteral("SELECT status FROM steps WHERE sequence = 1")).toString(),
                 QStringLiteral("waiting"));
        // The urgent record went into SQLite directly, not into the tail first.
        QCOMPARE(QFileInfo(journal.tailPath()).size(), 0);

        // Running again: pending until the group commit; back to waiting before it, nothing.
        QVERIFY(journal.setLiveStatus(run.id, RunStatus::Running));
        Step answered = foldedStep(1);
        QVERIFY(journal.commit({&answered}, {})); // into the tail
        QVERIFY(QFileInfo(journal.tailPath()).size() > 0);
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("waiting"));
        QVERIFY(journal.flush());
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("running"));
        QVERIFY(journal.setLiveStatus(run.id, RunStatus::Waiting));
        QVERIFY(journal.setLiveStatus(run.id, RunStatus::Running));
        QVERIFY(journal.flush());
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("running"));

        // A pending status never changes a run that ended meanwhile, nor a final status.
        QVERIFY(journal.setLiveStatus(run.id, RunStatus::Waiting));
        run.status = RunStatus::Completed;
        QVERIFY(journal.recordRun(run));
        QVERIFY(journal.setLiveStatus(run.id, RunStatus::Waiting));
        QVERIFY(journal.flush());
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("completed"));
        QVERIFY(!journal.setLiveStatus(run.id, RunStatus::Failed));

        // Without group commit it is written at once.
        journal.setGroupCommit(0);
        run.status = RunStatus::Running;
        QVERIFY(journal.recordRun(run));
        QVERIFY(journal.setLiveStatus(run.id, RunStatus::Waiting));
        QCOMPARE(rawValue(path, status).toString(), QStringLiteral("waiting"));
    }

    void liveWritersTailIsNotApplied()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        Journal writer;
        QVERIFY(writer.open(path));
        writer.setGroupCommit(60000);
        Step a = foldedStep(1);
        QVERIFY(writer.commit({&a}, {}));
        const QByteArray tailBytes = readAll(writer.tailPath());
        QVERIFY(!tailBytes.isEmpty());

        // Another Journal (here: of this live process) opens the file: the writer's
        // tail is left alone.
        {
            Journal other;
            QVERIFY(other.open(path));
            QCOMPARE(other.steps(QStringLiteral("run-1")).size(), std::size_t(0));
            QCOMPARE(readAll(writer.tailPath()), tailBytes);
        }
        // The same bytes under the name of a writer that is gone (this pid, another
        // process start) are applied by the next open, and deleted.
        const QString dead = JournalTail::fileName(path, Journal::selfPid(), Journal::selfStartTicks() + 1, 1);
        writeAll(dead, tailBytes);
        {
            Journal other;
            QVERIFY(other.open(path));
            QCOMPARE(other.steps(QStringLiteral("run-1")).size(), std::size_t(1));
            QCOMPARE(other.steps(QStringLiteral("run-1")).front().result->dump(), std::string("\"ok 1\""));
        }
        QVERIFY(!QFile::exists(dead));
        QCOMPARE(readAll(writer.tailPath()), tailBytes);
    }

    void crashedWriterIsRecovered_data()
    {
        QTest::addColumn<int>("cut");      // bytes cut off the tail's end after the crash
        QTest::addColumn<int>("expected"); // steps found on reopening
        QTest::addColumn<bool>("reapply"); // crash between the group commit and the rewind
        QTest::addColumn<bool>("locked");  // another writer holds the file at the first reopen
        QTest::newRow("whole tail") << 0 << 10 << false << false;
        QTest::newRow("torn last record") << 7 << 9 << false << false;
        QTest::newRow("applied, not yet rewound") << 0 << 10 << true << false;
        QTest::newRow("file locked at the first reopen") << 0 << 10 << false << true;
    }

    void crashedWriterIsRecovered()
    {
        QFETCH(int, cut);
        QFETCH(int, expected);
        QFETCH(bool, reapply);
        QFETCH(bool, locked);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("journal.sqlite"));
        constexpr int Steps = 10;
        int acks[2];
        QVERIFY(::pipe(acks) == 0);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // The studio: a live run whose steps are acknowledged (a line on the pipe)
            // once commit() returned; the first half reaches SQLite, then SIGKILL.
            ::close(acks[0]);
            Journal journal;
            if (!journal.open(path))
                ::_exit(2);
            journal.setGroupCommit(600000, 100000);
            RunRecord run = sampleRun();
            run.status = RunStatus::Running;
            journal.recordRun(run);
            QByteArray saved;
            for (int sequence = 1; sequence <= Steps; ++sequence) {
                if (!journal.appendOutput(QStringLiteral("run-1"), 1, QByteArray::number(sequence) + '\n'))
                    ::_exit(6);
                Step step = foldedStep(sequence);
                PolicyEvent event{QStringLiteral("run-1"), sequence, 1700000000000, PolicyEventKind::RetryNow, {}};
                if (!journal.commit({&step}, {event}))
                    ::_exit(3);
                if (::write(acks[1], "a", 1) != 1)
                    ::_exit(4);
                if (sequence == Steps / 2)
                    journal.flush();
            }
            if (reapply) {
                saved = readAll(journal.tailPath());
                journal.flush();                     // in SQLite, marked in journal_tails; the tail is emptied
                writeAll(journal.tailPath(), saved); // as if the crash came before that
            }
            ::raise(SIGKILL);
            ::_exit(5);
        }
        ::close(acks[1]);
        int acked = 0;
        char byte;
        while (::read(acks[0], &byte, 1) == 1)
            ++acked;
        ::close(acks[0]);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, qPrintable(QString::number(status)));
        QCOMPARE(acked, Steps);
        const QStringList tails = JournalTail::filesOf(path);
        QCOMPARE(tails.size(), 1);
        // Before the reopen: SQLite holds the first half only.
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM steps")).toInt(), reapply ? Steps : Steps / 2);
        if (cut > 0) {
            QFile file(tails.front());
            QVERIFY(file.resize(file.size() - cut));
            QTest::ignoreMessage(QtInfoMsg,
                                 QRegularExpression(QStringLiteral("applied 9 commit\\(s\\) left in .* by process "
                                                                   "%1; ignored the rest: record 20 at byte \\d+: torn")
                                                        .arg(child)));
        }

        if (locked) {
            // Another writer holds the file while the tail is recovered (its 5 s wait
            // runs out) and lets go just after: the tail is left for the next open, and
            // its run is not suspended either — resumed from a file without its last
            // commits, it would call again what its script was answered (attack41 F4).
            std::atomic<bool> holding = false;
            std::thread holder([&] {
                {
                    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("holder"));
                    db.setDatabaseName(path);
                    if (db.open()) {
                        QSqlQuery lock(db);
                        holding = lock.exec(QStringLiteral("BEGIN IMMEDIATE"));
                        QThread::msleep(5600);
                        lock.exec(QStringLiteral("COMMIT"));
                    }
                }
                QSqlDatabase::removeDatabase(QStringLiteral("holder"));
            });
            QTRY_VERIFY(holding);
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("cannot apply .* now")));
            {
                Journal early;
                QString error;
                const bool opened = early.open(path, &error);
                holder.join();
                QVERIFY2(opened, qPrintable(error));
                QVERIFY(early.suspendedOnOpen().isEmpty());
            }
            QCOMPARE(rawValue(path, QStringLiteral("SELECT status FROM runs")).toString(), QStringLiteral("running"));
            QCOMPARE(JournalTail::filesOf(path).size(), 1);
        }

        Journal journal;
        QString error;
        QVERIFY2(journal.open(path, &error), qPrintable(error));
        const auto steps = journal.steps(QStringLiteral("run-1"));
        QCOMPARE(int(steps.size()), expected);
        for (int i = 0; i < expected; ++i) {
            QCOMPARE(steps[std::size_t(i)].sequence, i + 1);
            QCOMPARE(steps[std::size_t(i)].status, StepStatus::Succeeded);
            QCOMPARE(steps[std::size_t(i)].result->dump(), QStringLiteral("\"ok %1\"").arg(i + 1).toStdString());
        }
        // The output went through the tail too (before each step: all of it is there).
        QByteArray lines;
        for (int i = 1; i <= Steps; ++i)
            lines += QByteArray::number(i) + '\n';
        QCOMPARE(journal.output(QStringLiteral("run-1"), 1), lines);
        // Each event once, also when the tail's records were in SQLite already.
        QCOMPARE(int(journal.events(QStringLiteral("run-1")).size()), expected + 1); // + "suspended"
        // Applied before the dead owner's live run was suspended.
        QCOMPARE(journal.run(QStringLiteral("run-1"))->status, RunStatus::Suspended);
        QVERIFY(JournalTail::filesOf(path).isEmpty());
        QCOMPARE(rawValue(path, QStringLiteral("SELECT count(*) FROM journal_tails")).toInt(), 0);
    }

    void tailRecordFormat()
    {
        // The format journaltail.h documents: length, CRC-32, serial, ops.
        TailRecord record;
        record.op(TailStatement::InsertEvent)
            .add(QStringLiteral("run-1"))
            .add(2)
            .addNull()
            .addBlob(QByteArray("\x00\x01", 2));
        record.seal(7);
        const QByteArray bytes = record.bytes();
        QCOMPARE(bytes.size(), 8 + 8 + 2 + (1 + 4 + 5) + (1 + 8) + 1 + (1 + 4 + 2));
        QCOMPARE(qFromLittleEndian<quint32>(bytes.constData()), quint32(bytes.size() - 8));
        QString note;
        QList<quint64> serials;
        QStringList seen;
        const QByteArray two = bytes + bytes;
        QCOMPARE(JournalTail::readRecords(
                     two,
                     [&](quint64 serial, QByteArrayView ops) {
                         serials << serial;
                         return JournalTail::readOps(
                             ops, [&](TailStatement statement, const std::vector<TailValue> &values) {
                                 seen << QStringLiteral("%1:%2").arg(int(statement)).arg(values.size());
                                 return true;
                             });
                     },
                     &note),
                 2);
        QCOMPARE(serials, (QList<quint64>{7, 7}));
        QCOMPARE(seen, (QStringList{QStringLiteral("5:4"), QStringLiteral("5:4")}));
        QVERIFY(note.isEmpty());
        // A flipped byte: the checksum stops the reading there.
        QByteArray damaged = two;
        damaged[bytes.size() + 20] = char(damaged[bytes.size() + 20] ^ 0x40);
        QCOMPARE(JournalTail::readRecords(
                     damaged, [](quint64, QByteArrayView) { return true; }, &note),
                 1);
        QCOMPARE(note, QStringLiteral("record 2 at byte %1: damaged (checksum mismatch)").arg(bytes.size()));
    }

    void statusNames()
    {
        QCOMPARE(stepStatusName(StepStatus::Memoized), QStringLiteral("memoized"));
        QCOMPARE(runStatusName(RunStatus::TimedOut), QStringLiteral("timed_out"));
        QCOMPARE(stepStatusFromName(QStringLiteral("retrying")), std::optional<StepStatus>(StepStatus::Retrying));
        QCOMPARE(runStatusFromName(QStringLiteral("suspended")), std::optional<RunStatus>(RunStatus::Suspended));
        QVERIFY(!stepStatusFromName(QStringLiteral("done")));
        QVERIFY(isFinal(StepStatus::Cancelled));
        QVERIFY(!isFinal(StepStatus::Waiting));
        QVERIFY(!isFinal(RunStatus::Suspended));
    }
};

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
