// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A 2026-07-28 server over Streamable HTTP that moved a tool's x-mcp-header since the
// studio listed its tools answers the call HeaderMismatch (-32020): the pool lists the
// tools again and sends the call once more (streamable-http, a SHOULD) — through the
// changed-tool check, so the moved header is a change a person accepts before the call
// goes. A server answering HeaderMismatch again ends the call with it: one listing per
// call, no loop. Against tests/data/mcp/fakehttpserver.py /moving-header, and
// tests/data/mcp/fakeserver.py storm (a change announced before every listing).
#include "mcp/mcpserverpool.h"
#include "portserver.h"
#include "testfiles.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <optional>

using nlohmann::json;

namespace {

/// `tool` of the fake's server called through `pool`, waited for.
McpCallOutcome callAndWait(McpServerPool &pool, const QString &tool, const json &arguments = json::object(),
                           const QString &server = QStringLiteral("moving"))
{
    std::optional<McpCallOutcome> outcome;
    pool.call(server, tool, arguments, json::object(), [&outcome](const McpCallOutcome &done) { outcome = done; });
    (void)QTest::qWaitFor([&outcome] { return outcome.has_value(); }, 60000);
    if (!outcome) {
        McpCallOutcome none;
        none.reply.failure = QStringLiteral("no outcome within 60 s");
        return none;
    }
    return *outcome;
}

QString text(const McpCallOutcome &outcome)
{
    const json content
        = outcome.reply.result.is_object() ? outcome.reply.result.value("content", json::array()) : json::array();
    return content.empty() || !content[0].is_object() ? QString()
                                                      : QString::fromStdString(content[0].value("text", std::string()));
}

} // namespace

class TestMcpHeaderMismatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void movedHeaderIsListedAgainAndAsked();
    void aChangeAnnouncedWithEveryListingDoesNotHoldTheCall_data();
    void aChangeAnnouncedWithEveryListingDoesNotHoldTheCall();
};

void TestMcpHeaderMismatch::movedHeaderIsListedAgainAndAsked()
{
    PortServer fake;
    QVERIFY(fake.start(QStandardPaths::findExecutable(QStringLiteral("python3")), {mcpFixture("fakehttpserver.py")}));
    QTemporaryDir dir;
    McpServerConfig config;
    config.name = QStringLiteral("moving");
    config.transport = McpServerConfig::Transport::StreamableHttp;
    config.typeGiven = true;
    config.url = fake.base + QStringLiteral("/moving-header");
    McpServerPool pool(dir.path());
    pool.setServers({config});
    pool.connectAll();
    QTRY_VERIFY_WITH_TIMEOUT(pool.settled(), 60000);
    QVERIFY2(pool.server(QStringLiteral("moving"))->state == McpServerStatus::State::Ready,
             qPrintable(pool.server(QStringLiteral("moving"))->error));

    const McpCallOutcome first = callAndWait(pool, QStringLiteral("route"), {{"region", "eu-west1"}});
    QVERIFY2(first.reply.ok(), qPrintable(first.reply.errorText()));
    QCOMPARE(text(first), QStringLiteral("routed by Region: eu-west1"));
    QVERIFY(callAndWait(pool, QStringLiteral("move")).reply.ok());

    // The cached Region header no longer matches: listed again, the tool changed, the
    // call not sent a second time until a person accepts the change.
    const McpCallOutcome refused = callAndWait(pool, QStringLiteral("route"), {{"region", "eu-west1"}});
    QVERIFY2(!refused.refused.isEmpty(), qPrintable(refused.reply.errorText()));
    QVERIFY(refused.change.has_value());
    QCOMPARE(refused.change->tool, QStringLiteral("route"));
    QVERIFY2(refused.change->now.dump().find("\"Zone\"") != std::string::npos, refused.change->now.dump().c_str());
    QCOMPARE(refused.exchange.dump().find("-32020") != std::string::npos, true); // the first answer is on record

    QString error;
    QVERIFY2(pool.acceptTools(QStringLiteral("moving"), {*refused.change}, &error), qPrintable(error));
    const McpCallOutcome routed = callAndWait(pool, QStringLiteral("route"), {{"region", "eu-west1"}});
    QVERIFY2(routed.reply.ok(), qPrintable(routed.reply.errorText()));
    QCOMPARE(text(routed), QStringLiteral("routed by Zone: eu-west1"));

    // An argument too long for a header: not sent (attack34 F2), said why.
    const McpCallOutcome tooLong = callAndWait(pool, QStringLiteral("route"), {{"region", std::string(9000, 'x')}});
    QCOMPARE(tooLong.reply.error.code, -32602);
    QCOMPARE(QString::fromStdString(tooLong.reply.error.message),
             QStringLiteral("not sent: the arguments the tool mirrors into HTTP headers (x-mcp-header) come to 9016 "
                            "bytes as headers, the largest Mcp-Param-Zone with a value of 9000 bytes; at most 8192 go "
                            "into a request's headers, as servers refuse larger ones: pass shorter values"));

    // A server answering HeaderMismatch whatever is sent: one listing, then the error.
    const McpCallOutcome broken = callAndWait(pool, QStringLiteral("broken"));
    QCOMPARE(broken.reply.error.code, -32020);
    QVERIFY(broken.refused.isEmpty());
    const McpCallOutcome stats = callAndWait(pool, QStringLiteral("stats"));
    QCOMPARE(text(stats), QStringLiteral("{\"mismatches\": 3, \"toolsLists\": 3}"));
}

