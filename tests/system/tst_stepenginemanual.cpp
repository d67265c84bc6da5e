// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Manual tools: a person's answers (results, errors, retryable ones), the wait bound for
// a person, answers that come too late or for another attempt, and answers written by
// another process (`toolstudio answer`).
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "stepengineharness.h"

#include <QElapsedTimer>
#include <QTest>

using json = nlohmann::json;

class TestStepEngineManual : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void manualAnswers()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "sales"}});
        QCOMPARE(h.opened, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        QCOMPARE(h.engine->pendingCount(), 1);
        QVERIFY(h.replies.empty());

        QString reason;
        ManualAnswer result;
        result.result = "https://reports.example/sales.pdf";
        QVERIFY(!h.engine->answer(QStringLiteral("zzz"), 1, result, &reason));
        QCOMPARE(reason, QStringLiteral("no call with id 'zzz'"));
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 2, result, &reason));
        QCOMPARE(reason, QStringLiteral("answer is for attempt 2 but the call is at attempt 1"));
        ManualAnswer wrongShape;
        wrongShape.result = 42;
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, wrongShape, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the result does not match output_schema at (root): expected string, got integer"));
        QCOMPARE(h.step("c1").status, StepStatus::Waiting); // refusals change nothing

        // A retryable error answer: attempt 2 waits for a person again.
        ManualAnswer retry;
        retry.isError = true;
        retry.message = QStringLiteral("renderer busy, try again");
        retry.retryable = true;
        QVERIFY2(h.engine->answer(QStringLiteral("c1"), 1, retry, &reason), qPrintable(reason));
        QCOMPARE(h.closed, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.step("c1").status, StepStatus::Retrying);
        QCOMPARE(h.engine->pendingCount(), 0);
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, result, &reason));
        QCOMPARE(reason, QStringLiteral("attempt 1 of call 'c1' was already answered"));

        QTRY_COMPARE(h.opened.size(), 2);
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        QCOMPARE(h.step("c1").attempts.size(), std::size_t(2));
        QCOMPARE(h.step("c1").attempts[0].error->message, std::string("renderer busy, try again"));
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 1, result, &reason));
        QCOMPARE(reason, QStringLiteral("answer is for attempt 1 but the call is at attempt 2"));

        QVERIFY2(h.engine->answer(QStringLiteral("c1"), 2, result, &reason), qPrintable(reason));
        // The answer is applied before answer() returns.
        QCOMPARE(h.step("c1").status, StepStatus::Succeeded);
        QCOMPARE(h.reply("c1")->message.dump(),
                 J("{'id':'c1','type':'result','value':'https://reports.example/sales.pdf'}"));
        QVERIFY(!h.engine->answer(QStringLiteral("c1"), 2, result, &reason));
        QCOMPARE(reason, QStringLiteral("call 'c1' already finished (succeeded)"));
        QCOMPARE(h.replies.size(), std::size_t(1));
        QCOMPARE(h.closed.size(), 2);
        // Each attempt waited for the person from its start until the answer ended it
        // (the timeline's waiting segments), and so the journal keeps it.
        const Step &done = h.step("c1");
        for (const Attempt &a : done.attempts)
            QCOMPARE(a.personWaits, (std::vector<PersonWait>{{a.startedAt, a.endedAt}}));
        QCOMPARE(done.waitedMs(),
                 done.attempts[0].endedAt - done.attempts[0].startedAt + done.attempts[1].endedAt
                     - done.attempts[1].startedAt);
        h.engine->flush();
        const Step journaled = h.journal.steps(QStringLiteral("run-1")).at(0);
        QCOMPARE(journaled.attempts.at(1).personWaits, done.attempts[1].personWaits);
    }

    void pendingCallClosedAfterTheStatus_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("how");
        QTest::addColumn<StepStatus>("expected");
        QTest::newRow("result") << QStringLiteral("render_report") << QStringLiteral("result") << StepStatus::Succeeded;
        QTest::newRow("retryable error") << QStringLiteral("render_report") << QStringLiteral("retry")
                                         << StepStatus::Retrying;
        QTest::newRow("error") << QStringLiteral("render_report") << QStringLiteral("error") << StepStatus::Failed;
        QTest::newRow("wait bound") << QStringLiteral("ask_bounded") << QStringLiteral("wait") << StepStatus::Failed;
        QTest::newRow("total timeout") << QStringLiteral("ask_total") << QStringLiteral("wait") << StepStatus::Failed;
        QTest::newRow("cancelled") << QStringLiteral("render_report") << QStringLiteral("cancel")
                                   << StepStatus::Cancelled;
    }

    /// A slot of pendingCallClosed reads the step's new status, not 'waiting'.
    void pendingCallClosedAfterTheStatus()
    {
        QFETCH(QString, tool);
        QFETCH(QString, how);
        QFETCH(StepStatus, expected);
        json manifest = baseManifest();
        manifest["tools"].push_back(json::parse(J("{'name': 'ask_total', 'handler': {'kind': 'manual'},"
                                                  " 'retry': {'total_timeout_seconds': 0.2}}")));
        Harness h;
        QVERIFY(h.setUp(manifest));
        std::vector<StepStatus> seen;
        QObject::connect(h.engine.get(), &StepEngine::pendingCallClosed, h.engine.get(),
                         [&h, &seen](const QString &id) { seen.push_back(h.engine->step(id)->status); });
        h.call("c1", tool.toUtf8().constData(), {{"topic", "sales"}});
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        ManualAnswer answer;
        answer.result = "https://reports.example/sales.pdf";
        answer.isError = how == QLatin1String("retry") || how == QLatin1String("error");
        answer.message = QStringLiteral("renderer busy");
        answer.retryable = how == QLatin1String("retry");
        if (how == QLatin1String("cancel"))
            h.engine->cancelAll(QStringLiteral("the run was stopped"));
        else if (how != QLatin1String("wait"))
            QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, answer));
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), std::size_t(1), 3000);
        QCOMPARE(seen.front(), expected);
        QCOMPARE(h.step("c1").status, expected);
    }

    void manualNonRetryableError()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "sales"}});
        ManualAnswer answer;
        answer.isError = true;
        answer.message = QStringLiteral("no data for that topic");
        QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, answer));
        QCOMPARE(errorOf(h.reply("c1")).dump(),
                 J("{'attempts':1,'code':'tool_failed','message':'no data for that topic','retryable':false}"));
    }

    void personsWaitBound()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "ask_bounded");
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 3000);
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'bound':'wait','code':'timeout','message':'no answer from a person to attempt 1 within 0.2 s"
              " (the wait bound for a person, attempt_timeout_seconds = 0.2)','retryable':true,'seconds':0.2}"));
        QCOMPARE(h.closed, QStringList{QStringLiteral("c1")});
        const auto events = h.journal.events(QStringLiteral("run-1"));
        QVERIFY(!events.empty());
        QCOMPARE(policyEventKindName(events.front().kind), QStringLiteral("timeout"));
        QCOMPARE(events.front().detail.value("bound", ""), std::string("wait"));
    }

    void staleAnswers_data()
    {
        QTest::addColumn<QString>("setup"); // what happened before the answer
        QTest::addColumn<QString>("callId");
        QTest::addColumn<int>("attempt");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown call") << QString() << QStringLiteral("zz") << 1
                                      << QStringLiteral("no call with id 'zz'");
        QTest::newRow("future attempt") << QString() << QStringLiteral("c1") << 2
                                        << QStringLiteral("answer is for attempt 2 but the call is at attempt 1");
        QTest::newRow("attempt 0") << QString() << QStringLiteral("c1") << 0
                                   << QStringLiteral("answer is for attempt 0 but the call is at attempt 1");
        QTest::newRow("already answered (retrying)") << QStringLiteral("retry") << QStringLiteral("c1") << 1
                                                     << QStringLiteral("attempt 1 of call 'c1' was already answered");
        QTest::newRow("old attempt") << QStringLiteral("retry-wait") << QStringLiteral("c1") << 1
                                     << QStringLiteral("answer is for attempt 1 but the call is at attempt 2");
        QTest::newRow("finished step") << QStringLiteral("answer") << QStringLiteral("c1") << 1
                                       << QStringLiteral("call 'c1' already finished (succeeded)");
        QTest::newRow("cancelled step") << QStringLiteral("cancel") << QStringLiteral("c1") << 1
                                        << QStringLiteral("call 'c1' already finished (cancelled)");
        QTest::newRow("not a manual call") << QStringLiteral("mock") << QStringLiteral("c2") << 1
                                           << QStringLiteral("call 'c2' is not waiting for a person (running)");
    }

    void staleAnswers()
    {
        QFETCH(QString, setup);
        QFETCH(QString, callId);
        QFETCH(int, attempt);
        QFETCH(QString, reason);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "q3"}});
        ManualAnswer ok;
        ok.result = "done";
        ManualAnswer retry;
        retry.isError = true;
        retry.message = QStringLiteral("busy");
        retry.retryable = true;
        if (setup == QLatin1String("retry") || setup == QLatin1String("retry-wait")) {
            QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, retry));
            if (setup == QLatin1String("retry-wait"))
                QTRY_COMPARE(h.step("c1").status, StepStatus::Waiting);
        } else if (setup == QLatin1String("answer")) {
            QVERIFY(h.engine->answer(QStringLiteral("c1"), 1, ok));
        } else if (setup == QLatin1String("cancel")) {
            h.engine->cancelAll(QStringLiteral("stopped"));
        } else if (setup == QLatin1String("mock")) {
            h.call("c2", "slowish");
        }
        const Step before = h.step(callId.toLatin1().constData());
        const std::size_t repliesBefore = h.replies.size();
        QElapsedTimer clock;
        clock.start();
        QString why;
        QVERIFY(!h.engine->answer(callId, attempt, ok, &why));
        QVERIFY(clock.elapsed() < 100); // refused at once, never hangs
        QCOMPARE(why, reason);
        // …and changes nothing.
        const Step &after = h.step(callId.toLatin1().constData());
        QCOMPARE(after.status, before.status);
        QCOMPARE(after.attempts.size(), before.attempts.size());
        QCOMPARE(h.replies.size(), repliesBefore);
    }

    void answerFromAnotherProcess()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "q3"}});
        Journal other; // `toolstudio answer` in another process
        QVERIFY(other.open(h.journal.path()));
        PendingAnswer stale;
        stale.runId = QStringLiteral("run-1");
        stale.callId = QStringLiteral("c1");
        stale.attempt = 2;
        stale.answer.result = "too early";
        const qint64 staleId = other.addPendingAnswer(stale);
        PendingAnswer good = stale;
        good.attempt = 1;
        good.answer.result = "https://r/q3";
        const qint64 goodId = other.addPendingAnswer(good);
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 2000);
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':'https://r/q3'}"));
        QCOMPARE(other.pendingAnswer(staleId)->state, QStringLiteral("refused"));
        QCOMPARE(other.pendingAnswer(staleId)->reason,
                 QStringLiteral("answer is for attempt 2 but the call is at attempt 1"));
        QCOMPARE(other.pendingAnswer(goodId)->state, QStringLiteral("accepted"));
    }
};

QTEST_GUILESS_MAIN(TestStepEngineManual)
#include "tst_stepenginemanual.moc"
