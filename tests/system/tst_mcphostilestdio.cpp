// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// McpClientSession over stdio against the modes of tests/data/mcp/fakeserver.py that
// fight the studio: a server that does not read its stdin or sends tools/list pages of
// 6 MiB (what the studio holds is bounded), texts made to mislead or flood a terminal
// (printable and cut), children that keep its pipes, a server that ignores shutdown
// (killed and reaped), answers that come while a callback deletes the session.
#include "mcp/mcpclientsession.h"
#include "mcp/mcpserverlaunch.h"
#include "mcpsessionwaits.h"
#include "project/mcpserverconfig.h"
#include "python/secrets.h"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

class TestMcpHostileStdio : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serverThatDoesNotReadIsStopped();
    void hostileTextsArePrintableAndBounded();
    void hostileRevisionIsPrintableAndBounded();
    void hugePagesStop();
    void duplicateResponseAndDeleteInCallback();
    void childKeepsPipesOpen_data();
    void childKeepsPipesOpen();
    void serverThatIgnoresShutdownIsKilled();
    void deleteWhileFailingAll();
};

void TestMcpHostileStdio::serverThatDoesNotReadIsStopped()
{
    // Pings with 30 MiB ids whose answers the server never reads: what waits for its
    // stdin is bounded, the server is killed and the call fails naming why.
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("deaf")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    std::optional<McpReply> answered;
    // 66 MiB to read and answer: a debug build on a busy machine takes a while.
    session.callTool(
        QStringLiteral("tool-0"), json::object(), nullptr, [&](const McpReply &r) { answered = r; }, 290000);
    QTRY_VERIFY_WITH_TIMEOUT(answered.has_value(), 300000);
    const McpReply reply = *answered;
    QCOMPARE(reply.failure,
             QStringLiteral("the server does not read its stdin: more than 64 MiB of the studio's messages wait "
                            "for it; it was killed"));
    QCOMPARE(session.state(), McpClientSession::State::Closed);
    QVERIFY(!session.transport()->isRunning());
}

void TestMcpHostileStdio::hostileTextsArePrintableAndBounded()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("hostile")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    // serverInfo "fake" and capabilities [1] are not objects: kept as empty objects, so
    // reading a member of them cannot throw.
    QCOMPARE(session.serverInfo().dump(), std::string("{}"));
    QCOMPARE(session.serverCapabilities().dump(), std::string("{}"));
    QCOMPARE(session.serverInfo().value("name", ""), std::string());

    const McpReply error = callAndWait(session, QStringLiteral("error"), json::object());
    QCOMPARE(error.error.code, -32000);
    QCOMPARE(error.errorText(),
             QStringLiteral("-32000: \\u001b[31mred\\u001b[0m\\r\\u202eevil") + QString(2000 - 18, u'm')
                 + QStringLiteral("… (98018 bytes dropped)"));

    const McpReply died = callAndWait(session, QStringLiteral("boom"), json::object());
    QCOMPARE(died.failure,
             QStringLiteral("the server exited with code 4; its stderr ends with:\n…") + QString(1996, u'e')
                 + QStringLiteral("\\u001b[2J"));
}

void TestMcpHostileStdio::hostileRevisionIsPrintableAndBounded()
{
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("revision")));
    QCOMPARE(session.state(), McpClientSession::State::Failed);
    QCOMPARE(session.failure(),
             QStringLiteral("the server speaks MCP revision \"\\u001b[2J") + QString(36, u'v')
                 + QStringLiteral("… (99964 bytes dropped)\", which the studio does not (it speaks 2025-11-25, "
                                  "2025-06-18, 2025-03-26, 2024-11-05)"));
}

void TestMcpHostileStdio::hugePagesStop()
{
    // Pages of 6 MiB of tools, each with a next cursor: the listing stops once the tools
    // it holds pass 16 MiB, not after 100 pages (600 MB).
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("bigpages")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    McpReply listed;
    QVERIFY(listAndWait(session, &listed).empty());
    QCOMPARE(listed.failure,
             QStringLiteral("the server's tools/list pages add up to more than 16 MiB (at page 3); the studio "
                            "stopped there"));
    QCOMPARE(session.state(), McpClientSession::State::Ready);
}

void TestMcpHostileStdio::duplicateResponseAndDeleteInCallback()
{
    // The server answers tools/call twice in one write; the callback deletes the session
    // (and with it the transport that is still handing out that write's messages).
    auto *session = new McpClientSession;
    QPointer<McpClientSession> alive(session);
    openAndWait(*session, fakeServer(QStringLiteral("twice")));
    QVERIFY2(session->state() == McpClientSession::State::Ready, qPrintable(session->failure()));
    int replies = 0;
    session->callTool(QStringLiteral("tool-0"), json::object(), nullptr, [&](const McpReply &reply) {
        ++replies;
        QVERIFY(reply.ok());
        delete session;
    });
    QTRY_VERIFY_WITH_TIMEOUT(alive.isNull(), 60000);
    QTest::qWait(100); // the rest of the write, had the transport gone on reading it
    QCOMPARE(replies, 1);

    McpClientSession kept;
    openAndWait(kept, fakeServer(QStringLiteral("twice")));
    QVERIFY(callAndWait(kept, QStringLiteral("tool-0"), json::object()).ok());
    QTRY_COMPARE(kept.unmatchedResponses(), 1LL);
}