void TestMcpHeaderMismatch::aChangeAnnouncedWithEveryListingDoesNotHoldTheCall_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("before each listing's answer") << QStringLiteral("storm");
    QTest::newRow("after each listing's answer") << QStringLiteral("storm-after");
}

// attack35 F3: a server answering HeaderMismatch that announces a tool change before every
// listing kept the call waiting for "the next" listing for ever (listings at full speed).
// The call goes again after the first listing to start after its answer; the server's
// announcements are listed again at most twice a second (McpServerPool::RelistPauseMs),
// also when each comes right after a listing's answer (attack36 F1: 30 000 listings in 5 s).
void TestMcpHeaderMismatch::aChangeAnnouncedWithEveryListingDoesNotHoldTheCall()
{
    QFETCH(QString, mode);
    QTemporaryDir dir;
    ::chmod(QFile::encodeName(dir.path()).constData(), 0755); // as root the server runs as nobody
    QVERIFY(writeFile(dir.filePath(QStringLiteral("fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    McpServerConfig config;
    config.name = QStringLiteral("storm");
    config.command = QStringLiteral("python3");
    config.args = {QStringLiteral("fakeserver.py"), mode};
    McpServerPool pool(dir.path());
    pool.setServers({config});
    pool.connectAll();
    QTRY_VERIFY_WITH_TIMEOUT(pool.settled(), 60000);
    QVERIFY2(pool.server(QStringLiteral("storm"))->state == McpServerStatus::State::Ready,
             qPrintable(pool.server(QStringLiteral("storm"))->error));

    QSignalSpy listed(&pool, &McpServerPool::toolsChanged);
    const McpCallOutcome mismatched = callAndWait(pool, QStringLiteral("tool-0"), json::object(), config.name);
    QCOMPARE(mismatched.reply.error.code, -32020);
    QCOMPARE(QString::fromStdString(mismatched.reply.error.message), QStringLiteral("Mcp-Param-Region is missing"));
    QVERIFY(mismatched.refused.isEmpty());

    // Listed again for ever (the server never stops announcing), but paced: about four
    // listings in two seconds; at full speed they had been hundreds.
    listed.clear();
    QTest::qWait(2000);
    QVERIFY2(listed.count() >= 2 && listed.count() <= 6, qPrintable(QString::number(listed.count())));
}

QTEST_GUILESS_MAIN(TestMcpHeaderMismatch)
#include "tst_mcpheadermismatch.moc"
