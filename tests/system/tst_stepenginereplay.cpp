// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A run played against a recorded one: replay memoizes and flags a divergence, resume
// matches calls by identity and reopens the open call, a rerun from a step with edited
// arguments, a cassette played offline.
#include "engine/stepengine.h"
#include "stepengineharness.h"

#include <QDateTime>
#include <QFile>
#include <QTest>

#include <optional>

using json = nlohmann::json;

namespace {

/// The end of every divergence message: the matching rule and the likely reason.
const QString RuleText = QStringLiteral(
    "Calls are matched by tool, arguments and the number of identical calls before them, not by arrival order, so a "
    "script whose arguments depend on completion order (or on time, randomness or changed input) diverges");

} // namespace

class TestStepEngineReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void replayMemoizesAndFlagsDivergence()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        // The recorded run: two identical calls, then a third.
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "counter", {{"n", 1}});
        h.call("c3", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QTRY_COMPARE(h.replies.size(), std::size_t(3));
        h.engine->flush();
        ReplayPlan plan;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(plan.steps[0].argsHash, StepEngine::argsHash({{"n", 1}}));

        // The changed script: the same two calls, then a different third one.
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "counter", {{"n", 1}});
        // Answered from the journal on this turn of the event loop, two steps (never
        // collapsed), handler not run.
        QTRY_COMPARE(h.replies.size(), std::size_t(2));
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':1}"));
        QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':2}"));
        QCOMPARE(h.step("c1").status, StepStatus::Memoized);
        QCOMPARE(h.step("c2").status, StepStatus::Memoized);
        QCOMPARE(h.step("c2").sequence, 2);
        QVERIFY(h.engine->isReplaying());
        h.call("c3", "get_exchange_rate", {{"base", "USD"}, {"quote", "GBP"}});
        QVERIFY(!h.engine->isReplaying());
        QCOMPARE(h.divergences.size(), 1);
        QCOMPARE(h.step("c3").divergence,
                 QStringLiteral("step 3: expected get_exchange_rate({\"base\":\"USD\",\"quote\":\"EUR\"}), "
                                "got get_exchange_rate({\"base\":\"USD\",\"quote\":\"GBP\"}); no recorded call "
                                "has this tool and these arguments. ")
                     + RuleText);
        QTRY_VERIFY(h.reply("c3"));
        QCOMPARE(h.step("c3").status, StepStatus::Succeeded); // ran for real
        // Everything after the divergence runs for real, even a call that would match.
        h.call("c4", "counter", {{"n", 1}});
        QTRY_VERIFY(h.reply("c4"));
        QCOMPARE(h.step("c4").status, StepStatus::Succeeded);
        h.engine->flush();
        const auto journaled = h.journal.steps(QStringLiteral("run-2"));
        QCOMPARE(journaled.size(), std::size_t(4));
        QCOMPARE(journaled[0].status, StepStatus::Memoized);
        QCOMPARE(journaled[2].divergence, h.step("c3").divergence);
        QCOMPARE(policyEventKindName(h.journal.events(QStringLiteral("run-2"))[0].kind), QStringLiteral("divergence"));
        QCOMPARE(h.journal.events(QStringLiteral("run-2"))[0].sequence, 3);
    }

    void replayOfExtraCallIsADivergence()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "fast");
        QTRY_VERIFY(h.reply("c1"));
        ReplayPlan plan;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "fast");
        h.call("c2", "fast");
        QCOMPARE(h.step("c2").divergence,
                 QStringLiteral("step 2: fast({}) is a call the recorded run did not make (it made 1 call(s)); the "
                                "recorded run made this call (same tool and arguments) only 1 time(s). ")
                     + RuleText);
    }

    /// The divergence message previews the arguments in 120 characters, cut on a
    /// character (never half a surrogate pair) and saying how many bytes were dropped.
    void divergencePreviewIsClippedOnACharacter()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "fast");
        QTRY_VERIFY(h.reply("c1"));
        ReplayPlan plan;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        QString emoji;
        for (int i = 0; i < 100; ++i)
            emoji += QStringLiteral("\U0001F600");
        h.call("c1", "fast", {{"text", emoji.toStdString()}});
        // {"text":" is 9 characters; 55 emoji (110 UTF-16 units) fit before 120, the 56th
        // would be cut in half: 45 emoji (4 bytes each) and "} are dropped.
        QCOMPARE(h.step("c1").divergence,
                 QStringLiteral("step 1: expected fast({}), got fast({\"text\":\"") + emoji.left(110)
                     + QStringLiteral("… (182 bytes dropped)); no recorded call has this tool and these arguments. ")
                     + RuleText);
    }

    void resumeReopensTheOpenCall()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "counter", {{"n", 7}});
        QTRY_VERIFY(h.reply("c1"));
        h.call("c2", "render_report", {{"topic", "q3"}});
        QCOMPARE(h.opened, QStringList{QStringLiteral("c2")});
        // The studio dies while c2 waits: the engine goes without a word.
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Resume;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(plan.steps[1].status, StepStatus::Waiting);

        h.newEngine(QStringLiteral("run-1"), {}, plan);
        h.call("c1", "counter", {{"n", 7}});
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.dump(), J("{'id':'c1','type':'result','value':1}"));
        h.call("c2", "render_report", {{"topic", "q3"}});
        // Pending again under the same call id and attempt; the key is unchanged.
        QCOMPARE(h.opened, QStringList{QStringLiteral("c2")});
        QCOMPARE(h.step("c2").status, StepStatus::Waiting);
        QCOMPARE(h.step("c2").attempts.size(), std::size_t(1));
        QCOMPARE(h.step("c2").sequence, 2);
        QCOMPARE(h.step("c2").idempotencyKey, keyOf("run-1", "render_report", {{"topic", "q3"}}));
        ManualAnswer answer;
        answer.result = "https://r/q3";
        QString reason;
        QVERIFY2(h.engine->answer(QStringLiteral("c2"), 1, answer, &reason), qPrintable(reason));
        QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':'https://r/q3'}"));
        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(2));
        QCOMPARE(journaled[0].status, StepStatus::Succeeded); // the recorded row is kept as it was
        QCOMPARE(journaled[1].status, StepStatus::Succeeded);
    }

    // Resume by identity (docs/steps.md "Call identity"): calls arriving in another
    // order than recorded are memoized under their recorded numbers, a call the run had
    // not made runs for real without ending memoization, the open call reopens under
    // its own number, and memoized replies of one turn go out in the recorded
    // completion order.
    void resumeMatchesCallsInAnyOrder()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "counter", {{"n", 1}});              // recorded 1, finishes last of the three
        h.call("c2", "counter", {{"n", 2}});              // recorded 2
        h.call("c3", "render_report", {{"topic", "q3"}}); // recorded 3: open
        QTRY_COMPARE(h.replies.size(), std::size_t(2));
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Resume;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(plan.steps.size(), std::size_t(3));
        plan.steps[0].endedAt = plan.steps[1].endedAt + 1; // c1 completed after c2

        h.newEngine(QStringLiteral("run-1"), {}, plan);
        h.call("d1", "slowish", {{"new", true}});         // not recorded: runs, gets number 4
        h.call("d2", "render_report", {{"topic", "q3"}}); // the open call: number 3 again
        h.call("d3", "counter", {{"n", 1}});              // memoized, number 1
        h.call("d4", "counter", {{"n", 2}});              // memoized, number 2
        QCOMPARE(h.step("d1").sequence, 4);
        QCOMPARE(h.step("d1").status, StepStatus::Running);
        QCOMPARE(h.step("d2").sequence, 3);
        QCOMPARE(h.step("d2").status, StepStatus::Waiting);
        QCOMPARE(h.step("d3").sequence, 1);
        QCOMPARE(h.step("d3").status, StepStatus::Memoized);
        QCOMPARE(h.step("d4").sequence, 2);
        QCOMPARE(h.step("d4").status, StepStatus::Memoized);
        QCOMPARE(h.engine->stepBySequence(2)->callId, QStringLiteral("d4"));
        QCOMPARE(h.engine->stepBySequence(4)->callId, QStringLiteral("d1"));
        QCOMPARE(h.divergences.size(), 0);
        QCOMPARE(h.step("d3").idempotencyKey, plan.steps[0].idempotencyKey);
        QCOMPARE(h.step("d2").idempotencyKey, plan.steps[2].idempotencyKey);
        // Both memoized replies in this turn: c2's recorded end came first.
        QTRY_COMPARE(h.replies.size(), std::size_t(2));
        QCOMPARE(h.replies[0].id, std::string("d4"));
        QCOMPARE(h.replies[1].id, std::string("d3"));
        QTRY_VERIFY(h.reply("d1"));
        h.engine->flush();
        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(4)); // each step once, under its number
        QCOMPARE(journaled[2].callId, QStringLiteral("d2"));
        QCOMPARE(journaled[3].callId, QStringLiteral("d1"));
    }

    // The open call of a resumed run counts from the resume: the hour the run spent
    // suspended is not in its duration; the recorded queue time is in the resumed event.
    void resumedCallsDurationLeavesOutTheSuspension()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "q3"}});
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Resume;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        const qint64 hourAgo = QDateTime::currentMSecsSinceEpoch() - 3600 * 1000;
        plan.steps[0].queuedAt = hourAgo; // queued, then suspended for an hour

        h.newEngine(QStringLiteral("run-1"), {}, plan);
        const qint64 resumedAt = QDateTime::currentMSecsSinceEpoch();
        h.call("c1", "render_report", {{"topic", "q3"}});
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
        ManualAnswer answer;
        answer.result = "https://r/q3";
        QString reason;
        QVERIFY2(h.engine->answer(QStringLiteral("c1"), 1, answer, &reason), qPrintable(reason));
        h.engine->flush();
        const Step step = h.step("c1");
        QVERIFY2(step.queuedAt >= resumedAt, qPrintable(QString::number(step.queuedAt - resumedAt)));
        QCOMPARE(step.durationMs(), step.endedAt - step.queuedAt);
        QVERIFY2(step.durationMs() < 3600 * 1000, qPrintable(QString::number(step.durationMs())));
        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled[0].queuedAt, step.queuedAt);
        std::optional<PolicyEvent> resumed;
        for (const PolicyEvent &event : h.journal.events(QStringLiteral("run-1")))
            if (policyEventKindName(event.kind) == QLatin1String("resumed"))
                resumed = event;
        QVERIFY(resumed);
        QCOMPARE(resumed->detail.value("queued_at_before", qint64(0)), hourAgo);
        QCOMPARE(
            QString::fromStdString(resumed->detail.value("text", std::string())),
            QStringLiteral("pending again from the resume; first queued %1 s before it, its duration counts from here")
                .arg(double(step.queuedAt - hourAgo) / 1000.0, 0, 'f', 1));
    }

    void rerunFromStepWithEditedArgs()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        h.call("c3", "counter", {{"n", 3}});
        QTRY_COMPARE(h.replies.size(), std::size_t(3));
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Rerun;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        plan.rerunFrom = 2;
        plan.editedArgs = json{{"base", "USD"}, {"quote", "CHF"}};
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "counter", {{"n", 1}});
        h.call("c2", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QCOMPARE(h.step("c1").status, StepStatus::Memoized);
        QCOMPARE(h.step("c2").args.dump(), J("{'base':'USD','quote':'CHF'}"));
        QCOMPARE(h.step("c2").originalArgs->dump(), J("{'base':'USD','quote':'EUR'}"));
        QTRY_VERIFY(h.reply("c2"));
        QCOMPARE(h.step("c2").status, StepStatus::Succeeded);
        h.call("c3", "counter", {{"n", 3}});
        QTRY_VERIFY(h.reply("c3"));
        QCOMPARE(h.step("c3").status, StepStatus::Succeeded); // after the chosen step: real
        h.engine->flush();
        QCOMPARE(h.journal.steps(QStringLiteral("run-2"))[1].originalArgs->dump(), J("{'base':'USD','quote':'EUR'}"));
    }

    void cassetteIsOffline()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "lookup", {{"base", "USD"}});
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        h.engine->flush();
        ReplayPlan plan;
        plan.mode = ReplayPlan::Mode::Cassette;
        plan.offline = true;
        plan.steps = h.journal.steps(QStringLiteral("run-1"));
        QFile::remove(h.dir.filePath(QStringLiteral("tools/lookup.sh"))); // the real tool is gone
        h.newEngine(QStringLiteral("run-2"), {}, plan);
        h.call("c1", "lookup", {{"base", "USD"}});
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.dump(),
                 json({{"id", "c1"},
                       {"type", "result"},
                       {"value", {{"attempt", 3}, {"key", keyOf("run-1", "lookup", {{"base", "USD"}}).toStdString()}}}})
                     .dump());
        h.call("c2", "lookup", {{"base", "EUR"}});
        QCOMPARE(h.divergences.size(), 1);
        QCOMPARE(errorOf(h.reply("c2")).value("message", ""),
                 std::string("offline: this call is not in the cassette (no real tool runs against a cassette)"));
    }
};

QTEST_GUILESS_MAIN(TestStepEngineReplay)
#include "tst_stepenginereplay.moc"
