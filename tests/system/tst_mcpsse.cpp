// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// MCP's older HTTP+SSE transport (protocol revision 2024-11-05) and the spec's fallback
// to it from a `url` entry without a type: the npm reference server (`server-everything
// sse`, installed by ./toolstudio.sh test into TOOLSTUDIO_MCP_SERVERS_DIR) listed, called
// from a script as a durable step and replayed from the journal, through the built toolstudio;
// McpSseTransport and McpHttpFallbackTransport against tests/data/mcp/fakesseserver.py:
// an endpoint of another origin, a stream that ends before the response, an event over
// the bound, a URL that is neither transport, and the pool remembering the fallback.
#include "clirunner.h"
#include "everythingserver.h"
#include "mcp/mcpclientsession.h"
#include "mcp/mcphttpfallbacktransport.h"
#include "mcp/mcpserverpool.h"
#include "mcp/mcpssetransport.h"
#include "mcpsessionwaits.h"
#include "testfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

using nlohmann::json;

namespace {

bool settled(McpClientSession &session)
{
    return QTest::qWaitFor([&] { return session.state() != McpClientSession::State::Initializing; }, 60000);
}

/// "SEQUENCE TOOL STATUS" of every final step event of `run --json`, in order.
QByteArray stepLines(const QByteArray &out)
{
    QByteArray lines;
    for (const json &step : jsonEvents(out, "step")) {
        const std::string status = step.value("status", "");
        if (status == "succeeded" || status == "failed" || status == "memoized")
            lines += QByteArray::number(step.value("sequence", 0)) + ' '
                + QByteArray::fromStdString(step.value("tool", "")) + ' ' + QByteArray::fromStdString(status) + '\n';
    }
    return lines;
}

} // namespace

class TestMcpSse : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void referenceServerOverSse();
    void referenceServerFallbackFromATypelessUrl();
    void endpointOfAnotherOriginIsRefused_data();
    void endpointOfAnotherOriginIsRefused();
    void streamEndingBeforeTheResponseFailsTheCall();
    void eventOverTheBoundFailsItsRequest();
    void neitherTransportNamesBoth();
    void streamWithoutAnEndpointEventTimesOut();
    void poolRemembersTheFallback();

private:
    /// Starts the reference server in its HTTP+SSE mode; its base URL, or "" (skip or fail).
    QString startEverything();
    QString writeProject(const QTemporaryDir &dir, const QByteArray &entry);

    QProcess m_fake;
    QString m_fakeUrl;
    std::unique_ptr<QProcess> m_everything;
};

void TestMcpSse::initTestCase()
{
    m_fake.setProgram(QStandardPaths::findExecutable(QStringLiteral("python3")));
    m_fake.setArguments({mcpFixture("fakesseserver.py")});
    m_fake.start();
    QVERIFY(m_fake.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_fake.canReadLine(), 30000);
    m_fakeUrl = QStringLiteral("http://127.0.0.1:%1").arg(QString::fromLatin1(m_fake.readLine().trimmed()));
}

void TestMcpSse::cleanupTestCase()
{
    m_fake.kill();
    m_fake.waitForFinished();
    if (m_everything) {
        m_everything->kill();
        m_everything->waitForFinished();
    }
}

QString TestMcpSse::startEverything()
{
    const QString entry = everythingEntry();
    if (entry.isEmpty())
        return {};
    if (m_everything) {
        m_everything->kill();
        m_everything->waitForFinished();
    }
    m_everything = std::make_unique<QProcess>();
    const quint16 port = ::startEverything(*m_everything, entry, QStringLiteral("sse"), "Server is running on port");
    if (port == 0)
        return {};
    return QStringLiteral("http://127.0.0.1:%1").arg(port);
}

QString TestMcpSse::writeProject(const QTemporaryDir &dir, const QByteArray &entry)
{
    const QByteArray config = "{\"name\": \"sse\", \"mcp_servers\": {\"everything\": " + entry + "}}";
    return writeFile(dir.filePath(QStringLiteral("toolstudio.json")), config) ? dir.path() : QString();
}