void TestMcpHostileStdio::childKeepsPipesOpen_data()
{
    QTest::addColumn<bool>("confined");
    QTest::newRow("plain") << false;
    // How a project's servers run: under toolstudio-sandbox (attack27 F7: its children
    // outlived a dropped server, a wrapper's child per reload).
    QTest::newRow("confined") << true;
}

void TestMcpHostileStdio::childKeepsPipesOpen()
{
    // The server exits while a child of its own still holds its stdout and stderr: the
    // session ends when the server does, not when the child lets go of the pipes, and
    // the child (in the server's process group) is killed. So is the child of a server
    // that is closed (stdin's end, which the child does not read).
    QFETCH(bool, confined);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto launch = [&]() -> McpStdioTransport::Launch {
        if (!confined)
            return fakeServer(QStringLiteral("forker"));
        QDir(dir.path()).mkdir(QStringLiteral("srv"));
        QFile::copy(qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py"),
                    dir.filePath(QStringLiteral("srv/fakeserver.py")));
        McpServerConfig server;
        server.name = QStringLiteral("forker");
        server.command = QStringLiteral("python3");
        server.args = {QStringLiteral("srv/fakeserver.py"), QStringLiteral("forker")};
        server.sandboxed = true;
        server.read = {QStringLiteral("srv")};
        server.network = false;
        QString why;
        const Secrets secrets = Secrets::load(dir.path());
        const auto boxed = McpServerLaunch::forServer(server, dir.path(), secrets, &why);
        return boxed.value_or(McpStdioTransport::Launch{});
    }();
    const auto gone = [](qint64 pid) {
        QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
        return !file.open(QIODevice::ReadOnly) || file.readAll().contains(") Z "); // reaped, or a zombie
    };

    McpClientSession session;
    openAndWait(session, launch);
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    const McpReply reply = callAndWait(session, QStringLiteral("tool-0"), json::object());
    const QString prefix = QStringLiteral("the server exited with code 5; its stderr ends with:\nchild ");
    QVERIFY2(reply.failure.startsWith(prefix), qPrintable(reply.failure));
    QCOMPARE(session.state(), McpClientSession::State::Closed);
    const qint64 child = reply.failure.mid(prefix.size()).toLongLong();
    QVERIFY(child > 0);
    QTRY_VERIFY_WITH_TIMEOUT(gone(child), 10000);

    McpClientSession closing;
    openAndWait(closing, launch);
    QVERIFY2(closing.state() == McpClientSession::State::Ready, qPrintable(closing.failure()));
    auto *transport = qobject_cast<McpStdioTransport *>(closing.transport());
    QVERIFY(transport);
    QTRY_VERIFY_WITH_TIMEOUT(transport->stderrTail().contains(u'\n'), 10000);
    const QString tail = transport->stderrTail();
    QVERIFY2(tail.startsWith(QStringLiteral("child ")), qPrintable(tail));
    const qint64 second = tail.mid(6).trimmed().toLongLong();
    QVERIFY(second > 0);
    QVERIFY(!gone(second));
    closing.close();
    QTRY_VERIFY_WITH_TIMEOUT(gone(second), 10000);
}

void TestMcpHostileStdio::serverThatIgnoresShutdownIsKilled()
{
    // Closing a session closes the server's stdin, then sends SIGTERM, then SIGKILL
    // (StopGraceMs apart): a server that ignores both is killed, never left running.
    McpClientSession session;
    openAndWait(session, fakeServer(QStringLiteral("stubborn")));
    QVERIFY2(session.state() == McpClientSession::State::Ready, qPrintable(session.failure()));
    auto *transport = qobject_cast<McpStdioTransport *>(session.transport());
    QVERIFY(transport);
    const qint64 pid = transport->processId();
    QVERIFY(pid > 0);
    QString why;
    connect(transport, &McpTransport::finished, this, [&why](const QString &reason) { why = reason; });
    session.close();
    QTRY_VERIFY_WITH_TIMEOUT(!why.isEmpty(), 30000);
    QCOMPARE(why, QStringLiteral("killed by signal 9"));
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    QVERIFY(!stat.open(QIODevice::ReadOnly) || stat.readAll().contains(") Z ")); // reaped, or a zombie
}

void TestMcpHostileStdio::deleteWhileFailingAll()
{
    // Two calls open when the server dies; the first one's callback deletes the session:
    // the second still gets its reply, once, and nothing of the session is touched after.
    auto *session = new McpClientSession;
    QPointer<McpClientSession> alive(session);
    openAndWait(*session, fakeServer(QStringLiteral("crash")));
    QVERIFY(session->state() == McpClientSession::State::Ready);
    QStringList failures;
    session->callTool(QStringLiteral("tool-0"), json::object(), nullptr, [&](const McpReply &reply) {
        failures << reply.failure.section(u';', 0, 0);
        delete session;
    });
    session->callTool(QStringLiteral("tool-1"), json::object(), nullptr,
                      [&](const McpReply &reply) { failures << reply.failure.section(u';', 0, 0); });
    QTRY_VERIFY_WITH_TIMEOUT(alive.isNull(), 60000);
    QTest::qWait(100);
    QCOMPARE(failures,
             QStringList({QStringLiteral("the server exited with code 3")})
                 << QStringLiteral("the server exited with code 3"));
}

QTEST_GUILESS_MAIN(TestMcpHostileStdio)
#include "tst_mcphostilestdio.moc"
