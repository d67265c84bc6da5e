// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// MCP's Streamable HTTP transport (issue 21 §1): `"url"` servers of toolstudio.json
// listed and called through the built toolstudio against the npm reference server
// (`server-everything streamableHttp`, installed by ./toolstudio.sh test into
// TOOLSTUDIO_MCP_SERVERS_DIR), and McpClientSession over McpHttpTransport against
// tests/data/mcp/fakehttpserver.py: a reply that is not JSON, an event stream cut in
// the middle of an event, an HTTP error.
#include "clirunner.h"
#include "everythingserver.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcphttpgetstream.h"
#include "mcp/mcphttptransport.h"
#include "mcp/mcpssereader.h"
#include "mcpsessionwaits.h"
#include "testfiles.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>

using nlohmann::json;

namespace {

/// Starts `server-everything streamableHttp` on a free port; its port, or 0.
quint16 startEverythingHttp(QProcess &server, const QString &entry)
{
    return startEverything(server, entry, QStringLiteral("streamableHttp"), "listening on port");
}

/// The data of the log messages (`notifications/message`) `session` receives from now
/// on, as JSON text.
std::shared_ptr<QStringList> collectLogs(McpClientSession &session)
{
    auto data = std::make_shared<QStringList>();
    QObject::connect(&session, &McpClientSession::notificationReceived, &session,
                     [data](const QString &method, const json &params) {
                         if (method == QLatin1String("notifications/message"))
                             *data << QString::fromStdString(params.value("data", json()).dump());
                     });
    return data;
}

/// This process's resident memory (VmRSS), in KiB; 0 when it cannot be read.
qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return 0;
}

} // namespace

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
    void getStreamOpenedAndResumed();
    void cutRequestStreamResumed();
    void resumeRefused();
    void quietGetStreamGivenUp();
    void referenceServerSendsOnTheGetStream();
    void getStreamFloodIsBounded();
    void sessionDeletedByGetStreamEvent();
    void sessionDeletedByResumedAnswer();
    void sessionDeletedByRefusedResume();
    void callTimedOutWhileResumeWaits();
    void sessionClosedWhileResumeWaits();
    void resumedStreamOfAnAnsweredCallIsClosed();
    void requestStreamFloodIsBounded();

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

// Issue 21: what a 2025-era server sends outside a request comes on the session's GET
// stream (it used to be lost: resource updates, list changes, log messages). The
// stream is opened once the session is initialized, and opened again after the
// server ends it, with the last event id (the server goes on from there).
void TestMcpHttp::getStreamOpenedAndResumed()
{
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + QStringLiteral("/getstream"));
    auto *transport = new McpHttpTransport(endpoint);
    McpClientSession session(transport);
    const auto logs = collectLogs(session);
    session.open();
    QVERIFY(waitReady(session));
    QTRY_COMPARE_WITH_TIMEOUT(logs->size(), 2, 30000);
    QCOMPARE(*logs, QStringList({QStringLiteral("\"first\""), QStringLiteral("\"again after g1\"")}));
    // Each GET's Last-Event-ID as the server saw it, a GET Qt sent again by itself (the
    // server closed the connection before reading it, attack39 F6) counted once.
    QCOMPARE(transport->getStreamRequests(), 2);
    QStringList lastEventIds;
    for (const json &id : stats(session).value("lastEventIds", json::array()))
        if (lastEventIds.isEmpty() || lastEventIds.last() != QString::fromStdString(id.get<std::string>()))
            lastEventIds << QString::fromStdString(id.get<std::string>());
    QCOMPARE(lastEventIds, QStringList({QString(), QStringLiteral("g1")}));
    QVERIFY(transport->getStream());
    QCOMPARE(transport->getStream()->lastEventId(), std::string("g2"));
    QCOMPARE(transport->getStreamEnd(), QString());
    QCOMPARE(transport->openPosts(), std::size_t(0)); // the session's stream is not a POST
    session.close();
    QTRY_VERIFY_WITH_TIMEOUT(!transport->isRunning(), 30000);
    QVERIFY(!transport->getStream()); // closed with the session
}