// `"type": "sse"`: listed, and echo called by a script as a durable step that the replay
// answers from the journal.
void TestMcpSse::referenceServerOverSse()
{
    if (everythingEntry().isEmpty())
        QSKIP(ReferenceServerMissing);
    const QString base = startEverything();
    QVERIFY(!base.isEmpty());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = writeProject(
        dir,
        "{\"url\": \"" + base.toUtf8() + "/sse\", \"type\": \"sse\", \"headers\": {\"X-Client\": \"tst_mcpsse\"}}");
    QVERIFY(!project.isEmpty());

    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    const QByteArray head = list.out.left(list.out.indexOf('\n'));
    QVERIFY2(head.startsWith("everything  ready  MCP 2025-") && head.contains(" (HTTP+SSE)  mcp-servers/everything "),
             list.out.constData());
    QVERIFY2(list.out.contains("\n  everything__echo  "), list.out.constData());
    QVERIFY2(list.out.contains("\n  everything__get-sum  "), list.out.constData());
    const CommandResult listed
        = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project, QStringLiteral("--json")});
    QVERIFY2(listed.exitCode == 0, listed.out + listed.err);
    const json servers = json::parse(listed.out.toStdString());
    QCOMPARE(QByteArray::fromStdString(servers.at(0).value("transport", "")), QByteArray("HTTP+SSE"));
    QCOMPARE(QByteArray::fromStdString(servers.at(0).value("era", "")), QByteArray("legacy"));

    const QString script = dir.filePath(QStringLiteral("scripts/echo.py"));
    QVERIFY(writeFile(script,
                      QByteArray("from toolstudio import tools\n"
                                 "print(tools['everything__echo'](message='über sse')['content'][0]['text'])\n")));
    const CommandResult run = toolstudio({QStringLiteral("run"), project, script, QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.out + run.err);
    QCOMPARE(scriptStdout(run.out), QByteArray("Echo: über sse\n"));
    QCOMPARE(stepLines(run.out), QByteArray("1 everything__echo succeeded\n"));

    // Replayed: answered from the journal (the tools are still listed by the server).
    const auto runs = jsonEvents(run.out, "run");
    QVERIFY(!runs.empty());
    const CommandResult replay
        = toolstudio({QStringLiteral("replay"), project, QString::fromStdString(runs.front().value("id", "")),
                      QStringLiteral("--json")});
    QVERIFY2(replay.exitCode == 0, replay.out + replay.err);
    QCOMPARE(scriptStdout(replay.out), QByteArray("Echo: über sse\n"));
    QCOMPARE(stepLines(replay.out), QByteArray("1 everything__echo memoized\n"));
}

// A `url` without a type: Streamable HTTP first (POST /sse is 404 at the reference
// server), then HTTP+SSE, which answers; `mcp list` and `mcp call` say and use it.
void TestMcpSse::referenceServerFallbackFromATypelessUrl()
{
    if (everythingEntry().isEmpty())
        QSKIP(ReferenceServerMissing);
    const QString base = startEverything();
    QVERIFY(!base.isEmpty());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = writeProject(dir, "{\"url\": \"" + base.toUtf8() + "/sse\"}");
    QVERIFY(!project.isEmpty());

    const CommandResult list = toolstudio({QStringLiteral("mcp"), QStringLiteral("list"), project});
    QVERIFY2(list.exitCode == 0, list.out + list.err);
    QVERIFY2(list.out.left(list.out.indexOf('\n')).contains(" (HTTP+SSE)  mcp-servers/everything "),
             list.out.constData());
    QVERIFY2(list.out.contains("\n  everything__echo  "), list.out.constData());

    const CommandResult echo = toolstudio({QStringLiteral("mcp"), QStringLiteral("call"), project,
                                           QStringLiteral("everything"), QStringLiteral("echo"),
                                           QStringLiteral("--args"), QStringLiteral("{\"message\": \"fell back\"}")});
    QVERIFY2(echo.exitCode == 0, echo.out + echo.err);
    QCOMPARE(echo.out,
             QByteArray("{\n  \"content\": [\n    {\n      \"text\": \"Echo: fell back\",\n      \"type\": "
                        "\"text\"\n    }\n  ]\n}\n"));
}

