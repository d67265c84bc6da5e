// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A step's attempts: retries (exhausted, not retryable, Retry Now), the attempt and total
// timeouts, the idempotency key every attempt carries, command tools that fail, never
// start or hang (their process group killed), and a run's cancellation.
#include "engine/stepengine.h"
#include "python/toolsandbox.h"
#include "stepengineharness.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

#include <memory>

using json = nlohmann::json;

namespace {

/// The folder command tools of `h`'s project run in (docs/sandbox.md "Trusted code"):
/// their HOME is its scratch dir.
std::shared_ptr<ToolSandbox> commandSandbox(const Harness &h)
{
    QString error;
    return ToolSandbox::forProject(QFileInfo(h.dir.path()).canonicalFilePath(), &error);
}

} // namespace

class TestStepEngineRetries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void retriesThenSucceeds()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "flaky");
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.replies.size(), std::size_t(1));
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':0.92}"));

        QCOMPARE(h.engine->steps().size(), std::size_t(1));
        const Step &step = h.step("c1");
        QCOMPARE(step.status, StepStatus::Succeeded);
        QCOMPARE(step.attemptsText(), QStringLiteral("3/3"));
        QCOMPARE(step.attempts.size(), std::size_t(3));
        for (int i = 0; i < 2; ++i) {
            QVERIFY(!step.attempts[i].succeeded);
            QCOMPARE(step.attempts[i].error->codeName(), QStringLiteral("tool_failed"));
            QCOMPARE(step.attempts[i].error->message, std::string("rate service down"));
            QVERIFY(step.attempts[i].error->retryable);
            QVERIFY(step.attempts[i].endedAt >= step.attempts[i].startedAt);
            QVERIFY(step.attempts[i + 1].startedAt >= step.attempts[i].endedAt);
        }
        QVERIFY(step.attempts[2].succeeded);
        QCOMPARE(step.result->dump(), std::string("0.92"));
        QVERIFY(!step.error);
        QCOMPARE(step.idempotencyKey, keyOf("run-1", "flaky"));
        QVERIFY(step.endedAt >= step.queuedAt);

        QCOMPARE(h.added, QStringList{QStringLiteral("c1")});
        const std::vector<StepStatus> expected{StepStatus::Running,  StepStatus::Retrying, StepStatus::Running,
                                               StepStatus::Retrying, StepStatus::Running,  StepStatus::Succeeded};
        QCOMPARE(h.statusesOf("c1"), expected);

        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(1));
        QCOMPARE(journaled[0].status, StepStatus::Succeeded);
        QCOMPARE(journaled[0].attempts.size(), std::size_t(3));
    }

    void retriesExhausted()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "always_down");
        QTRY_VERIFY(h.reply("c1"));
        // The reply carries the last attempt's error; `retryable` says the failure was
        // transient, `attempts` that the engine already tried 3 times.
        QCOMPARE(errorOf(h.reply("c1")).dump(),
                 J("{'attempts':3,'code':'tool_failed','message':'rate service down','retryable':true}"));
        QCOMPARE(h.step("c1").status, StepStatus::Failed);
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(3));
    }

    void nonRetryableError()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "broken");
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(errorOf(h.reply("c1")).dump(),
                 J("{'attempts':1,'code':'tool_failed','message':'bad request','retryable':false}"));
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(1));
    }

    void attemptTimeout()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        QElapsedTimer clock;
        clock.start();
        h.call("c1", "slow");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 3000);
        QVERIFY(clock.elapsed() < 3000); // not the mock's 5 s
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'bound':'attempt','code':'timeout','message':'attempt 1 timed out after 0.2 s (attempt_timeout_seconds = 0.2)','retryable':true,'seconds':0.2}"));
        QCOMPARE(h.step("c1").attempts[0].error->codeName(), QStringLiteral("timeout"));
        // the cancelled mock does not answer later
        QTest::qWait(100);
        QCOMPARE(h.replies.size(), std::size_t(1));
    }

    void totalTimeout()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "stuck");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 3000);
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'bound':'total','code':'timeout','message':'step timed out after 0.3 s (total_timeout_seconds = 0.3)','retryable':false,'seconds':0.3}"));
        QCOMPARE(h.step("c1").status, StepStatus::Failed);
        QCOMPARE(h.step("c1").nextAttemptAt, qint64(0));
    }

    void idempotencyKeyAcrossAttempts()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c0", "nope"); // takes sequence 1: the key does not depend on it
        h.call("c1", "lookup", {{"base", "USD"}});
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        const QString key = keyOf("run-1", "lookup", {{"base", "USD"}});
        QCOMPARE(
            h.reply("c1")->message.dump(),
            json({{"id", "c1"}, {"type", "result"}, {"value", {{"attempt", 3}, {"key", key.toStdString()}}}}).dump());
        const Step &step = h.step("c1");
        QCOMPARE(step.sequence, 2);
        QCOMPARE(step.idempotencyKey, key);
        QCOMPARE(step.attempts.size(), std::size_t(3));
        for (int i = 0; i < 3; ++i)
            QVERIFY2(step.attempts[i].output.startsWith(
                         QStringLiteral("key=%1 attempt=%2 tool=lookup args={\"base\":\"USD\"}\n")
                             .arg(key)
                             .arg(i + 1)
                             .toUtf8()),
                     step.attempts[i].output.constData());
        // the message is the last lines of stderr
        QCOMPARE(
            QString::fromStdString(step.attempts[0].error->message),
            QStringLiteral("key=%1 attempt=1 tool=lookup args={\"base\":\"USD\"}\nlookup service busy (exit status "
                           "75)")
                .arg(key));
        QVERIFY(step.attempts[0].error->retryable);
    }

    void commandFailures_data()
    {
        QTest::addColumn<QByteArray>("tool");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<int>("attempts");
        QTest::newRow("exit 65") << QByteArray("data_error")
                                 << QStringLiteral("checking XYZ\nunknown currency XYZ (exit status 65)") << false << 1;
        QTest::newRow("invalid JSON")
            << QByteArray("garbage")
            << QStringLiteral(
                   "command printed invalid JSON: syntax error while parsing value - invalid literal; last read: 'r'")
            << false << 1;
        QTest::newRow("nothing printed") << QByteArray(
            "silent") << QStringLiteral("command printed nothing on stdout (expected the result as JSON)")
                                         << false << 1;
    }

    void commandFailures()
    {
        QFETCH(QByteArray, tool);
        QFETCH(QString, message);
        QFETCH(bool, retryable);
        QFETCH(int, attempts);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", tool.constData());
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("tool_failed"));
        QCOMPARE(QString::fromStdString(error.value("message", "")), message);
        QCOMPARE(error.value("retryable", !retryable), retryable);
        QCOMPARE(error.value("attempts", 0), attempts);
    }

    void commandMissingProgram()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "missing_program");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        const json error = errorOf(h.reply("c1"));
        // The confined command's launcher says it (the project is read through a copy as root).
        QCOMPARE(QString::fromStdString(error.value("message", "")),
                 QStringLiteral("command failed to start: cannot run %1/no-such-program: No such file or directory; "
                                "install the interpreter or set its path in Settings")
                     .arg(commandSandbox(h)->projectPath()));
        QCOMPARE(error.value("retryable", true), false);
    }

    void commandTimeoutKillsProcessGroup()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "hang");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 5000);
        // Explained: which bound, its value, and that the command's whole group is gone.
        const std::string message = errorOf(h.reply("c1")).value("message", "");
        QVERIFY2(
            QString::fromStdString(message).contains(QRegularExpression(QStringLiteral(
                "^attempt 1 timed out after 0\\.3 s \\(attempt_timeout_seconds = 0\\.3\\); the command's process group "
                "\\(pid \\d+\\) was killed \\(SIGKILL\\) and is gone$"))),
            message.c_str());
        QCOMPARE(errorOf(h.reply("c1")).value("bound", ""), std::string("attempt"));
        // The command's own child (sleep 30) is gone too, not just the shell.
        QFile pidFile(commandSandbox(h)->scratchDir() + QStringLiteral("/sleep.pid")); // the command's HOME
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const int pid = pidFile.readAll().trimmed().toInt();
        QVERIFY(pid > 0);
        auto alive = [pid] {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
            if (!stat.open(QIODevice::ReadOnly))
                return false;
            const QByteArray text = stat.readAll();
            const auto state = text.mid(text.lastIndexOf(')') + 2, 1);
            return state != "Z" && state != "X";
        };
        QTRY_VERIFY_WITH_TIMEOUT(!alive(), 2000);
    }

    void cancelAll()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "sales"}});
        h.call("c2", "slowish");
        h.call("c3", "stuck"); // goes to retrying with a 10 s backoff
        h.call("c4", "get_exchange_rate", {{"base", "USD"}});
        QCOMPARE(h.replies.size(), std::size_t(1)); // c4's invalid_arguments
        QTRY_COMPARE(h.step("c3").status, StepStatus::Retrying);

        h.engine->cancelAll(QStringLiteral("the run was stopped"));
        for (const char *id : {"c1", "c2", "c3"}) {
            const Step &step = h.step(id);
            QCOMPARE(step.status, StepStatus::Cancelled);
            QCOMPARE(step.error->codeName(), QStringLiteral("cancelled"));
            QCOMPARE(step.error->message, std::string("the run was stopped"));
            QVERIFY(step.endedAt > 0);
        }
        QCOMPARE(h.step("c1").attempts[0].error->codeName(), QStringLiteral("cancelled"));
        QCOMPARE(h.step("c4").status, StepStatus::Failed); // already final: untouched
        QCOMPARE(h.closed, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.engine->pendingCount(), 0);

        QString reason;
        ManualAnswer answer;
        answer.result = "late";
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, answer, &reason));
        QCOMPARE(reason, QStringLiteral("call 'c1' already finished (cancelled)"));

        h.call("c5", "fast");
        QCOMPARE(h.step("c5").status, StepStatus::Cancelled);
        QTest::qWait(600); // past slowish's delay: nothing answers any more
        QCOMPARE(h.replies.size(), std::size_t(1));

        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(5));
        QCOMPARE(journaled[0].status, StepStatus::Cancelled);
        QCOMPARE(journaled[2].status, StepStatus::Cancelled);
    }

    void timedOutAttemptAndRetryShareTheKey()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "keyed");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':42}"));
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(2));
        QCOMPARE(h.step("c1").attempts[0].error->codeName(), QStringLiteral("timeout"));
        QFile keys(commandSandbox(h)->scratchDir() + QStringLiteral("/keys.txt")); // the command's HOME
        QVERIFY(keys.open(QIODevice::ReadOnly));
        const QByteArray key = keyOf("run-1", "keyed").toUtf8();
        QCOMPARE(keys.readAll(), "1 " + key + "\n2 " + key + "\n");
    }

    void retryNowAndNextAttemptAt()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        QString reason;
        QVERIFY(!h.engine->retryNow(QStringLiteral("c1"), &reason));
        QCOMPARE(reason, QStringLiteral("no call with id 'c1'"));
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        h.call("c1", "backoff");
        QTRY_COMPARE(h.step("c1").status, StepStatus::Retrying);
        // The trace shows when the next attempt starts: 10 s backoff, no jitter.
        QVERIFY(h.step("c1").nextAttemptAt >= before + 10000);
        QVERIFY(h.step("c1").nextAttemptAt <= QDateTime::currentMSecsSinceEpoch() + 10000);
        h.engine->flush();
        QCOMPARE(h.journal.steps(QStringLiteral("run-1"))[0].nextAttemptAt, h.step("c1").nextAttemptAt);
        QVERIFY2(h.engine->retryNow(QStringLiteral("c1"), &reason), qPrintable(reason));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 2000); // not 10 s
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':'ok'}"));
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(2));
        QVERIFY(!h.engine->retryNow(QStringLiteral("c1"), &reason));
        QCOMPARE(reason, QStringLiteral("call 'c1' is not waiting for a retry (succeeded)"));
        QStringList kinds;
        for (const PolicyEvent &event : h.journal.events(QStringLiteral("run-1")))
            kinds << policyEventKindName(event.kind);
        QCOMPARE(kinds, (QStringList{QStringLiteral("retry_scheduled"), QStringLiteral("retry_now")}));
    }

    void cancellationIsRecorded()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "hang");
        QTRY_COMPARE(h.step("c1").status, StepStatus::Running);
        QTest::qWait(100); // the command has started
        h.engine->cancelAll(QStringLiteral("the run was stopped"));
        const Step &step = h.step("c1");
        QCOMPARE(step.status, StepStatus::Cancelled);
        QVERIFY2(QString::fromStdString(step.error->message)
                     .startsWith(QStringLiteral("the run was stopped; the command's process group (pid ")),
                 step.error->message.c_str());
        QVERIFY(
            QString::fromStdString(step.error->message).endsWith(QStringLiteral(") was killed (SIGKILL) and is gone")));
        QCOMPARE(h.journal.steps(QStringLiteral("run-1"))[0].status, StepStatus::Cancelled);
        const auto events = h.journal.events(QStringLiteral("run-1"));
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(policyEventKindName(events[0].kind), QStringLiteral("cancelled"));
        QCOMPARE(events[0].detail.value("reason", ""), std::string("the run was stopped"));
        QCOMPARE(events[0].detail.value("status", ""), std::string("running"));
    }
};

QTEST_GUILESS_MAIN(TestStepEngineRetries)
#include "tst_stepengineretries.moc"
