// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A session of seed 003's API outlives a restart of the studio (SIGTERM or SIGKILL while
// it waits for tool results): the client continues with its token. Earlier calls are
// memoized; bad continuations, planted files, expiry and a program that diverges when run
// again are refused as before the restart; revived sessions are bounded; a studio
// stopped while the program runs on.

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "programmaticserver.h"
#include "serverprocess.h"
#include "testfiles.h"

#include <nlohmann/json.hpp>

namespace {

/// The seed page's first request (its example, as JSON).
nlohmann::json seedRequest()
{
    return {{"language", "python"},
            {"code", "rate = get_exchange_rate(base=\"USD\", quote=\"EUR\")\nprint(f\"100 USD = {100 * rate} EUR\")"},
            {"tools",
             {{{"name", "get_exchange_rate"},
               {"description", "Return the exchange rate between two currencies."},
               {"parameters",
                {{"type", "object"},
                 {"properties", {{"base", {{"type", "string"}}}, {"quote", {{"type", "string"}}}}},
                 {"required", {"base", "quote"}}}}}}}};
}

/// Stops `server` as `how` says ("SIGTERM" or "SIGKILL") and serves `dir` again in it.
bool restart(Server &server, const QString &dir, const QByteArray &how, const QStringList &extra = {})
{
    if (how == "SIGKILL") {
        server.process.kill();
        server.process.waitForFinished(30000);
    } else {
        server.stop();
    }
    server.out.clear();
    server.err.clear();
    return server.start(dir, extra);
}

} // namespace

