// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Issue 16, class 3 "unbounded growth" through parsed JSON: a line of `[{},{},…]`
// within a 64 MiB cap became 2.2 GB of nlohmann values. Every JSON that enters the
// studio is bounded to JsonInput::MaxValues (8 Mi) values, counted before anything is
// built, with the source named: a bridge frame, a command tool's stdout, an MCP reply.

#include "bridgemessage.h"
#include "engine/handlers/commandhandler.h"
#include "jsoninput.h"
#include "mcp/mcpstdiotransport.h"

#include "handlerattempt.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr std::size_t Max = JsonInput::MaxValues;

/// `[0,0,…,0]` of `elements` zeros: elements + 1 values.
std::string zeros(std::size_t elements)
{
    std::string text = "[";
    text.reserve(2 * elements + 1);
    for (std::size_t i = 0; i < elements; ++i)
        text += i ? ",0" : "0";
    return text + "]";
}

std::string refusal(std::string_view what, std::size_t byte)
{
    return std::string(what) + " has more than 8388608 values (byte offset " + std::to_string(byte)
        + "); the studio reads at most 8388608 values of one JSON document: send less, or in parts";
}

} // namespace

class TestJsonSize : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void overLimit_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("offset");
        // The root and Max - 1 elements: exactly Max values.
        QTest::newRow("8 Mi values") << QByteArray::fromStdString(zeros(Max - 1)) << qint64(-1);
        // One more: value Max + 1 is element Max - 1, after the comma at 2 (Max - 1).
        QTest::newRow("8 Mi + 1 values") << QByteArray::fromStdString(zeros(Max)) << qint64(2 * (Max - 1));
        // Members count once (names are not values); commas and brackets in strings not at all.
        QByteArray members = "{";
        for (std::size_t i = 0; i < Max / 2; ++i)
            members += (i ? ",\"" : "\"") + QByteArray::number(qulonglong(i)) + "\":[]";
        QTest::newRow("4 Mi members") << members + "}" << qint64(-1);
        QTest::newRow("commas in strings") << QByteArray("[\"") + QByteArray(int(Max) + 10, ',') + "\"]" << qint64(-1);
        // Empty containers hold no value: only their own count.
        QTest::newRow("[{},{}]") << QByteArray("[{},{}]") << qint64(-1);
    }

    void overLimit()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, offset);
        const JsonInput::Problem bound
            = JsonInput::overLimit(std::string_view(text.constData(), std::size_t(text.size())));
        QCOMPARE(bound.limit ? qint64(bound.byte) : qint64(-1), offset);
        QCOMPARE(QString::fromStdString(bound.reason),
                 bound.limit ? QStringLiteral("more than 8388608 values") : QString());
        JsonInput::Problem problem;
        const auto value
            = JsonInput::read<nlohmann::json>(std::string_view(text.constData(), std::size_t(text.size())), &problem);
        QCOMPARE(value.is_discarded(), bound.limit);
    }

    // 8 Mi values parse; one more is refused by JsonInput::parse, source named.
    void parseNamesTheSource()
    {
        std::string problem;
        const nlohmann::json ok = JsonInput::parse(zeros(Max - 1), "the answer", &problem);
        QCOMPARE(ok.size(), Max - 1);
        QCOMPARE(problem, std::string());
        const nlohmann::json refused = JsonInput::parse(zeros(Max), "the answer", &problem);
        QVERIFY(refused.is_discarded());
        QCOMPARE(problem, refusal("the answer", 2 * (Max - 1)));
    }

    // A bridge frame (a call of the shims' shape) whose arguments hold 8 Mi + 1 values.
    void bridgeFrame()
    {
        std::string line = R"({"type":"call","id":"c1","tool":"t","args":{"a":[)";
        const std::size_t prefix = line.size();
        for (std::size_t i = 0; i + 1 < Max; ++i) // 6 values (the line, its 4 members, "a") and Max - 1 elements
            line += i ? ",{}" : "{}";
        line += "]}}";
        const BridgeDecodeResult result = BridgeProtocol::decodeLine(line);
        QVERIFY(!result.call);
        // Value Max + 1 is element Max - 6: the comma before it.
        QCOMPARE(result.error,
                 "JSON with more than 8388608 values at byte offset " + std::to_string(prefix + 3 * (Max - 6) - 1)
                     + " (at most 8388608 in one message: pass less, or in parts)");
    }

    // A command tool's stdout of 16 MiB (under the 32 MiB a project with an 8 MiB reply
    // cap allows) holding 8 Mi + 1 values.
    void commandToolStdout()
    {
        QTemporaryDir dir;
        CommandHandler handler({QStringLiteral("python3"), QStringLiteral("-c"),
                                QStringLiteral("import sys; sys.stdout.write('[' + '0,' * %1 + '0]')").arg(Max)});
        const HandlerOutcome outcome
            = runHandlerAttempt(handler, dir.path(), QStringLiteral("lookup"), nlohmann::json::object(), 1,
                                QStringLiteral("run-1:1"), 8u << 20);
        QVERIFY(!outcome.ok);
        QCOMPARE(outcome.error.message, refusal("command tool lookup: stdout", 2 * (Max - 1)));
        QCOMPARE(outcome.error.retryable, false);
    }

    // An MCP server's line (24 MiB, under the transport's 64 MiB) of 8 Mi + 3 values:
    // refused and skipped, named, nothing built.
    void mcpReply()
    {
        McpStdioTransport transport;
        McpStdioTransport::Launch launch;
        launch.program = QStandardPaths::findExecutable(QStringLiteral("python3"));
        launch.arguments
            = {qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/mcp/fakeserver.py"),
               QStringLiteral("many")};
        launch.environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        QSignalSpy refused(&transport, &McpStdioTransport::messageRefused);
        transport.start(launch);
        QTRY_COMPARE_WITH_TIMEOUT(refused.count(), 1, 60000);
        // `{"jsonrpc":"2.0","id":1,"result":{"content":[` is 45 bytes; value Max + 1 is
        // element Max - 5 of the content, after its comma.
        QCOMPARE(refused.at(0).at(0).toString(),
                 QString::fromStdString(refusal("the message", 45 + 3 * (Max - 5) - 1)));
        transport.stop();
    }
};

QTEST_GUILESS_MAIN(TestJsonSize)
#include "tst_jsonsize.moc"
