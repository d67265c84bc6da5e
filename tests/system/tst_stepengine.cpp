// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A call's way through the step engine: what it refuses at once (unknown, inactive,
// unbound, invalid, over a limit, a call id in flight), what it leaves out (a strict-mode
// null), results over the reply limit or against output_schema, calls in flight
// together, and the commit path (a reply goes out only once its step is journaled).
#include "engine/stepengine.h"
#include "journal/journal.h"
#include "journal/journaltail.h"
#include "stepengineharness.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using json = nlohmann::json;

class TestStepEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusedCalls_data()
    {
        QTest::addColumn<QByteArray>("tool");
        QTest::addColumn<QByteArray>("args");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("pointer");

        QTest::newRow("unknown tool") << QByteArray("nope") << QByteArray("{}") << QStringLiteral("unknown_tool")
                                      << QStringLiteral("no tool named 'nope' in this project") << QString();
        QTest::newRow("inactive tool") << QByteArray("retired") << QByteArray("{}") << QStringLiteral("inactive_tool")
                                       << QStringLiteral("tool 'retired' is inactive") << QString();
        QTest::newRow("missing required")
            << QByteArray("counter") << QByteArray("{}") << QStringLiteral("invalid_arguments")
            << QStringLiteral("invalid arguments for 'counter' at /n: required property is missing")
            << QStringLiteral("/n");
        QTest::newRow("wrong type") << QByteArray("counter") << QByteArray("{\"n\": \"1\"}")
                                    << QStringLiteral("invalid_arguments")
                                    << QStringLiteral(
                                           "invalid arguments for 'counter' at /n: expected integer, got string")
                                    << QStringLiteral("/n");
        QTest::newRow("too many positional")
            << QByteArray("counter") << QByteArray("[1, 2]") << QStringLiteral("invalid_arguments")
            << QStringLiteral(
                   "invalid arguments for 'counter' at /1: takes 1 positional argument(s) (n) but 2 were given")
            << QStringLiteral("/1");
        QTest::newRow("not an object") << QByteArray("counter") << QByteArray("\"five\"")
                                       << QStringLiteral("invalid_arguments")
                                       << QStringLiteral("invalid arguments for 'counter': expected object, got string")
                                       << QString();
    }

    void refusedCalls()
    {
        QFETCH(QByteArray, tool);
        QFETCH(QByteArray, args);
        QFETCH(QString, code);
        QFETCH(QString, message);
        QFETCH(QString, pointer);
        Harness h;
        QVERIFY(h.setUp(baseManifest()));

        h.call("c1", tool.constData(), json::parse(args.constData()));
        // Refusals are replied at once, without a handler.
        QCOMPARE(h.replies.size(), std::size_t(1));
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(QString::fromStdString(error.value("code", "")), code);
        QCOMPARE(QString::fromStdString(error.value("message", "")), message);
        QCOMPARE(error.value("retryable", true), false);
        QCOMPARE(error.value("attempts", -1), 0);
        if (!pointer.isNull())
            QCOMPARE(QString::fromStdString(error.value("pointer", "?")), pointer);

        const Step &step = h.step("c1");
        QCOMPARE(step.sequence, 1);
        QCOMPARE(step.status, StepStatus::Failed);
        QVERIFY(step.attempts.empty());
        QCOMPARE(h.added, QStringList{QStringLiteral("c1")});

        const auto journaled = h.journal.steps(QStringLiteral("run-1"));
        QCOMPARE(journaled.size(), std::size_t(1));
        QCOMPARE(journaled[0].status, StepStatus::Failed);
        QCOMPARE(journaled[0].error->codeName(), code);

        // The handler never ran: the mock's first entry still answers the next call.
        if (tool == "counter") {
            h.call("c2", "counter", {{"n", 5}});
            QTRY_VERIFY(h.reply("c2"));
            QCOMPARE(h.reply("c2")->message.dump(), J("{'id':'c2','type':'result','value':1}"));
            QCOMPARE(h.step("c2").sequence, 2);
        }
    }

    /// OpenAI strict mode sends null for a parameter it leaves out (docs/steps.md "A null
    /// for a parameter left out"): a null for a parameter that is not required and does not
    /// take null is left out, so the handler gets the call without it (its default
    /// applies); the step keeps what the script sent and says what was left out. A
    /// required parameter's null is still refused, a nullable one keeps its null.
    void strictModeNullsAreLeftOut()
    {
        json manifest = baseManifest();
        manifest["tools"].push_back(commandTool(
            "echo_args", {"sh", "-c", "cat"},
            "{'input_schema': {'type': 'object', 'properties': {'q': {'type': 'string'}, 'n': {'type': 'integer',"
            " 'default': 3}, 'note': {'type': ['string', 'null']}}, 'required': ['q'], 'additionalProperties': false}}"));
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.call("c1", "echo_args", json::parse(J("{'q': 'tea', 'n': null, 'note': null}")));
        QTRY_VERIFY_WITH_TIMEOUT(h.reply("c1"), 10000);
        QCOMPARE(QString::fromStdString(h.reply("c1")->message.dump()),
                 QString::fromStdString(J("{'id':'c1','type':'result','value':{'note':null,'q':'tea'}}")));
        QCOMPARE(h.step("c1").args.dump(), J("{'n':null,'note':null,'q':'tea'}"));
        QCOMPARE(h.journal.steps(QStringLiteral("run-1"))[0].args.dump(), J("{'n':null,'note':null,'q':'tea'}"));
        const auto events = h.journal.events(QStringLiteral("run-1"));
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(policyEventKindName(events[0].kind), QStringLiteral("nulls_left_out"));
        QCOMPARE(events[0].sequence, 1);
        QCOMPARE(events[0].detail["properties"].dump(), J("['n']"));
        QCOMPARE(QString::fromStdString(events[0].detail.value("text", "")),
                 QStringLiteral("null for 'n' left out: not required and its schema does not take null (a strict-mode "
                                "model's way of leaving it out), so the tool's default applies"));

        h.call("c2", "echo_args", json::parse(J("{'q': null, 'n': null}")));
        QCOMPARE(QString::fromStdString(errorOf(h.reply("c2")).value("message", "")),
                 QStringLiteral("invalid arguments for 'echo_args' at /q: expected string, got null"));
        h.call("c3", "echo_args", json::parse(J("{'q': 'tea', 'colour': null}")));
        QCOMPARE(QString::fromStdString(errorOf(h.reply("c3")).value("message", "")),
                 QStringLiteral("invalid arguments for 'echo_args' at /colour: property is not allowed by the schema"));
    }

    void unboundTool()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest(), {QStringLiteral("get_exchange_rate")}));
        h.call("c1", "flaky");
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("unknown_tool"));
        QCOMPARE(error.value("message", ""), std::string("tool 'flaky' is not bound to this script"));
        h.call("c2", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QTRY_VERIFY(h.reply("c2"));
        QCOMPARE(h.reply("c2")->message.value("value", 0.0), 0.92);
    }

    void maxCallsExceeded()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest())); // default: 100 calls per run
        for (int i = 1; i <= 101; ++i)
            h.call(QByteArray("c" + QByteArray::number(i)).constData(), "get_exchange_rate",
                   {{"base", "USD"}, {"quote", "EUR"}});
        // The 101st is refused at once; the first 100 still run.
        QVERIFY(h.reply("c101"));
        const json error = errorOf(h.reply("c101"));
        QCOMPARE(error.value("code", ""), std::string("max_calls_exceeded"));
        QCOMPARE(error.value("message", ""),
                 std::string("call 101 exceeds the limit of 100 calls per run (limits.max_calls; refused calls count "
                             "too); later calls are refused without being recorded one by one"));
        QTRY_COMPARE(h.replies.size(), std::size_t(101));
        QCOMPARE(h.engine->callCount(), 100);
        QCOMPARE(h.reply("c100")->message.value("type", ""), std::string("result"));
        QCOMPARE(h.step("c101").sequence, 101);
        QCOMPARE(h.step("c101").status, StepStatus::Failed);
    }

    void positionalArguments()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "get_exchange_rate", json::array({"USD", "EUR"}));
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(h.reply("c1")->message.value("type", ""), std::string("result"));
        QCOMPARE(h.step("c1").args.dump(), J("{'base':'USD','quote':'EUR'}"));
        // fewer than declared is fine as far as mapping goes; the schema decides
        h.call("c2", "get_exchange_rate", json::array({"USD"}));
        QCOMPARE(errorOf(h.reply("c2")).value("pointer", ""), std::string("/quote"));
    }

    void requestTooLarge()
    {
        json manifest = baseManifest();
        manifest["limits"] = {{"request_bytes", 64}};
        Harness h;
        QVERIFY(h.setUp(manifest));
        const json args = {{"base", std::string(100, 'x')}, {"quote", "EUR"}};
        h.call("c1", "get_exchange_rate", args);
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("request_too_large"));
        QCOMPARE(
            QString::fromStdString(error.value("message", "")),
            QStringLiteral(
                "arguments of get_exchange_rate are %1 bytes; the request limit is 64 bytes (limits.request_bytes)")
                .arg(args.dump().size()));
        QCOMPARE(args.dump().size(), std::size_t(125));
    }

    void replyTooLarge()
    {
        json manifest = baseManifest();
        manifest["limits"] = {{"reply_bytes", 16}};
        Harness h;
        QVERIFY(h.setUp(manifest));
        h.call("c1", "big");
        QTRY_VERIFY(h.reply("c1"));
        QCOMPARE(
            errorOf(h.reply("c1")).dump(),
            J("{'attempts':1,'code':'reply_too_large','message':'result of big is 22 bytes; the reply limit is 16 bytes (limits.reply_bytes)','retryable':false}"));
        QCOMPARE(h.step("c1").status, StepStatus::Failed);
        QVERIFY(!h.step("c1").result);
    }

    void resultAgainstOutputSchema()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "typed_out");
        QTRY_VERIFY(h.reply("c1"));
        const json error = errorOf(h.reply("c1"));
        QCOMPARE(error.value("code", ""), std::string("tool_failed"));
        QCOMPARE(
            error.value("message", ""),
            std::string("result of typed_out does not match output_schema at (root): expected number, got string"));
        QCOMPARE(error.value("retryable", true), false);
    }

    void committedBeforeReply()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        // Group commit as RunController runs it (docs/steps.md "The commit path"), with an
        // interval no test waits for: a step reaches SQLite later than its reply, so
        // the rule rests on the journal's tail.
        h.journal.setGroupCommit(600000);
        // What a reopened journal holds if the studio died at the moment each reply is
        // sent: the file and its WAL as they are, and the tail as a dead writer's.
        QStringList seen;
        int notFinalInSqlite = 0;
        QObject::connect(
            h.engine.get(), &StepEngine::replyReady, h.engine.get(),
            [&h, &seen, &notFinalInSqlite](const std::string &id, const std::string &) {
                const QString callId = QString::fromStdString(id);
                QTemporaryDir crash;
                const QString copy = crash.filePath(QStringLiteral("journal.sqlite"));
                for (const QString &suffix : {QString(), QStringLiteral("-wal")})
                    QFile::copy(h.journal.path() + suffix, copy + suffix);
                // The tail, and its mark of what is in SQLite already, under
                // the name of a writer that is gone (this pid, another start).
                const QString dead = JournalTail::fileName(copy, Journal::selfPid(), Journal::selfStartTicks() + 1, 1);
                if (!h.journal.tailPath().isEmpty())
                    QFile::copy(h.journal.tailPath(), dead);
                {
                    QSqlDatabase db
                        = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("sqlite-only"));
                    db.setDatabaseName(copy);
                    QSqlQuery query(db);
                    if (!db.open()
                        || !query.exec(QStringLiteral("SELECT status FROM steps WHERE call_id = '%1'").arg(callId))
                        || !query.next()
                        || !isFinal(stepStatusFromName(query.value(0).toString()).value_or(StepStatus::Queued)))
                        ++notFinalInSqlite;
                    query.finish();
                    query.prepare(QStringLiteral("UPDATE journal_tails SET name = ? WHERE name = ?"));
                    query.addBindValue(QFileInfo(dead).fileName());
                    query.addBindValue(QFileInfo(h.journal.tailPath()).fileName());
                    if (!query.exec())
                        seen << QStringLiteral("cannot rename the tail's mark");
                }
                QSqlDatabase::removeDatabase(QStringLiteral("sqlite-only"));
                Journal reopened;
                if (!reopened.open(copy)) {
                    seen << QStringLiteral("cannot open");
                    return;
                }
                for (const Step &step : reopened.steps(QStringLiteral("run-1")))
                    if (step.callId == callId)
                        seen << QStringLiteral("%1 %2 %3")
                                    .arg(step.callId, stepStatusName(step.status))
                                    .arg(step.attempts.size());
            });
        // c0: a mock answered at once; the reply is sent from inside submitCall.
        h.call("c0", "get_exchange_rate", {{"base", "USD"}, {"quote", "EUR"}});
        QCOMPARE(seen, QStringList{QStringLiteral("c0 succeeded 1")});
        h.call("c1", "flaky");
        h.call("c2", "nope");
        h.call("c3", "render_report", {{"topic", "q3"}});
        ManualAnswer answer;
        answer.result = "done";
        QVERIFY(h.engine->answer(QStringLiteral("c3"), 1, answer));
        QTRY_COMPARE(seen.size(), 4);
        QCOMPARE(seen,
                 (QStringList{QStringLiteral("c0 succeeded 1"), QStringLiteral("c2 failed 0"),
                              QStringLiteral("c3 succeeded 1"), QStringLiteral("c1 succeeded 3")}));
        // Each final state was only in the tail when its reply went out (c3's wait for a
        // person went to SQLite at once, its answer did not): the test shows the tail.
        QCOMPARE(notFinalInSqlite, 4);
    }

    void callsInFlightTogether()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "slowish");
        h.call("c2", "fast");
        QCOMPARE(h.step("c1").status, StepStatus::Running);
        QCOMPARE(h.step("c2").status, StepStatus::Running);
        QTRY_COMPARE_WITH_TIMEOUT(h.replies.size(), std::size_t(2), 3000);
        QCOMPARE(h.replies[0].id, std::string("c2")); // replies go out as steps finish
        QCOMPARE(h.replies[1].id, std::string("c1"));
        QCOMPARE(h.step("c1").sequence, 1);
        QCOMPARE(h.step("c2").sequence, 2);
        QCOMPARE(h.step("c2").idempotencyKey, keyOf("run-1", "fast"));
    }

    void batchedCommitsKeepWriteAhead()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        // Several calls in flight finish in the same turn of the event loop; each reply
        // still goes out only once its step is in the journal.
        QStringList seen;
        QObject::connect(h.engine.get(), &StepEngine::replyReady, h.engine.get(),
                         [&h, &seen](const std::string &id, const std::string &) {
                             Journal reader;
                             QVERIFY(reader.open(h.journal.path()));
                             for (const Step &step : reader.steps(QStringLiteral("run-1")))
                                 if (step.callId == QString::fromStdString(id))
                                     seen << QStringLiteral("%1 %2").arg(step.callId, stepStatusName(step.status));
                         });
        for (int i = 1; i <= 5; ++i)
            h.call(QStringLiteral("c%1").arg(i).toLatin1().constData(), "fast");
        QTRY_COMPARE(seen.size(), 5);
        QCOMPARE(
            seen,
            (QStringList{QStringLiteral("c1 succeeded"), QStringLiteral("c2 succeeded"), QStringLiteral("c3 succeeded"),
                         QStringLiteral("c4 succeeded"), QStringLiteral("c5 succeeded")}));
    }

    void duplicateCallIdInFlight()
    {
        Harness h;
        QVERIFY(h.setUp(baseManifest()));
        h.call("c1", "render_report", {{"topic", "a"}});
        h.call("c1", "fast");
        QCOMPARE(errorOf(h.reply("c1")).value("code", ""), std::string("protocol_error"));
        QCOMPARE(h.step("c1").tool, QStringLiteral("render_report")); // the first call keeps its id
        QCOMPARE(h.step("c1").status, StepStatus::Waiting);
    }
};

QTEST_GUILESS_MAIN(TestStepEngine)
#include "tst_stepengine.moc"