// 2025-11-25 "SSE polling": a server may end a request's event stream before the
// response once it sent an event with an id; the client resumes it with a GET carrying
// Last-Event-ID. It used to fail the call ("its event stream ended before the response").
void TestMcpHttp::cutRequestStreamResumed()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/resume"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    const auto logs = collectLogs(*session);
    const McpReply reply = callAndWait(*session, QStringLiteral("t"));
    QVERIFY2(reply.ok(), qPrintable(reply.errorText()));
    QCOMPARE(QByteArray::fromStdString(reply.result.dump()),
             QByteArray("{\"content\":[{\"text\":\"resumed after r1:2\",\"type\":\"text\"}]}"));
    QCOMPARE(*logs, QStringList({QStringLiteral("\"working\"")}));
    QTRY_COMPARE_WITH_TIMEOUT(transport->openPosts(), std::size_t(0), 30000);
    session->close();
}

// A cut stream whose resumption the server refuses fails its call, naming both.
void TestMcpHttp::resumeRefused()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/resume-noget"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    QCOMPARE(callAndWait(*session, QStringLiteral("t")).failure,
             QStringLiteral("the server's reply to request 2 could not be read: its event stream ended before the "
                            "response and could not be resumed: GET %1/resume-noget was answered with HTTP 405: Method "
                            "Not Allowed")
                 .arg(m_fakeUrl));
    QTRY_COMPARE_WITH_TIMEOUT(transport->openPosts(), std::size_t(0), 30000);
    // The session's own GET stream was refused the same way, and the session goes on.
    QCOMPARE(transport->getStreamEnd(),
             QStringLiteral("GET %1/resume-noget was answered with HTTP 405: Method Not Allowed").arg(m_fakeUrl));
    QCOMPARE(toolNames(*session), QStringList({QStringLiteral("t")}));
    session->close();
}

// A server that ends every GET stream at once, empty, is not asked again for ever.
void TestMcpHttp::quietGetStreamGivenUp()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/quiet"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    QTRY_VERIFY_WITH_TIMEOUT(!transport->getStreamEnd().isEmpty(), 30000);
    QCOMPARE(transport->getStreamEnd(),
             QStringLiteral("the server ended its event stream (GET %1/quiet) 5 times in a row with nothing in it")
                 .arg(m_fakeUrl));
    QVERIFY(!transport->getStream());
    QTest::qWait(300);
    QCOMPARE(transport->getStreamRequests(), 5);
    // The server may count one more: Qt sends a GET again by itself when the server
    // closed the connection before reading it (attack39 F6).
    const int served = stats(*session).value("gets", 0);
    QVERIFY2(served >= 5 && served <= 10, qPrintable(QString::number(served)));
    session->close();
}

// The reference server sends a session's simulated log messages outside any request:
// only the GET stream carries them.
void TestMcpHttp::referenceServerSendsOnTheGetStream()
{
    const QString entry = everythingEntry();
    if (entry.isEmpty())
        QSKIP(ReferenceServerMissing);
    QProcess server;
    const quint16 port = startEverythingHttp(server, entry);
    QVERIFY2(port != 0, "server-everything streamableHttp did not start");
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(QStringLiteral("http://127.0.0.1:%1/mcp").arg(port));
    auto *transport = new McpHttpTransport(endpoint);
    McpClientSession session(transport);
    const auto logs = collectLogs(session);
    session.open();
    QVERIFY(waitReady(session));
    QTRY_VERIFY_WITH_TIMEOUT(transport->getStream() && transport->getStream()->connections() == 1, 30000);
    const McpReply toggled = callAndWait(session, QStringLiteral("toggle-simulated-logging"));
    QVERIFY2(toggled.ok(), qPrintable(toggled.errorText()));
    // One at once, then one every 5 s, each naming the session. (The server also logs
    // what it did with the roots it asked for on the same stream.)
    const QString sessionId = QString::fromLatin1(transport->sessionId());
    const auto simulated = [&] {
        QStringList found;
        for (const QString &data : *logs)
            if (data.contains(QLatin1String("-level message")) || data.contains(QLatin1String(" level-message")))
                found << data;
        return found;
    };
    QTRY_VERIFY_WITH_TIMEOUT(simulated().size() >= 2, 30000);
    for (const QString &data : simulated())
        QVERIFY2(data.endsWith(QStringLiteral(" - SessionId %1\"").arg(sessionId)), qPrintable(data));

    // A subscribed resource's updates come there too (the dock's subscriptions over HTTP).
    QStringList updated;
    connect(&session, &McpClientSession::notificationReceived, this,
            [&updated](const QString &method, const json &params) {
                if (method == QLatin1String("notifications/resources/updated"))
                    updated << QString::fromStdString(params.value("uri", ""));
            });
    std::optional<McpReply> subscribed;
    session.request(QStringLiteral("resources/subscribe"), {{"uri", "demo://resource/dynamic/text/1"}},
                    [&subscribed](const McpReply &reply) { subscribed = reply; });
    QTRY_VERIFY_WITH_TIMEOUT(subscribed.has_value(), 30000);
    QVERIFY2(subscribed->ok(), qPrintable(subscribed->errorText()));
    const McpReply updates = callAndWait(session, QStringLiteral("toggle-subscriber-updates"));
    QVERIFY2(updates.ok(), qPrintable(updates.errorText()));
    QTRY_VERIFY_WITH_TIMEOUT(!updated.isEmpty(), 30000);
    QCOMPARE(updated.first(), QStringLiteral("demo://resource/dynamic/text/1"));
    QCOMPARE(transport->getStream()->connections(), 1);
    QCOMPARE(transport->getStreamEnd(), QString());
    session.close();
    server.kill();
    server.waitForFinished();
}

