// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// MCP's Streamable HTTP transport (issue 21 §1): `"url"` servers of toolstudio.json
// listed and called through the built toolstudio against the npm reference server
// (`server-everything streamableHttp`, installed by ./toolstudio.sh test into
// TOOLSTUDIO_MCP_SERVERS_DIR), and McpClientSession over McpHttpTransport against
// tests/data/mcp/fakehttpserver.py: a reply that is not JSON, an event stream cut in
// the middle of an event, an HTTP error, streams that outlive their call or flood it
// with pings. The session's GET stream and resumed request streams: tst_mcphttpstreams.
#include "clirunner.h"
#include "everythingserver.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcphttptransport.h"
#include "mcp/mcpssereader.h"
#include "mcpsessionwaits.h"
#include "testfiles.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>

using nlohmann::json;

class TestMcpHttp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void referenceServerListAndCall();
    void headerNamesAMissingSecret();
    void headerSecretBoundToItsHost();
    void badReplies_data();
    void badReplies();
    void sseReader();
    void eraProbeReadsA2026Refusal();
    void lingeringStreamsAreClosed();
    void drippingStreamsAreClosedAtTheirTimeout();
    void pingFloodIsBounded();

private:
    /// A session with the fake server at `path`, ready.
    std::unique_ptr<McpClientSession> openFake(const QString &path, McpHttpTransport **transport);

    QProcess m_fake;
    QString m_fakeUrl;
};

void TestMcpHttp::initTestCase()
{
    m_fake.setProgram(QStandardPaths::findExecutable(QStringLiteral("python3")));
    m_fake.setArguments({mcpFixture("fakehttpserver.py")});
    m_fake.start();
    QVERIFY(m_fake.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_fake.canReadLine(), 30000);
    m_fakeUrl = QStringLiteral("http://127.0.0.1:%1").arg(QString::fromLatin1(m_fake.readLine().trimmed()));
}

void TestMcpHttp::cleanupTestCase()
{
    m_fake.kill();
    m_fake.waitForFinished();
}

void TestMcpHttp::referenceServerListAndCall()
{
    const QString entry = everythingEntry();
    if (entry.isEmpty())
        QSKIP(ReferenceServerMissing);
    QProcess server;
    const quint16 port = startEverythingHttp(server, entry);
    QVERIFY2(port != 0, "server-everything streamableHttp did not start");

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray config = "{\"name\": \"http\", \"mcp_servers\": {\"everything\": {\"url\": \"http://127.0.0.1:"
        + QByteArray::number(port) + "/mcp\", \"headers\": {\"X-Client\": \"tst_mcphttp\"}}}}";
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), config));
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path()});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    QVERIFY2(list.out.startsWith("everything  ready  MCP 2025-"), list.out.constData());
    QVERIFY2(list.out.contains("\n  everything__echo  "), list.out.constData());
    QVERIFY2(list.out.contains("\n  everything__get-sum  "), list.out.constData());

    const CommandResult echo = toolstudio({QStringLiteral("mcp"), QStringLiteral("call"), dir.path(),
                                           QStringLiteral("everything"), QStringLiteral("echo"),
                                           QStringLiteral("--args"), QStringLiteral("{\"message\": \"über http\"}")});
    QVERIFY2(echo.exitCode == 0, echo.out + echo.err);
    QCOMPARE(echo.out,
             QByteArray("{\n  \"content\": [\n    {\n      \"text\": \"Echo: über http\",\n      \"type\": "
                        "\"text\"\n    }\n  ]\n}\n"));
    server.kill();
    server.waitForFinished();
}

void TestMcpHttp::headerNamesAMissingSecret()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray config
        = "{\"name\": \"http\", \"mcp_servers\": {\"remote\": {\"url\": \"http://127.0.0.1:1/mcp\", "
          "\"headers\": {\"Authorization\": \"Bearer ${secret:REMOTE_TOKEN}\"}}}}";
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), config));
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path()});
    QCOMPARE(list.exitCode, 1);
    QCOMPARE(list.out,
             QByteArray("remote  failed\n  cannot start: its headers name secrets that are not set: "
                        "REMOTE_TOKEN (set them with: toolstudio tools secret PROJECT NAME)\n"));
}