void TestMcpSse::endpointOfAnotherOriginIsRefused_data()
{
    QTest::addColumn<bool>("typeless");
    QTest::newRow("type sse") << false;
    QTest::newRow("fallen back to") << true;
}

// A server must not steer the studio's POSTs (with the entry's headers) elsewhere.
void TestMcpSse::endpointOfAnotherOriginIsRefused()
{
    QFETCH(bool, typeless);
    McpSseTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + QStringLiteral("/sse/elsewhere"));
    endpoint.headers.append({QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer secret")});
    McpTransport *transport = typeless ? static_cast<McpTransport *>(new McpHttpFallbackTransport(endpoint, nullptr))
                                       : new McpSseTransport(endpoint);
    McpClientSession session(transport);
    session.open();
    QVERIFY(settled(session));
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    const QString expected = QStringLiteral("named another origin in its endpoint event, http://evil.example:8080, "
                                            "than its URL's %1 (scheme, host and port must be the same: the "
                                            "studio sends its messages, with the entry's headers and token, only "
                                            "where it connected)")
                                 .arg(m_fakeUrl);
    if (typeless)
        QCOMPARE(session.failure(),
                 QStringLiteral("the server did not take initialize over Streamable HTTP (HTTP 404 from "
                                "%1/sse/elsewhere: Cannot POST /sse/elsewhere), nor over the older HTTP+SSE "
                                "transport: it %2")
                     .arg(m_fakeUrl, expected));
    else
        QCOMPARE(session.failure(), QStringLiteral("the server ") + expected);
}

void TestMcpSse::streamEndingBeforeTheResponseFailsTheCall()
{
    McpSseTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + QStringLiteral("/sse/ends"));
    auto *transport = new McpSseTransport(endpoint);
    McpClientSession session(transport);
    QSignalSpy closed(&session, &McpClientSession::closed);
    session.open();
    QVERIFY(settled(session));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    QCOMPARE(session.protocolVersion(), QStringLiteral("2024-11-05"));
    QCOMPARE(transport->messageUrl().path(), QStringLiteral("/message/ends"));
    const QString why = QStringLiteral("the server ended its event stream (GET %1/sse/ends)").arg(m_fakeUrl);
    QCOMPARE(callAndWait(session, QStringLiteral("t")).failure, why);
    QCOMPARE(closed.count(), 1);
    QCOMPARE(closed.at(0).at(0).toString(), why);
    QCOMPARE(session.state(), McpClientSession::State::Closed);
    QVERIFY(!transport->isRunning());
}

void TestMcpSse::eventOverTheBoundFailsItsRequest()
{
    McpSseTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + QStringLiteral("/sse/huge"));
    McpClientSession session(new McpSseTransport(endpoint));
    session.open();
    QVERIFY(settled(session));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    // Its id is read from the event's first bytes: the call fails now, not at its timeout.
    QCOMPARE(callAndWait(session, QStringLiteral("t")).failure,
             QStringLiteral("the server's reply to request 2 could not be read: an event of more than 67108864 "
                            "bytes is over the limit; it was skipped"));
    // The stream goes on: the next request is answered.
    std::optional<McpReply> listed;
    std::size_t count = 0;
    session.listTools([&](const std::vector<json> &tools, const McpReply &reply) {
        listed = reply;
        count = tools.size();
    });
    QTRY_VERIFY_WITH_TIMEOUT(listed.has_value(), 30000);
    QVERIFY2(listed->ok(), qPrintable(listed->errorText()));
    QCOMPARE(count, std::size_t(2));
    session.close();
}