// attack39: a GET stream that sends log messages as fast as the socket takes them. The
// studio read the socket with no bound (QNetworkReply's read buffer is unlimited by
// default): what the main thread had not parsed yet piled up in memory, ~0.5 GB a
// second (8.5 GB after 16 s with `toolstudio mcp call`), and the replies of other
// requests waited behind it (the call never came). The fake sends 512 MiB so: the
// studio must not grow by half of it, nor keep a call from its answer.
void TestMcpHttp::getStreamFloodIsBounded()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/getflood"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    const qint64 before = residentKiB();
    QVERIFY(before > 0);
    qint64 grown = 0;
    std::optional<McpReply> reply;
    session->callTool(
        QStringLiteral("t"), json::object(), json::object(), [&reply](const McpReply &r) { reply = r; }, 10000);
    // Watched for 3 s: the wait ends early only when the bound is broken.
    const bool grewPastBound = QTest::qWaitFor(
        [&] {
            grown = std::max(grown, residentKiB() - before);
            return grown > 256 * 1024;
        },
        3000);
    QVERIFY2(!grewPastBound, qPrintable(QStringLiteral("grew by %1 KiB in 3 s").arg(grown)));
    QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 15000);
    QVERIFY2(reply->ok(), qPrintable(reply->errorText()));
    session->close();
}