// Issue 16: a secret in a header goes only to the hosts it was entered for.
void TestMcpHttp::headerSecretBoundToItsHost()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray config
        = "{\"name\": \"http\", \"mcp_servers\": {\"remote\": {\"url\": \"http://127.0.0.1:1/mcp\", "
          "\"headers\": {\"Authorization\": \"Bearer ${secret:REMOTE_TOKEN}\"}}}}";
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), config));
    const CommandResult secret = toolstudioAsGiven({QStringLiteral("tools"), QStringLiteral("secret"), dir.path(),
                                                    QStringLiteral("REMOTE_TOKEN"), QStringLiteral("--host"),
                                                    QStringLiteral("mcp.example.com")},
                                                   "tok-remote-1234\n");
    QCOMPARE(secret.exitCode, 0);
    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), dir.path()});
    QCOMPARE(list.exitCode, 1);
    QCOMPARE(list.out,
             QByteArray("remote  failed\n  cannot start: its headers: the secret REMOTE_TOKEN is bound to "
                        "mcp.example.com, not to 127.0.0.1:1 (a key goes only to the hosts it was entered for); if "
                        "127.0.0.1:1 should get it, run `toolstudio tools secret PROJECT REMOTE_TOKEN --host "
                        "127.0.0.1:1` (add --host for each host it may go to)\n"));
}

void TestMcpHttp::badReplies_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("failure");
    QTest::newRow("not JSON") << QStringLiteral("/notjson")
                              << QStringLiteral("the server's reply to request 2 could not be read: not valid JSON: "
                                                "syntax error while parsing value - invalid literal; last read: '<' "
                                                "(byte offset 0)");
    QTest::newRow("event stream cut mid-event")
        << QStringLiteral("/cutsse")
        << QStringLiteral("the server's reply to request 2 could not be read: its event stream ended in the middle "
                          "of an event");
    QTest::newRow("HTTP error") << QStringLiteral("/status")
                                << QStringLiteral("the server's reply to request 2 could not be read: HTTP 500 from "
                                                  "%1/status: Internal \\u001b[31merror\\u001b[0m");
}

void TestMcpHttp::eraProbeReadsA2026Refusal()
{
    // The probe's 400 carries UnsupportedProtocolVersion listing 2025-06-18: the session
    // reads it as that error (not an HTTP failure) and falls back to initialize.
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + QStringLiteral("/refuses2026"));
    auto *transport = new McpHttpTransport(endpoint);
    McpClientSession session(transport);
    session.open();
    QTRY_VERIFY_WITH_TIMEOUT(session.state() != McpClientSession::State::Initializing, 30000);
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    QCOMPARE(session.era(), QStringLiteral("legacy"));
    QCOMPARE(session.protocolVersion(), QStringLiteral("2025-06-18"));
    QCOMPARE(transport->sessionId(), QByteArray("fake-session-1"));
    QCOMPARE(session.refusedMessages(), 0);
}

void TestMcpHttp::badReplies()
{
    QFETCH(QString, path);
    QFETCH(QString, failure);
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + path);
    auto *transport = new McpHttpTransport(endpoint);
    McpClientSession session(transport);
    QSignalSpy notes(&session, &McpClientSession::notificationReceived);
    session.open();
    QTRY_VERIFY_WITH_TIMEOUT(session.state() != McpClientSession::State::Initializing, 30000);
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    QCOMPARE(transport->sessionId(), QByteArray("fake-session-1"));
    QCOMPARE(callAndWait(session, QStringLiteral("t")).failure,
             failure.contains(u'%') ? failure.arg(m_fakeUrl) : failure);
    // The session goes on: the next request is answered.
    std::optional<McpReply> listed;
    session.listTools([&](const std::vector<json> &tools, const McpReply &reply) {
        listed = reply;
        QCOMPARE(tools.size(), std::size_t(1));
    });
    QTRY_VERIFY_WITH_TIMEOUT(listed.has_value(), 30000);
    QVERIFY2(listed->ok(), qPrintable(listed->errorText()));
    if (path == QLatin1String("/cutsse"))
        QCOMPARE(notes.count(), 1); // the whole event before the cut was read
    session.close();
}

void TestMcpHttp::sseReader()
{
    // Fed in pieces that cut lines and events anywhere; CRLF and LF; comments; an
    // event of another type; data on two lines; an event over the limit.
    McpSseReader reader(16);
    std::vector<McpSseReader::Event> events;
    for (std::string_view piece : {": keep-alive\r\nda", "ta: {\"a\"\r\n", "data: :1}\r\n\r\nevent: ping\ndata: x\n\n",
                                   "data: 0123456789abcdefXYZ\n\n", "data: last\n"}) {
        for (McpSseReader::Event &event : reader.feed(piece))
            events.push_back(std::move(event));
    }
    QCOMPARE(events.size(), std::size_t(3));
    QCOMPARE(events[0].type, std::string("message"));
    QCOMPARE(events[0].data, std::string("{\"a\"\n:1}"));
    QCOMPARE(events[1].type, std::string("ping"));
    QCOMPARE(events[1].data, std::string("x"));
    QVERIFY(events[2].oversized);
    QVERIFY(events[2].data.empty());
    QVERIFY(reader.midEvent()); // "data: last" came without the blank line that ends it

    // The last event id: kept from event to event, counted once its event came whole, and
    // dropped when the server sends one no header can carry back; `retry:` in ms.
    McpSseReader ids(64);
    QCOMPARE(ids.retryMs(), -1LL);
    QVERIFY(ids.feed("retry: 250\nid: e1\ndata: a\n\ndata: b\n\n").size() == 2);
    QCOMPARE(ids.lastEventId(), std::string("e1"));
    QCOMPARE(ids.retryMs(), 250LL);
    QVERIFY(ids.feed("retry: soon\nid: e2\ndata: c").empty());
    QCOMPARE(ids.lastEventId(), std::string("e1")); // e2's event was not whole
    QCOMPARE(ids.retryMs(), 250LL);
    QCOMPARE(ids.feed("\n\n").size(), std::size_t(1));
    QCOMPARE(ids.lastEventId(), std::string("e2"));
    QCOMPARE(ids.feed("id: bad\x01id\ndata: d\n\n").size(), std::size_t(1));
    QCOMPARE(ids.lastEventId(), std::string());
    QCOMPARE(ids.feed("id: " + std::string(McpSseReader::MaxEventIdBytes + 1, 'x') + "\ndata: e\n\n").size(),
             std::size_t(1));
    QCOMPARE(ids.lastEventId(), std::string());
}