class TestProgrammaticRestart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initProgrammaticTestCase(); }

    // A session waiting for tool results outlives its studio: stopped (SIGTERM) or
    // killed (SIGKILL) and started again, the server goes on with it when the client
    // continues with its token. Only the token's SHA-256 is kept on disk.
    void restartKeepsTheSession_data()
    {
        QTest::addColumn<QByteArray>("how");
        QTest::newRow("SIGTERM") << QByteArray("SIGTERM");
        QTest::newRow("SIGKILL") << QByteArray("SIGKILL");
    }

    void restartKeepsTheSession()
    {
        QFETCH(QByteArray, how);
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", seedRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(
            dumped(first.body["tool_calls"]),
            QStringLiteral(R"~([{"arguments":{"base":"USD","quote":"EUR"},"id":"c1","name":"get_exchange_rate"}])~"));
        const QString session = text(first.body.value("session_id", ""));
        const QByteArray token = QByteArray::fromStdString(first.body.value("continuation_token", ""));
        QVERIFY(restart(server, dir.path(), how));

        // What the server kept of the session (docs/server.md "A restart"): every file
        // it has there, 0600, without the token.
        QByteArray kept;
        const QDir served(dir.path() + QStringLiteral("/.toolstudio/served"));
        const QStringList files = served.entryList({session + QStringLiteral(".*")}, QDir::Files);
        QCOMPARE(files.size(), 2); // the start request and the state
        for (const QString &name : files) {
            QFile file(served.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                     QFileDevice::Permissions());
            kept += file.readAll();
        }
        QVERIFY2(!kept.contains(token), kept.constData());
        QVERIFY2(kept.contains(QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex()), kept.constData());

        HttpReply done
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 0.92}}}));
        QCOMPARE(done.status, 200);
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(done.body.value("session_id", "")), session);
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("100 USD = 92.0 EUR\n"));
        QCOMPARE(text(done.body.value("stderr", "x")), QString());
        QCOMPARE(done.body.value("tool_calls_made", -1), 1);

        // One run, resumed: one step with the client's result.
        HttpReply run = curl({server.url("/v1/runs/") + session});
        QCOMPARE(text(run.body["run"].value("kind", "")), QStringLiteral("served"));
        QCOMPARE(text(run.body["run"].value("status", "")), QStringLiteral("completed"));
        QCOMPARE(run.body["steps"].size(), std::size_t(1));
        QCOMPARE(text(run.body["steps"][0].value("call_id", "")), QStringLiteral("c1"));
        QCOMPARE(dumped(run.body["steps"][0].value("result", nlohmann::json())), QStringLiteral("0.92"));
        QCOMPARE(text(run.body["output"].value("stdout", "")), QStringLiteral("100 USD = 92.0 EUR\n"));

        // Its end outlives a restart too.
        QVERIFY(restart(server, dir.path(), how));
        HttpReply again
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 0.92}}}));
        QCOMPARE(again.status, 410);
        QCOMPARE(errorCode(again), QByteArray("session_ended"));
    }

    // A program paused at its second call, killed and revived: the first call is
    // answered from the journal (not asked again), the second gets the client's result,
    // the output is the whole program's once; partial output already sent is not sent twice.
    void restartMemoizesEarlierCalls()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        const nlohmann::json request
            = {{"code", "print('start')\na = step(n=1)\nprint('a', a)\nb = step(n=2)\nprint(a, b)\n"},
               {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}};
        HttpReply first = post(server, "/v1/exec/programmatic", request);
        QCOMPARE(text(first.body.value("partial_stdout", "")), QStringLiteral("start\n"));
        HttpReply second
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
        QCOMPARE(dumped(second.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QCOMPARE(text(second.body.value("partial_stdout", "")), QStringLiteral("a 7\n"));
        const QString session = text(second.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGKILL"));

        HttpReply done
            = post(server, "/v1/exec/programmatic", continuation(second, {{{"call_id", "c2"}, {"result", 8}}}));
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("start\na 7\n7 8\n"));
        QCOMPARE(done.body.value("tool_calls_made", -1), 2);
        HttpReply run = curl({server.url("/v1/runs/") + session});
        QCOMPARE(run.body["steps"].size(), std::size_t(2));
        QCOMPARE(dumped(run.body["steps"][0].value("result", nlohmann::json())), QStringLiteral("7"));
        QCOMPARE(dumped(run.body["steps"][1].value("result", nlohmann::json())), QStringLiteral("8"));
        QCOMPARE(text(run.body["output"].value("stdout", "")), QStringLiteral("start\na 7\n7 8\n"));
    }

    // After a restart: a forged token gets 403, a result for a call the session does not
    // wait for 404 unknown_call — nothing is started or delivered, the token stays
    // good; a continuation whose reply was lost (the earlier token) gets that reply.
    void badContinuationsAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        HttpReply lost
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
        QCOMPARE(text(lost.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(lost.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGTERM"));

        nlohmann::json forged = continuation(lost, {{{"call_id", "c2"}, {"result", 8}}});
        forged["continuation_token"] = std::string(43, 'A');
        HttpReply refused = post(server, "/v1/exec/programmatic", forged);
        QCOMPARE(refused.status, 403);
        QCOMPARE(errorCode(refused), QByteArray("invalid_token"));
        HttpReply unknown
            = post(server, "/v1/exec/programmatic", continuation(lost, {{{"call_id", "c9"}, {"result", 8}}}));
        QCOMPARE(unknown.status, 404);
        QCOMPARE(errorCode(unknown), QByteArray("unknown_call"));
        QCOMPARE(errorMessage(unknown),
                 QByteArray("session " + session.toUtf8()
                            + " has no call 'c9' waiting for a result; the calls waiting are: c2"));

        // The first continuation again (its reply "lost"): the reply again, with a new token.
        HttpReply resent
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
        QCOMPARE(text(resent.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(resent.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QVERIFY(resent.body.value("continuation_token", "") != lost.body.value("continuation_token", ""));
        continueToTheEnd(server, resent, "c2", 8, QStringLiteral("7 8\n"), 2);
    }

    // Files planted in .toolstudio/served/ (the project folder may come from someone
    // else): a state slot or a start request nested 400 000 levels deep is refused as
    // any outside JSON, not copied until the stack overflows (attack26 F1, F2); the
    // server answers and goes on serving.
    void plantedDeepFilesAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        server.process.kill();
        server.process.waitForFinished(30000);
        const QString served = dir.path() + QStringLiteral("/.toolstudio/served/");
        const QByteArray deep = QByteArray(400000, '[') + QByteArray(400000, ']');
        QVERIFY(writeFile(served + QStringLiteral("planted-1.state.json"), "{\"serial\":1,\"waiting\":" + deep + "}"));
        QVERIFY(writeFile(served + session + QStringLiteral(".start.json"),
                          "{\"language\":\"python\",\"tools\":[],\"x\":" + deep + "}"));
        QVERIFY(restart(server, dir.path(), "SIGKILL"));

        nlohmann::json planted = continuation(first, {{{"call_id", "c1"}, {"result", 1}}});
        planted["session_id"] = "planted-1";
        const HttpReply unknown = post(server, "/v1/exec/programmatic", planted);
        QVERIFY2(unknown.status == 404, unknown.body.dump().c_str());
        const HttpReply ended
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QVERIFY2(ended.status == 410, ended.body.dump().c_str());
        QCOMPARE(errorCode(ended), QByteArray("session_ended"));
        QCOMPARE(errorMessage(ended),
                 QByteArray("session " + session.toUtf8()
                            + " cannot go on: the request that started it is no longer kept in .toolstudio/served/"));
        QCOMPARE(server.process.state(), QProcess::Running);
    }

    // Expiry counts from the pause, across the restart: 410 session_expired, the run cancelled.
    void expiredAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        QElapsedTimer sincePause; // the pause came before the reply
        sincePause.start();
        const QString session = text(first.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGKILL", {QStringLiteral("--session-expiry"), QStringLiteral("1")}));
        while (sincePause.elapsed() < 1100)
            QThread::msleep(50);
        HttpReply late
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QCOMPARE(late.status, 410);
        QCOMPARE(errorCode(late), QByteArray("session_expired"));
        QCOMPARE(errorMessage(late),
                 QByteArray("session " + session.toUtf8()
                            + " expired: no continuation came within 1 s (toolstudio serve --session-expiry); its "
                              "program was stopped"));
        QCOMPARE(text(curl({server.url("/v1/runs/") + session}).body["run"].value("status", "")),
                 QStringLiteral("cancelled"));
    }

    // A program that calls something else when run again (here: random arguments) is
    // stopped with the reason; the client is not handed a result meant for another call.
    void divergentProgramAfterRestart()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic",
                               {{"code", "import secrets\nprint(step(n=secrets.token_hex(8)))\n"},
                                {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        QVERIFY(restart(server, dir.path(), "SIGTERM"));
        HttpReply done
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("error"));
        QCOMPARE(text(done.body["error"].value("code", "")), QStringLiteral("resume_diverged"));
        const QString message = text(done.body["error"].value("message", ""));
        QVERIFY2(message.startsWith(QStringLiteral("session %1 cannot go on after the studio restarted: its program, "
                                                   "run again from its start, made step({\"n\":\"")
                                        .arg(session)),
                 qPrintable(message));
        QVERIFY2(message.endsWith(QStringLiteral(
                     "(step 2), a call its journal does not have, before the calls it was waiting on (c1 (step 1)). "
                     "Calls are matched by tool, arguments and the number of identical calls before them, so a "
                     "program whose calls depend on time, randomness or changed input diverges; it was stopped and "
                     "nothing was delivered")),
                 qPrintable(message));
        QCOMPARE(text(done.body.value("stdout", "x")), QString());
    }

    // Revived sessions count against the 16 a server runs at once: continuations of
    // many old sessions cannot start more programs than that.
    void revivedSessionsAreBounded()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        QList<HttpReply> paused;
        for (int i = 0; i < 16; ++i) {
            paused << post(server, "/v1/exec/programmatic", twoStepRequest());
            QCOMPARE(text(paused.last().body.value("status", "")), QStringLiteral("tool_call_required"));
        }
        QVERIFY(restart(server, dir.path(), "SIGTERM"));

        // One new session and 15 revived ones, each paused at its next call, fill it.
        HttpReply fresh = post(server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(fresh.body.value("status", "")), QStringLiteral("tool_call_required"));
        for (int i = 0; i < 15; ++i) {
            HttpReply next
                = post(server, "/v1/exec/programmatic", continuation(paused[i], {{{"call_id", "c1"}, {"result", i}}}));
            QCOMPARE(text(next.body.value("status", "")), QStringLiteral("tool_call_required"));
        }
        HttpReply refused
            = post(server, "/v1/exec/programmatic", continuation(paused[15], {{{"call_id", "c1"}, {"result", 15}}}));
        QCOMPARE(refused.status, 503);
        QCOMPARE(errorCode(refused), QByteArray("too_many_sessions"));

        // Once one ends, it goes on.
        HttpReply ended
            = post(server, "/v1/exec/programmatic", continuation(fresh, {{{"call_id", "c1"}, {"result", 1}}}));
        continueToTheEnd(server, ended, "c2", 2, QStringLiteral("1 2\n"), 2);
        HttpReply revived
            = post(server, "/v1/exec/programmatic", continuation(paused[15], {{{"call_id", "c1"}, {"result", 15}}}));
        QCOMPARE(text(revived.body.value("status", "")), QStringLiteral("tool_call_required"));
    }

    // The studio dies after a continuation was taken, while the program runs on (here:
    // sleeps before its next call), so the client never gets the reply. Its retry with
    // the same token (*A lost reply*) resumes the run without delivering anything again
    // — the journal has the result — and gets the next call, with a new token. Stopped
    // gracefully instead, the server stops that program: the session has ended.
    void stoppedWhileTheProgramRunsOn_data()
    {
        QTest::addColumn<QByteArray>("how");
        QTest::newRow("SIGKILL") << QByteArray("SIGKILL");
        QTest::newRow("SIGTERM") << QByteArray("SIGTERM");
    }

    void stoppedWhileTheProgramRunsOn()
    {
        QFETCH(QByteArray, how);
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        const nlohmann::json request
            = {{"code", "import time\na = step(n=1)\ntime.sleep(3)\nb = step(n=2)\nprint(a, b)\n"},
               {"tools", {{{"name", "step"}, {"parameters", {{"type", "object"}}}}}}};
        HttpReply first = post(server, "/v1/exec/programmatic", request);
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        // The continuation whose reply is lost: curl in the background, killed with the server.
        QProcess lostClient;
        lostClient.start(QStringLiteral("curl"),
                         {QStringLiteral("-s"), QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("-H"),
                          QStringLiteral("Content-Type: application/json"), QStringLiteral("--data-binary"),
                          QString::fromStdString(continuation(first, {{{"call_id", "c1"}, {"result", 7}}}).dump()),
                          server.url("/v1/exec/programmatic")});
        QElapsedTimer clock;
        clock.start();
        QString status;
        while (clock.elapsed() < 60000) {
            HttpReply run = curl({server.url("/v1/runs/") + session});
            status = run.body.is_object() && !run.body["steps"].empty() ? text(run.body["steps"][0].value("status", ""))
                                                                        : QString();
            if (status == QLatin1String("succeeded"))
                break;
            QThread::msleep(50);
        }
        QCOMPARE(status, QStringLiteral("succeeded"));
        QVERIFY(restart(server, dir.path(), how));
        lostClient.waitForFinished(30000);
        if (how == "SIGTERM") {
            HttpReply ended
                = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 7}}}));
            QCOMPARE(ended.status, 410);
            QCOMPARE(errorCode(ended), QByteArray("session_ended"));
            QCOMPARE(errorMessage(ended),
                     QByteArray("session " + session.toUtf8()
                                + " was stopped with its server while its program ran; start a "
                                  "new one"));
            return;
        }

        // Its results are not read again: 99 goes nowhere.
        HttpReply again
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 99}}}));
        QCOMPARE(text(again.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(again.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QVERIFY(again.body.value("continuation_token", "") != first.body.value("continuation_token", ""));
        continueToTheEnd(server, again, "c2", 8, QStringLiteral("7 8\n"), 2);
    }
};

QTEST_GUILESS_MAIN(TestProgrammaticRestart)
#include "tst_programmaticrestart.moc"
