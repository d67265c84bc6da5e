// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A session of seed 003's API on `toolstudio serve` between its continuations: forged
// and reused tokens, unknown call ids, a result over 1 MiB, a call a person answered
// first, two clients continuing one session at once, a client that leaves mid-session,
// a flood of wait hints, an expired session, and the bound on programs waited for.

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "programmaticserver.h"
#include "serverprocess.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <vector>

namespace {

/// GET /v1/runs/{session}/pending until the call `callId` waits (at most 60 s): the
/// pending list as JSON text, the last one seen.
QString pendingOnceItWaits(const Server &server, const QString &session, const char *callId)
{
    QElapsedTimer clock;
    clock.start();
    QString waiting;
    const QString quoted = QLatin1Char('"') + QLatin1String(callId) + QLatin1Char('"');
    while (clock.elapsed() < 60000) {
        HttpReply pending = curl({server.url("/v1/runs/") + session + QStringLiteral("/pending")});
        waiting = dumped(pending.body.value("pending", nlohmann::json()));
        if (waiting.contains(quoted))
            break;
        QThread::msleep(100);
    }
    return waiting;
}

} // namespace

class TestProgrammaticSessions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initProgrammaticTestCase(&m_dir, &m_server); }

    // A forged token, an unknown call id and a result over 1 MiB are refused without
    // using the token up; a token works once (reused: refused); the session goes on.
    void tokensAndCallIds()
    {
        HttpReply first = post(m_server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));

        nlohmann::json forged = continuation(first, {{{"call_id", "c1"}, {"result", 10}}});
        forged["continuation_token"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        HttpReply refused = post(m_server, "/v1/exec/programmatic", forged);
        QCOMPARE(refused.status, 403);
        QCOMPARE(errorCode(refused), QByteArray("invalid_token"));
        QCOMPARE(errorMessage(refused),
                 QByteArray("the continuation_token is not the current one of session " + session.toUtf8()
                            + ": a token works once, for the session whose latest response issued it"));

        HttpReply unknownCall
            = post(m_server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c9"}, {"result", 10}}}));
        QCOMPARE(unknownCall.status, 404);
        QCOMPARE(errorCode(unknownCall), QByteArray("unknown_call"));
        QCOMPARE(errorMessage(unknownCall),
                 QByteArray("session " + session.toUtf8()
                            + " has no call 'c9' waiting for a result; the calls waiting are: c1"));

        HttpReply tooLarge = post(m_server, "/v1/exec/programmatic",
                                  continuation(first, {{{"call_id", "c1"}, {"result", std::string(1 << 20, 'x')}}}));
        QCOMPARE(tooLarge.status, 413);
        QCOMPARE(errorCode(tooLarge), QByteArray("result_too_large"));
        QCOMPARE(errorMessage(tooLarge),
                 QByteArray("tool_results[0]: the result of call 'c1' is 1048578 bytes as compact JSON; a result may "
                            "have at most 1048576 bytes (1 MiB)"));

        const nlohmann::json good = continuation(first, {{{"call_id", "c1"}, {"result", 10}}});
        HttpReply second = post(m_server, "/v1/exec/programmatic", good);
        QCOMPARE(second.status, 200);
        QCOMPARE(text(second.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(second.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        QVERIFY(second.body.value("continuation_token", "") != first.body.value("continuation_token", ""));

        // The used token again (a client whose reply was lost retries): the same reply,
        // with the current token; the result is not delivered twice.
        HttpReply reused = post(m_server, "/v1/exec/programmatic", good);
        QCOMPARE(reused.status, 200);
        QCOMPARE(dumped(reused.body), dumped(second.body));
        // The current token with no results lists the call that waits again; the first
        // token is then two continuations old: refused.
        HttpReply listed = post(m_server, "/v1/exec/programmatic", continuation(second, nlohmann::json::array()));
        QCOMPARE(listed.status, 200);
        QCOMPARE(dumped(listed.body["tool_calls"]), dumped(second.body["tool_calls"]));
        HttpReply tooOld = post(m_server, "/v1/exec/programmatic", good);
        QCOMPARE(tooOld.status, 403);
        QCOMPARE(errorCode(tooOld), QByteArray("invalid_token"));
        second = listed;

        HttpReply done
            = post(m_server, "/v1/exec/programmatic", continuation(second, {{{"call_id", "c2"}, {"result", 20}}}));
        QCOMPARE(text(done.body.value("status", "")), QStringLiteral("completed"));
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("10 20\n"));
        QCOMPARE(done.body.value("tool_calls_made", -1), 2);
    }

    // A person ends a served call first (here through seed 004's route, as the window's
    // Pending Calls dock or `toolstudio answer` would): the client's result for it is
    // refused with the reason, and the session goes on with the next call.
    void answeredByAPersonFirst()
    {
        HttpReply first = post(m_server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        HttpReply byPerson = post(m_server, ("/v1/runs/" + session.toUtf8() + "/calls/c1").constData(),
                                  {{"type", "tool.result"}, {"id", "c1"}, {"result", 5}});
        QCOMPARE(byPerson.status, 200);
        // The program goes on to its second call (the journal shows it waiting).
        const QString waiting = pendingOnceItWaits(m_server, session, "c2");
        QVERIFY2(waiting.contains(QLatin1String("\"c2\"")), qPrintable(waiting));
        HttpReply late
            = post(m_server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 10}}}));
        QCOMPARE(late.status, 409);
        QCOMPARE(errorCode(late), QByteArray("already_ended"));
        QCOMPARE(errorMessage(late),
                 QByteArray("call 'c1' already has a result, given by a person (in the window, with toolstudio answer "
                            "or POST /v1/runs/{run}/calls/{call_id}); nothing was delivered"));
        // The token is still good: an empty continuation lists the call that waits now.
        HttpReply next = post(m_server, "/v1/exec/programmatic", continuation(first, nlohmann::json::array()));
        QCOMPARE(dumped(next.body.value("tool_calls", nlohmann::json())),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        HttpReply done
            = post(m_server, "/v1/exec/programmatic", continuation(next, {{{"call_id", "c2"}, {"result", 6}}}));
        QCOMPARE(text(done.body.value("stdout", "")), QStringLiteral("5 6\n"));
    }

    // Two clients continue one session with the same token at once: one goes on, the
    // other gets 409 session_busy (the program sleeps after the result, so the first
    // is still being answered when the second arrives). The body goes as an argument:
    // stdin written to a second QProcess would wait for the first to finish.
    void twoClientsAtOnce()
    {
        HttpReply first
            = post(m_server, "/v1/exec/programmatic",
                   {{"code", "import time\nv = step()\ntime.sleep(4)\nprint(v)\n"}, {"tools", {{{"name", "step"}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QByteArray body
            = QByteArray::fromStdString(continuation(first, {{{"call_id", "c1"}, {"result", "ok"}}}).dump());
        QList<QProcess *> clients;
        for (int i = 0; i < 2; ++i) {
            auto *process = new QProcess(this);
            process->start(QStringLiteral("curl"),
                           {QStringLiteral("-s"), QStringLiteral("-w"), QStringLiteral("\n%{http_code}"),
                            QStringLiteral("-X"), QStringLiteral("POST"), QStringLiteral("--data-binary"),
                            QString::fromUtf8(body), m_server.url("/v1/exec/programmatic")});
            clients << process;
        }
        QStringList statuses;
        QByteArray busyBody;
        for (QProcess *process : std::as_const(clients)) {
            QVERIFY(process->waitForFinished(60000));
            const QByteArray out = process->readAllStandardOutput();
            const QByteArray status = out.mid(out.lastIndexOf('\n') + 1);
            statuses << QString::fromLatin1(status);
            if (status == "409")
                busyBody = out.left(out.lastIndexOf('\n'));
            delete process;
        }
        statuses.sort();
        QCOMPARE(statuses, QStringList({QStringLiteral("200"), QStringLiteral("409")}));
        nlohmann::json busy = nlohmann::json::parse(busyBody.toStdString(), nullptr, false);
        QCOMPARE(text(busy["error"].value("code", "")), QStringLiteral("session_busy"));
    }

    // A client posts a continuation and closes its connection before the reply (curl
    // --max-time 1; the program sleeps 3 s after the result): the server goes on
    // serving other clients, and the session stays usable: the same continuation again
    // gets the reply that was lost, and the session completes.
    void clientDisconnectsMidSession()
    {
        HttpReply first = post(m_server, "/v1/exec/programmatic",
                               {{"code", "import time\nv = step(n=1)\ntime.sleep(3)\nw = step(n=2)\nprint(v, w)\n"},
                                {"tools", {{{"name", "step"}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        const nlohmann::json body = continuation(first, {{{"call_id", "c1"}, {"result", 1}}});
        HttpReply cut
            = curl({QStringLiteral("--max-time"), QStringLiteral("1"), QStringLiteral("-X"), QStringLiteral("POST"),
                    QStringLiteral("--data-binary"), QStringLiteral("@-"), m_server.url("/v1/exec/programmatic")},
                   QByteArray::fromStdString(body.dump()));
        QCOMPARE(cut.status, 0); // no reply: curl gave up and closed the connection

        // Another client is served meanwhile.
        HttpReply other = post(m_server, "/v1/exec", {{"code", "print('other')"}});
        QCOMPARE(other.status, 200);
        QCOMPARE(text(other.body.value("stdout", "")), QStringLiteral("other\n"));

        // Once the program waits for c2 (the journal says so), the lost reply is asked again.
        const QString waiting = pendingOnceItWaits(m_server, session, "c2");
        QVERIFY2(waiting.contains(QLatin1String("\"c2\"")), qPrintable(waiting));
        HttpReply again = post(m_server, "/v1/exec/programmatic", body);
        QCOMPARE(again.status, 200);
        QCOMPARE(text(again.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(again.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":2},"id":"c2","name":"step"}])~"));
        continueToTheEnd(m_server, again, "c2", 2, QStringLiteral("1 2\n"), 2);
    }

    // The wait hint is untrusted input: a script that sends it in a flood, with any
    // content, before and between its calls, and never calls at all, is served as
    // any other; its calls still come back (the hint just says "reply now").
    void waitHintFlood()
    {
        const std::string code = "import os\n"
                                 "fd = int(os.environ['TOOLSTUDIO_BRIDGE_FD'])\n"
                                 "hint = b'{\"type\":\"wait\"}\\n' + b'{\"type\":\"wait\",\"x\":[1,{\"y\":null}]}\\n'\n"
                                 "for _ in range(20000):\n"
                                 "    os.write(fd, hint)\n"
                                 "a = step(n=1)\n"
                                 "for _ in range(20000):\n"
                                 "    os.write(fd, hint)\n"
                                 "print(a)\n";
        HttpReply first = post(m_server, "/v1/exec/programmatic", {{"code", code}, {"tools", {{{"name", "step"}}}}});
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        QCOMPARE(dumped(first.body["tool_calls"]),
                 QStringLiteral(R"~([{"arguments":{"n":1},"id":"c1","name":"step"}])~"));
        continueToTheEnd(m_server, first, "c1", 7, QStringLiteral("7\n"), 1);
    }

    // A paused session nobody continues expires (--session-expiry 1): its program is
    // stopped, and a late continuation gets 410 session_expired.
    void expiredSession()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path(), {QStringLiteral("--session-expiry"), QStringLiteral("1")}),
                 server.err.constData());
        HttpReply first = post(server, "/v1/exec/programmatic", twoStepRequest());
        QCOMPARE(text(first.body.value("status", "")), QStringLiteral("tool_call_required"));
        const QString session = text(first.body.value("session_id", ""));
        // Wait until the run has ended (the expiry stopped it), as the journal says.
        QElapsedTimer clock;
        clock.start();
        QString status;
        while (clock.elapsed() < 60000) {
            status = text(curl({server.url("/v1/runs/") + session}).body["run"].value("status", ""));
            if (status == QLatin1String("cancelled"))
                break;
            QThread::msleep(200);
        }
        QCOMPARE(status, QStringLiteral("cancelled"));
        HttpReply late
            = post(server, "/v1/exec/programmatic", continuation(first, {{{"call_id", "c1"}, {"result", 1}}}));
        QCOMPARE(late.status, 410);
        QCOMPARE(errorCode(late), QByteArray("session_expired"));
        QCOMPARE(errorMessage(late),
                 QByteArray("session " + session.toUtf8()
                            + " expired: no continuation came within 1 s (toolstudio serve --session-expiry); its "
                              "program was stopped"));
    }

    // Programs that run while their client waits each hold one of the server's HTTP
    // threads: at most 8 at once (a 9th start is 503 too_many_running, nothing runs),
    // and the other routes are answered meanwhile (attack28 F2: 16 sleeping programs
    // held every thread; GET / waited 23 s).
    void programsWaitedForAreBounded()
    {
        QTemporaryDir dir;
        writeEmptyProject(dir.path());
        Server server;
        QVERIFY2(server.start(dir.path()), server.err.constData());
        const QByteArray body = R"~({"code": "import time\ntime.sleep(8)\nprint('done')", "timeout": 120})~";
        std::vector<std::unique_ptr<QProcess>> clients;
        for (int i = 0; i < 8; ++i) {
            clients.push_back(std::make_unique<QProcess>());
            clients.back()->start(QStringLiteral("curl"),
                                  {QStringLiteral("-s"), QStringLiteral("-X"), QStringLiteral("POST"),
                                   QStringLiteral("--data-binary"), QString::fromUtf8(body), server.url("/v1/exec")});
        }
        const auto running = [&server] {
            int count = 0;
            for (const nlohmann::json &run : curl({server.url("/v1/runs")}).body.value("runs", nlohmann::json::array()))
                count += run.value("status", "") == "running" ? 1 : 0;
            return count;
        };
        QTRY_COMPARE_WITH_TIMEOUT(running(), 8, 60000);
        const HttpReply refused = post(server, "/v1/exec", {{"code", "print(1)"}});
        QCOMPARE(refused.status, 503);
        QCOMPARE(errorCode(refused), QByteArray("too_many_running"));
        QCOMPARE(errorMessage(refused),
                 QByteArray("8 programs are running while their clients wait for the reply, the most this server "
                            "holds at once (each holds one of its threads); nothing was started or continued: retry "
                            "when one has paused for a tool or ended"));
        QCOMPARE(running(), 8);
        QCOMPARE(curl({server.url("/")}).status, 200);
        for (const auto &client : clients) {
            QVERIFY(client->waitForFinished(120000));
            const nlohmann::json done
                = nlohmann::json::parse(client->readAllStandardOutput().toStdString(), nullptr, false);
            QCOMPARE(text(done.value("stdout", "")), QStringLiteral("done\n"));
        }
        QCOMPARE(text(post(server, "/v1/exec", {{"code", "print(1)"}}).body.value("stdout", "")),
                 QStringLiteral("1\n"));
    }

private:
    QTemporaryDir m_dir;
    Server m_server;
};

QTEST_GUILESS_MAIN(TestProgrammaticSessions)
#include "tst_programmaticsessions.moc"