std::unique_ptr<McpClientSession> TestMcpHttp::openFake(const QString &path, McpHttpTransport **transport)
{
    return openHttpFake(m_fakeUrl + path, transport);
}

// attack9: a server whose event stream goes on after the response (notifications every
// 0.1 s, never an end) held one of Qt's six connections to the host per call: the
// seventh call waited for a connection until its timeout. The stream is closed once
// the response came.
void TestMcpHttp::lingeringStreamsAreClosed()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/linger"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    for (int call = 1; call <= 8; ++call) {
        const McpReply reply = callAndWait(*session, QStringLiteral("t"));
        QVERIFY2(reply.ok(), qPrintable(QStringLiteral("call %1: %2").arg(call).arg(reply.errorText())));
        QCOMPARE(QByteArray::fromStdString(reply.result.dump()),
                 QByteArray("{\"content\":[{\"text\":\"ok\",\"type\":\"text\"}]}"));
    }
    QTRY_COMPARE_WITH_TIMEOUT(transport->openPosts(), std::size_t(0), 30000);
    session->close();
}

// attack9: a stream that drips a byte every 0.1 s and never answers: the call fails at
// its timeout, and its stream is closed with it (it held a connection for ever).
void TestMcpHttp::drippingStreamsAreClosedAtTheirTimeout()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/drip"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    for (int call = 1; call <= 7; ++call) {
        std::optional<McpReply> reply;
        session->callTool(
            QStringLiteral("t"), json::object(), json::object(), [&reply](const McpReply &r) { reply = r; }, 300);
        QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
        QCOMPARE(reply->failure, QStringLiteral("tools/call timed out after 0.3 s"));
    }
    // Every connection is free again: the next request is answered.
    std::optional<McpReply> listed;
    session->listTools([&listed](const std::vector<json> &, const McpReply &reply) { listed = reply; });
    QTRY_VERIFY_WITH_TIMEOUT(listed.has_value(), 60000);
    QVERIFY2(listed->ok(), qPrintable(listed->errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(transport->openPosts(), std::size_t(0), 30000);
    session->close();
}

// attack9: 2000 `ping` requests on one event stream (60 bytes each) were each answered
// with a POST of its own, all open at once (queued by Qt behind six connections: the
// studio grew by every one). At most MaxOpenPosts are open; and since attack39 F4 the
// session answers pings at McpAnswerBudget's pace only (the rest not at all).
void TestMcpHttp::pingFloodIsBounded()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/pings"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    std::optional<McpReply> reply;
    std::size_t mostOpen = 0;
    QElapsedTimer clock;
    clock.start();
    session->callTool(QStringLiteral("t"), json::object(), json::object(), [&reply](const McpReply &r) { reply = r; });
    QTRY_VERIFY_WITH_TIMEOUT((mostOpen = std::max(mostOpen, transport->openPosts()), reply.has_value()), 60000);
    QVERIFY2(reply->ok(), qPrintable(reply->errorText()));
    QVERIFY2(mostOpen <= McpHttpTransport::MaxOpenPosts, qPrintable(QString::number(mostOpen)));
    const qint64 answered = 2000 - session->unansweredServerRequests();
    QVERIFY2(answered >= McpAnswerBudget::Burst
                 && answered <= McpAnswerBudget::Burst + McpAnswerBudget::PerSecond * (clock.elapsed() / 1000 + 1),
             qPrintable(QStringLiteral("%1 pings answered in %2 ms").arg(answered).arg(clock.elapsed())));
    QTRY_COMPARE_WITH_TIMEOUT(transport->openPosts(), std::size_t(0), 30000);
    session->close();
}

QTEST_GUILESS_MAIN(TestMcpHttp)
#include "tst_mcphttp.moc"