// A typeless URL that is neither: the POST's 400, then the GET's 404, both named.
void TestMcpSse::neitherTransportNamesBoth()
{
    McpHttpTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + QStringLiteral("/nothing"));
    McpClientSession session(new McpHttpFallbackTransport(endpoint, nullptr));
    session.open();
    QVERIFY(settled(session));
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    QCOMPARE(session.failure(),
             QStringLiteral("the server did not take initialize over Streamable HTTP (HTTP 400 from %1/nothing: no "
                            "such session), nor over the older HTTP+SSE transport: it answered GET %1/nothing with "
                            "HTTP 404")
                 .arg(m_fakeUrl));
}

// A stream that only keeps alive: the start fails at the endpoint timeout, naming it.
void TestMcpSse::streamWithoutAnEndpointEventTimesOut()
{
    McpSseTransport::Endpoint endpoint;
    endpoint.url = QUrl(m_fakeUrl + QStringLiteral("/sse/silent"));
    auto *transport = new McpSseTransport(endpoint);
    transport->setEndpointTimeout(500);
    McpClientSession session(transport);
    session.open();
    QVERIFY(settled(session));
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    QCOMPARE(session.failure(),
             QStringLiteral("the server sent no endpoint event within 0.5 s on its event stream (GET %1/sse/silent)")
                 .arg(m_fakeUrl));
    QVERIFY(!transport->isRunning());
}

// The pool starts a typeless server that answered only over HTTP+SSE over HTTP+SSE
// again: after its stream ended, the next call reconnects without a POST to the URL.
void TestMcpSse::poolRemembersTheFallback()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    McpServerConfig config;
    config.name = QStringLiteral("old");
    config.transport = McpServerConfig::Transport::StreamableHttp; // a url without "type"
    config.url = m_fakeUrl + QStringLiteral("/sse/remember");
    McpServerPool pool(dir.path());
    pool.setServers({config});
    pool.connectAll();
    QTRY_VERIFY_WITH_TIMEOUT(pool.settled(), 60000);
    const McpServerStatus *status = pool.server(QStringLiteral("old"));
    QVERIFY2(status->state == McpServerStatus::State::Ready, qPrintable(status->error));
    QCOMPARE(status->transport, QStringLiteral("HTTP+SSE"));
    QCOMPARE(status->protocolVersion, QStringLiteral("2024-11-05"));

    const auto call = [&pool](const QString &tool) {
        std::optional<McpCallOutcome> outcome;
        pool.call(QStringLiteral("old"), tool, json::object(), json::object(),
                  [&outcome](const McpCallOutcome &done) { outcome = done; });
        (void)QTest::qWaitFor([&outcome] { return outcome.has_value(); }, 60000);
        return outcome.value_or(
            McpCallOutcome{McpReply{{}, {}, QStringLiteral("no reply within 60 s")}, {}, {}, {}, {}, {}});
    };
    const McpCallOutcome ended = call(QStringLiteral("t"));
    QCOMPARE(ended.reply.failure,
             QStringLiteral("the server ended its event stream (GET %1/sse/remember)").arg(m_fakeUrl));
    QTRY_COMPARE_WITH_TIMEOUT(status->state, McpServerStatus::State::Idle, 30000);

    const McpCallOutcome stats = call(QStringLiteral("stats"));
    QVERIFY2(stats.reply.ok(), qPrintable(stats.reply.errorText()));
    // The first start: the probe and initialize POSTed (404), then the stream; the
    // second: the stream only.
    QCOMPARE(
        QByteArray::fromStdString(stats.reply.result.dump()),
        QByteArray("{\"content\":[{\"text\":\"{\\\"posts_to_sse\\\": 2, \\\"streams\\\": 2}\",\"type\":\"text\"}]}"));
    QCOMPARE(status->transport, QStringLiteral("HTTP+SSE"));
}

QTEST_GUILESS_MAIN(TestMcpSse)
#include "tst_mcpsse.moc"
