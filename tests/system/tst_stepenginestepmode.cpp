// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Steps held for a person: step mode (continue, answer instead, fail, time out, continue
// to the end), tool approval with edited arguments, held model steps run with edited
// messages or answered instead, and a held step's duration leaving the hold out.
#include "bridgemessage.h"
#include "engine/stepengine.h"
#include "stepengineharness.h"

#include <QDateTime>
#include <QTest>

#include <algorithm>
#include <vector>

using json = nlohmann::json;

namespace {

/// A step_decision event's detail without how long the step was held (`held_ms`,
/// `queued_at_before`: times of the run, checked in heldStepsDurationLeavesOutTheHold).
json withoutHold(json detail)
{
    detail.erase("held_ms");
    detail.erase("queued_at_before");
    return detail;
}

} // namespace

class TestStepEngineStepMode : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stepMode_data()
    {
        QTest::addColumn<QString>("decision");
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("status");
        QTest::newRow("continue") << QStringLiteral("continue") << QByteArray("{'id':'c1','type':'result','value':1}")
                                  << int(StepStatus::Succeeded);
        QTest::newRow("answer instead") << QStringLiteral("answer")
                                        << QByteArray("{'id':'c1','type':'result','value':99}")
                                        << int(StepStatus::Succeeded);
        QTest::newRow("fail, retryable")
            << QStringLiteral("fail")
            << QByteArray(
                   "{'error':{'attempts':1,'code':'tool_failed','message':'nope','retryable':true},'id':'c1','type':'error'}")
            << int(StepStatus::Failed);
        QTest::newRow("time out")
            << QStringLiteral("timeout")
            << QByteArray(
                   "{'error':{'attempts':1,'bound':'injected','code':'timeout','message':'timed out by hand in step mode"
                   " (injected timeout; the handler did not run)','retryable':true},'id':'c1','type':'error'}")
            << int(StepStatus::Failed);
        QTest::newRow("continue to end") << QStringLiteral("end") << QByteArray("{'id':'c1','type':'result','value':1}")
                                         << int(StepStatus::Succeeded);
    }

    void stepMode()
    {
        QFETCH(QString, decision);
        QFETCH(QByteArray, reply);
        QFETCH(int, status);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.engine->setStepMode(true);
        h.call("c1", "counter", {{"n", 1}});
        QCOMPARE(h.paused, QStringList{QStringLiteral("c1")});
        QCOMPARE(h.step("c1").status, StepStatus::Queued);
        QVERIFY(h.step("c1").paused);
        QCOMPARE(h.engine->pausedCount(), 1);
        QTest::qWait(50);
        QVERIFY(h.replies.empty());                                                // held: the handler has not run
        QCOMPARE(h.journal.steps(QStringLiteral("run-1")).size(), std::size_t(1)); // recorded before anything runs
        QString reason;
        ManualAnswer answer;
        if (decision == QLatin1String("continue")) {
            QVERIFY(h.engine->continueStep(QStringLiteral("c1"), &reason));
        } else if (decision == QLatin1String("answer")) {
            answer.result = 99;
            QVERIFY(h.engine->answerStep(QStringLiteral("c1"), answer, &reason));
        } else if (decision == QLatin1String("fail")) {
            answer.isError = true;
            answer.message = QStringLiteral("nope");
            answer.retryable = true;
            QVERIFY(h.engine->answerStep(QStringLiteral("c1"), answer, &reason));
        } else if (decision == QLatin1String("timeout")) {
            QVERIFY(h.engine->timeOutStep(QStringLiteral("c1"), &reason));
        } else {
            h.engine->continueToEnd();
        }
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.dump(), J(reply.constData()));
        QCOMPARE(int(h.step("c1").status), status);
        QCOMPARE(h.engine->pausedCount(), 0);
        QVERIFY(!h.engine->continueStep(QStringLiteral("c1"), &reason));
        QVERIFY(reason.startsWith(QStringLiteral("call 'c1' is not held in step mode")));
        // The next call is held again, unless the run continues to the end.
        h.call("c2", "counter", {{"n", 2}});
        QCOMPARE(h.engine->pausedCount(), decision == QLatin1String("end") ? 0 : 1);
    }

    /// Tool approval holds only the calls a handler would run; a held call may run
    /// with edited arguments, checked against input_schema, the script's kept.
    void approvalHoldsHandlerCallsAndRunsEditedArguments()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.engine->setApprovesToolCalls(true);
        h.call("c1", "render_report", {{"topic", "q3"}}); // manual: a person answers it anyway
        h.call("c2", "counter", {{"n", 1}});
        QCOMPARE(h.paused, QStringList{QStringLiteral("c2")});
        QVERIFY(!h.step("c1").paused);
        QCOMPARE(h.engine->pausedCount(), 1);

        QString reason;
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("c2"), {{"n", "two"}}, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited arguments do not match input_schema at /n: expected integer, got string"));
        QVERIFY(h.step("c2").paused); // still held
        QVERIFY(h.engine->continueStepWith(QStringLiteral("c2"), {{"n", 2}}, &reason));
        QTRY_VERIFY(h.reply("c2"));
        QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':1}"));
        h.engine->flush();
        const std::vector<Step> steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.at(1).args.dump(), J("{'n':2}"));
        QCOMPARE(steps.at(1).originalArgs->dump(), J("{'n':1}"));
        // The identity stays the script's call: a resume of the same script finds it.
        QCOMPARE(steps.at(1).argsHash, StepEngine::argsHash({{"n", 1}}));
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        QCOMPARE(withoutHold(decision->detail).dump(),
                 J("{'decision':'continue','edited_args':{'n':2},'original_args':{'n':1}}"));

        h.engine->setApprovesToolCalls(false);
        h.call("c3", "counter", {{"n", 3}});
        QCOMPARE(h.engine->pausedCount(), 0);
    }

    /// Edited arguments are the call's now: a strict-mode null the model sent and the
    /// person filled in reaches the handler (it was left out by the model's name), a null
    /// the person leaves is left out as at admission, and the request cap holds.
    void approvalEditedArgumentsReplaceTheNullsLeftOut()
    {
        json manifest = baseManifest();
        manifest["limits"] = {{"request_bytes", 64}};
        manifest["tools"].push_back(commandTool(
            "echo_args", {"sh", "-c", "cat"},
            "{'input_schema': {'type': 'object', 'properties': {'q': {'type': 'string'}, 'n': {'type': 'integer',"
            " 'default': 3}}, 'required': ['q'], 'additionalProperties': false}}"));
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.engine->setApprovesToolCalls(true);
        h.call("c1", "echo_args", json::parse(J("{'q': 'tea', 'n': null}")));
        h.call("c2", "echo_args", json::parse(J("{'q': 'tea'}")));
        QCOMPARE(h.paused, (QStringList{QStringLiteral("c1"), QStringLiteral("c2")}));

        QString reason;
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("c1"), {{"q", std::string(80, 'x')}}, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited arguments are 88 bytes; the request limit is 64 bytes "
                                "(limits.request_bytes)"));
        QVERIFY(h.step("c1").paused);
        QVERIFY(h.engine->continueStepWith(QStringLiteral("c1"), json::parse(J("{'q': 'tea', 'n': 7}")), &reason));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        QCOMPARE(QString::fromStdString(h.reply("c1")->message.dump()),
                 QString::fromStdString(J("{'id':'c1','type':'result','value':{'n':7,'q':'tea'}}")));

        QVERIFY(h.engine->continueStepWith(QStringLiteral("c2"), json::parse(J("{'q': 'milk', 'n': null}")), &reason));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c2"), 10000);
        QCOMPARE(QString::fromStdString(h.reply("c2")->message.dump()),
                 QString::fromStdString(J("{'id':'c2','type':'result','value':{'q':'milk'}}")));
    }

    /// A model step held in step mode goes with the messages the person edited, checked
    /// as the script's request is (shape, non-empty, limits.model_request_bytes); the
    /// script's request stays the original and the step's identity (docs/models.md).
    void heldModelStepRunsEditedMessages()
    {
        json manifest = baseManifest();
        manifest["models"] = json::parse(J("[{'name': 'scripted', 'provider': 'mock', 'turns': [{'content': 'hi'}]}]"));
        manifest["limits"] = {{"model_request_bytes", 200}};
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.engine->setStepMode(true);
        BridgeCall call;
        call.kind = BridgeCall::Kind::Model;
        call.id = "m1";
        call.tool = "scripted";
        call.args = json::parse(J("{'messages': [{'role': 'user', 'content': 'Hello?'}], 'tools': 'none'}"));
        call.argsBytes = call.args.dump().size();
        h.engine->submitCall(call);
        QCOMPARE(h.paused, QStringList{QStringLiteral("m1")});

        QString reason;
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("m1"), json::array(), &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited messages cannot be sent: 'messages' is empty; give at least one user "
                                "message"));
        QVERIFY(!h.engine->continueStepWith(QStringLiteral("m1"), json::parse(J("[{'role': 'tool', 'content': 'x'}]")),
                                            &reason));
        QCOMPARE(reason,
                 QStringLiteral("the edited messages cannot be sent: messages[0]: a 'tool' message needs "
                                "'tool_call_id' (the id of the call it answers)"));
        QVERIFY(!h.engine->continueStepWith(
            QStringLiteral("m1"), json::array({{{"role", "user"}, {"content", std::string(200, 'x')}}}), &reason));
        QCOMPARE(reason,
                 QStringLiteral("the request with the edited messages is 273 bytes; the limit is 200 bytes "
                                "(limits.model_request_bytes)"));
        QVERIFY(h.step("m1").paused); // still held

        const json edited = json::parse(J("[{'role': 'user', 'content': 'Hello, edited?'}]"));
        QVERIFY2(h.engine->continueStepWith(QStringLiteral("m1"), edited, &reason), qPrintable(reason));
        QTRY_VERIFY(h.reply("m1"));
        QCOMPARE(h.reply("m1")->message.value("type", ""), std::string("result"));
        h.engine->flush();
        const std::vector<Step> steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.at(0).tool, QStringLiteral("model:scripted"));
        QCOMPARE(steps.at(0).args.dump(),
                 J("{'messages':[{'content':'Hello, edited?','role':'user'}],'model':'scripted','tools':[]}"));
        QCOMPARE(steps.at(0).originalArgs->dump(),
                 J("{'messages':[{'content':'Hello?','role':'user'}],'model':'scripted','tools':[]}"));
        QCOMPARE(steps.at(0).argsHash, StepEngine::argsHash(*steps.at(0).originalArgs));
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        QCOMPARE(withoutHold(decision->detail).dump(),
                 J("{'decision':'continue','edited_args':{'messages':[{'content':'Hello, edited?','role':'user'}],"
                   "'model':'scripted','tools':[]},'original_args':{'messages':[{'content':'Hello?','role':'user'}],"
                   "'model':'scripted','tools':[]}}"));
    }

    /// Answer Instead on a held model step takes a reply in the turn shape a `manual`
    /// model's person writes (the composer's), checked as that turn is: a call of a tool
    /// the request did not offer is refused and the step stays held; an accepted reply
    /// is the step's result, journaled with the person's decision ("answer").
    void heldModelStepAnsweredInstead()
    {
        json manifest = baseManifest();
        manifest["models"] = json::parse(J("[{'name': 'scripted', 'provider': 'mock', 'turns': [{'content': 'hi'}]}]"));
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.engine->setStepMode(true);
        BridgeCall call;
        call.kind = BridgeCall::Kind::Model;
        call.id = "m1";
        call.tool = "scripted";
        call.args = json::parse(J("{'messages': [{'role': 'user', 'content': '2 rates?'}], 'tools': ['counter']}"));
        call.argsBytes = call.args.dump().size();
        h.engine->submitCall(call);
        QCOMPARE(h.paused, QStringList{QStringLiteral("m1")});

        QString reason;
        ManualAnswer answer;
        answer.result = json::parse(J("{'tool_calls': [{'name': 'lookup', 'arguments': {}}]}"));
        QVERIFY(!h.engine->answerStep(QStringLiteral("m1"), answer, &reason));
        QCOMPARE(reason,
                 QStringLiteral("the model reply: tool_calls[0] calls \"lookup\", which the model was not offered "
                                "(offered: counter)"));
        answer.result = json::parse(J("{'tool_calls': [{'name': 'counter', 'arguments': 5}]}"));
        QVERIFY(!h.engine->answerStep(QStringLiteral("m1"), answer, &reason));
        QVERIFY2(reason.startsWith(QStringLiteral("the model reply")), qPrintable(reason));
        // Two calls of one id: their results could not be told apart.
        answer.result
            = json::parse(J("{'tool_calls': [{'id': 'a', 'name': 'counter'}, {'id': 'a', 'name': 'counter'}]}"));
        QVERIFY(!h.engine->answerStep(QStringLiteral("m1"), answer, &reason));
        QCOMPARE(
            reason,
            QStringLiteral("the model reply: tool_calls[1]: 'id' \"a\" is the id of tool_calls[0] too; give each "
                           "call its own id, or leave 'id' out and one is made (a reply is {\"content\": \"text\"} "
                           "and/or {\"tool_calls\": [{\"name\": \"tool\", \"arguments\": {…}}]})"));
        QVERIFY(h.step("m1").paused); // still held

        answer.result
            = json::parse(J("{'content': 'Two calls.', 'tool_calls': [{'name': 'counter', 'arguments': {'n': 2}}]}"));
        QVERIFY2(h.engine->answerStep(QStringLiteral("m1"), answer, &reason), qPrintable(reason));
        QTRY_VERIFY(h.reply("m1"));
        h.engine->flush();
        const std::vector<Step> steps = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(steps.at(0).status, StepStatus::Succeeded);
        QCOMPARE(QString::fromStdString(steps.at(0).result->dump()),
                 QString::fromStdString(J(
                     "{'message':{'content':'Two calls.','role':'assistant','tool_calls':[{'function':{'arguments':"
                     "'{\\'n\\':2}','name':'counter'},'id':'call_1_1','type':'function'}]},'stop_reason':'tool_calls',"
                     "'usage':{'input_tokens':0,'output_tokens':0}}")));
        QCOMPARE(h.reply("m1")->message.at("value").dump(), steps.at(0).result->dump());
        QCOMPARE(steps.at(0).attempts.size(), std::size_t(1));
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        QCOMPARE(withoutHold(decision->detail).dump(), J("{'decision':'answer','ok':true}"));
        // Answered at its release: the attempt starts and ends when the step was decided.
        QCOMPARE(steps.at(0).attempts.at(0).startedAt, steps.at(0).queuedAt);
        QCOMPARE(steps.at(0).attempts.at(0).endedAt, steps.at(0).queuedAt);
    }

    /// A held step's duration counts from its release: its queued_at moves to the
    /// decision, which records how long it was held and when it was queued; the same
    /// for a continued tool call and an answered one.
    void heldStepsDurationLeavesOutTheHold_data()
    {
        QTest::addColumn<bool>("answer");
        QTest::newRow("continue") << false;
        QTest::newRow("answer instead") << true;
    }

    void heldStepsDurationLeavesOutTheHold()
    {
        QFETCH(bool, answer);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.engine->setStepMode(true);
        h.call("c1", "counter", {{"n", 1}});
        QCOMPARE(h.paused, QStringList{QStringLiteral("c1")});
        const qint64 queued = h.step("c1").queuedAt;
        QVERIFY(queued > 0);
        // Held for a while (the clock has moved on; no assertion on how long that took).
        QTRY_VERIFY(QDateTime::currentMSecsSinceEpoch() >= queued + 40);
        QString reason;
        if (answer) {
            ManualAnswer manual;
            manual.result = 7;
            QVERIFY(h.engine->answerStep(QStringLiteral("c1"), manual, &reason));
        } else {
            QVERIFY(h.engine->continueStep(QStringLiteral("c1"), &reason));
        }
        QTRY_VERIFY(h.reply("c1"));
        h.engine->flush();
        const Step step = h.journal.steps(QStringLiteral("run-1")).at(0);
        const std::vector<PolicyEvent> events = h.journal.events(QStringLiteral("run-1"));
        const auto decision = std::find_if(
            events.begin(), events.end(), [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepDecision; });
        QVERIFY(decision != events.end());
        const qint64 held = decision->detail.at("held_ms").get<qint64>();
        QCOMPARE(decision->detail.at("queued_at_before").get<qint64>(), queued);
        QVERIFY2(held >= 40, qPrintable(QString::number(held)));
        // The step's queue time is its release; its duration leaves the hold out.
        QCOMPARE(step.queuedAt, queued + held);
        QCOMPARE(step.durationMs(), step.endedAt - (queued + held));
        // The hold is journaled for the timeline's waiting segment: from the old queue time.
        QCOMPARE(step.heldAt, queued);
        QVERIFY(step.attempts.at(0).startedAt >= step.queuedAt);
        QVERIFY(decision->at >= step.queuedAt);
        const auto paused = std::find_if(events.begin(), events.end(),
                                         [](const PolicyEvent &e) { return e.kind == PolicyEventKind::StepPaused; });
        QVERIFY(paused != events.end());
        QVERIFY(paused->at >= queued && paused->at <= step.queuedAt);
    }
};

QTEST_GUILESS_MAIN(TestStepEngineStepMode)
#include "tst_stepenginestepmode.moc"