// attack39: a slot that deletes the session (and its transport) when a message comes on
// the session's GET stream: nothing may be touched after (ASan build).
void TestMcpHttp::sessionDeletedByGetStreamEvent()
{
    McpHttpTransport *transport = nullptr;
    auto session = openFake(QStringLiteral("/getsay"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    bool heard = false;
    connect(session.get(), &McpClientSession::notificationReceived, this, [&](const QString &method, const json &) {
        if (method != QLatin1String("notifications/message"))
            return;
        heard = true;
        session.reset();
    });
    QTRY_VERIFY_WITH_TIMEOUT(heard, 30000);
    QVERIFY(!session);
    QTest::qWait(300); // what was queued for the deleted transport's replies
}

// attack39: the call's callback deletes the session when the answer comes on the GET
// that resumed its cut stream.
void TestMcpHttp::sessionDeletedByResumedAnswer()
{
    McpHttpTransport *transport = nullptr;
    auto session = openFake(QStringLiteral("/resume"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    std::optional<McpReply> reply;
    session->callTool(QStringLiteral("t"), json::object(), json::object(), [&](const McpReply &r) {
        reply = r;
        session.reset();
    });
    QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
    QVERIFY2(reply->ok(), qPrintable(reply->errorText()));
    QVERIFY(!session);
    QTest::qWait(300);
}

// attack39: the call's callback deletes the session when the resumption is refused
// (the GET stream's ended()).
void TestMcpHttp::sessionDeletedByRefusedResume()
{
    McpHttpTransport *transport = nullptr;
    auto session = openFake(QStringLiteral("/resume-noget"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    std::optional<McpReply> reply;
    session->callTool(QStringLiteral("t"), json::object(), json::object(), [&](const McpReply &r) {
        reply = r;
        session.reset();
    });
    QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
    QVERIFY(!reply->ok());
    QVERIFY(!session);
    QTest::qWait(300);
}

// attack39: a call that times out while its cut stream waits for the server's retry time
// (500 ms) is not resumed afterwards.
void TestMcpHttp::callTimedOutWhileResumeWaits()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/resumewait"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    const int before = stats(*session).value("gets", 0);
    std::optional<McpReply> reply;
    session->callTool(
        QStringLiteral("t"), json::object(), json::object(), [&reply](const McpReply &r) { reply = r; }, 300);
    QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
    QCOMPARE(reply->failure, QStringLiteral("tools/call timed out after 0.3 s"));
    QTRY_COMPARE_WITH_TIMEOUT(transport->openPosts(), std::size_t(0), 3000); // notifications/cancelled's POST
    QTest::qWait(1000);
    QCOMPARE(stats(*session).value("gets", 0), before);
    session->close();
}

// attack39: the session closed while a cut stream waits for its retry time: no GET after.
void TestMcpHttp::sessionClosedWhileResumeWaits()
{
    McpHttpTransport *transport = nullptr;
    auto session = openFake(QStringLiteral("/resumewait"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    const int before = stats(*session).value("gets", 0);
    std::optional<McpReply> reply;
    session->callTool(QStringLiteral("t"), json::object(), json::object(), [&reply](const McpReply &r) { reply = r; });
    QTest::qWait(200); // the stream is cut; its resumption waits 500 ms
    QVERIFY(!reply);
    QCOMPARE(transport->openPosts(), std::size_t(1)); // the request being resumed
    session->close();
    QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
    QVERIFY(!reply->ok());
    QTest::qWait(1000);
    McpHttpTransport *other = nullptr;
    const auto again = openFake(QStringLiteral("/resumewait"), &other);
    QCOMPARE(stats(*again).value("gets", 0), before);
    again->close();
}

// attack39: a call whose cut stream is being resumed, answered on another stream (the
// session's GET): the resumed GET, which the server keeps open, belongs to no request
// any more, yet it stayed open for ever (no timeout: the call's timer went with its
// answer), a connection held and one of MaxOpenPosts taken per such call: the eighth
// such call waited for a connection until its timeout (Qt's connections to the host
// were all held), and every request after it.
void TestMcpHttp::resumedStreamOfAnAnsweredCallIsClosed()
{
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/elsewhere"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    for (int call = 1; call <= 8; ++call) {
        std::optional<McpReply> reply;
        session->callTool(
            QStringLiteral("t"), json::object(), json::object(), [&reply](const McpReply &r) { reply = r; }, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
        QVERIFY2(reply->ok(), qPrintable(QStringLiteral("call %1: %2").arg(call).arg(reply->errorText())));
        QCOMPARE(QByteArray::fromStdString(reply->result.dump()),
                 QByteArray("{\"content\":[{\"text\":\"answered elsewhere\",\"type\":\"text\"}]}"));
    }
    QTRY_COMPARE_WITH_TIMEOUT(transport->openPosts(), std::size_t(0), 3000);
    session->close();
}

// attack39 F3: a flood on a request's own event stream grew the studio as fast as the
// server sent (18 GB in 18 s with `toolstudio mcp call`): Qt's HTTP thread read a POST's
// reply without bound, the read buffer's size being set before the request started.
// 64 MiB of log messages before the response: the studio reads them at its own pace.
void TestMcpHttp::requestStreamFloodIsBounded()
{
#if defined(__SANITIZE_ADDRESS__)
    // Its quarantine keeps freed memory (up to 256 MiB): the resident size measures the
    // churn of reading the flood there, not what is kept (57 MB measured with the bound).
    QSKIP("the resident size is no measure of what is kept under AddressSanitizer");
#endif
    McpHttpTransport *transport = nullptr;
    const auto session = openFake(QStringLiteral("/postflood"), &transport);
    QCOMPARE(session->state(), McpClientSession::State::Ready);
    const qint64 before = residentKiB();
    QVERIFY(before > 0);
    qint64 grown = 0;
    std::optional<McpReply> reply;
    session->callTool(
        QStringLiteral("t"), json::object(), json::object(), [&reply](const McpReply &r) { reply = r; }, 300000);
    const bool ended = QTest::qWaitFor(
        [&] {
            grown = std::max(grown, residentKiB() - before);
            return reply.has_value() || grown > 32 * 1024;
        },
        300000);
    QVERIFY2(ended, "neither answered nor grown past the bound in 300 s");
    QVERIFY2(grown <= 32 * 1024, qPrintable(QStringLiteral("grew by %1 KiB").arg(grown)));
    QVERIFY(reply.has_value());
    QVERIFY2(reply->ok(), qPrintable(reply->errorText()));
    session->close();
}

QTEST_GUILESS_MAIN(TestMcpHttp)
#include "tst_mcphttp.moc"
