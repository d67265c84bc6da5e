// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The commit path (docs/steps.md "The commit path"): group commit through the durable
// tail before SQLite, a file another writer holds, a record SQLite refuses, a live
// run's status riding on the next commit; the tails of writers that died applied by
// the next open (a forked studio killed mid-run stands in for one); the tail's format.
#include "journal/journal.h"
#include "journal/journaltail.h"
#include "journalsamples.h"
#include "rawsqlite.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QtEndian>

#include <atomic>
#include <thread>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

namespace {

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

} // namespace

class TestJournalTail : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
};

QTEST_GUILESS_MAIN(TestJournalTail)
#include "tst_journaltail.moc"
