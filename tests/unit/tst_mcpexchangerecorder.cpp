// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The record of one MCP call for the Protocol tab (McpExchangeRecorder, docs/mcp.md
// "The Protocol tab"): which messages belong to the call, in order, and the bounds a
// flooding server meets — exact counts of what was kept and what was left out.
#include "mcp/mcpexchangerecorder.h"
#include "mcp/mcpexchangetext.h"

#include <QTest>

using nlohmann::json;
using Direction = McpExchangeRecorder::Direction;

namespace {

QStringList rowsOf(const json &exchange)
{
    QStringList rows;
    for (const json &entry : exchange["messages"])
        rows << McpExchangeText::summary(entry);
    return rows;
}

std::size_t sizeOf(const JsonRpcMessage &message)
{
    return message.toJson().dump().size();
}

JsonRpcMessage progress(qint64 token, int n, int total)
{
    return JsonRpcMessage::notification("notifications/progress",
                                        {{"progressToken", token}, {"progress", n}, {"total", total}});
}

JsonRpcMessage call(qint64 id, qint64 token)
{
    return JsonRpcMessage::request(
        json(id), "tools/call",
        {{"name", "slow"}, {"arguments", json::object()}, {"_meta", {{"progressToken", token}}}});
}

} // namespace

class TestMcpExchangeRecorder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void takesTheMessagesOfItsCall()
    {
        McpExchangeRecorder recorder(5);
        QVERIFY(recorder.take(Direction::Sent, call(7, 5)));
        QVERIFY(!recorder.take(Direction::Sent, call(8, 6)));            // another call's
        QVERIFY(recorder.take(Direction::Received, progress(5, 3, 10))); // its token
        QVERIFY(!recorder.take(Direction::Received, progress(6, 1, 10)));
        recorder.addServerRequest(JsonRpcMessage::request(json(0), "elicitation/create", {{"message", "Who?"}}));
        QVERIFY(recorder.take(Direction::Sent, JsonRpcMessage::resultFor(json(0), {{"action", "decline"}})));
        QVERIFY(!recorder.take(Direction::Sent, JsonRpcMessage::resultFor(json(1), json::object())));
        // A 2026-era round: input_required, then the retry under a new id.
        QVERIFY(
            recorder.take(Direction::Received, JsonRpcMessage::resultFor(json(7), {{"resultType", "input_required"}})));
        QVERIFY(recorder.take(Direction::Sent, call(9, 5)));
        QVERIFY(!recorder.take(Direction::Received, JsonRpcMessage::resultFor(json(8), json::object())));
        QVERIFY(recorder.take(Direction::Received,
                              JsonRpcMessage::errorFor(json(9), JsonRpcError{-32602, "Unknown tool", nullptr})));
        QVERIFY(recorder.take(
            Direction::Sent,
            JsonRpcMessage::notification("notifications/cancelled", {{"requestId", 9}, {"reason", "Stop"}})));
        QCOMPARE(rowsOf(recorder.toJson()),
                 QStringList({QStringLiteral("→ request tools/call #7"),
                              QStringLiteral("← notification notifications/progress 3/10"),
                              QStringLiteral("← request elicitation/create #0"), QStringLiteral("→ response #0"),
                              QStringLiteral("← response #7 input_required"), QStringLiteral("→ request tools/call #9"),
                              QStringLiteral("← response #9 error -32602"),
                              QStringLiteral("→ notification notifications/cancelled #9")}));
        QCOMPARE(recorder.toJson()["messages"][3]["message"].dump(),
                 std::string(R"({"id":0,"jsonrpc":"2.0","result":{"action":"decline"}})"));
        QVERIFY(!recorder.toJson().contains("omittedMessages"));
        QCOMPARE(McpExchangeText::omitted(recorder.toJson()), QString());
    }

    void floodOfProgressIsBounded()
    {
        // 10 000 notifications/progress: the request and the first 198 are kept, the rest
        // counted; the final response still has its place.
        McpExchangeRecorder recorder(5);
        QVERIFY(recorder.take(Direction::Sent, call(7, 5)));
        qint64 leftOut = 0;
        for (int n = 1; n <= 10000; ++n) {
            QVERIFY(recorder.take(Direction::Received, progress(5, n, 10000)));
            if (n > 198)
                leftOut += qint64(sizeOf(progress(5, n, 10000)));
        }
        QVERIFY(recorder.take(Direction::Received, JsonRpcMessage::resultFor(json(7), {{"content", json::array()}})));
        const json exchange = recorder.toJson();
        QCOMPARE(recorder.keptMessages(), McpExchangeRecorder::MaxMessages);
        QCOMPARE(recorder.omittedMessages(), qint64(9802));
        QCOMPARE(recorder.omittedBytes(), leftOut);
        const QStringList rows = rowsOf(exchange);
        QCOMPARE(rows.at(198), QStringLiteral("← notification notifications/progress 198/10000"));
        QCOMPARE(rows.at(199), QStringLiteral("← response #7 result"));
        QCOMPARE(McpExchangeText::omitted(exchange),
                 QStringLiteral("9802 more messages, %1 bytes, not kept").arg(leftOut));
    }

    void largeMessagesAreClipped()
    {
        // One 5 MiB result: kept as its first HeadBytes and its size. Past 448 KiB of
        // other messages, one more is left out whole.
        McpExchangeRecorder recorder(5);
        QVERIFY(recorder.take(Direction::Sent, call(7, 5)));
        const std::string text(5 << 20, 'x');
        const JsonRpcMessage big
            = JsonRpcMessage::resultFor(json(7), {{"content", {{{"type", "text"}, {"text", text}}}}});
        const std::size_t bigSize = sizeOf(big);
        QVERIFY(recorder.take(Direction::Received, big));
        const json exchange = recorder.toJson();
        QCOMPARE(exchange["messages"].size(), std::size_t(2));
        const json &entry = exchange["messages"][1];
        QVERIFY(!entry.contains("message"));
        QCOMPARE(entry["bytes"].get<std::size_t>(), bigSize);
        QCOMPARE(entry["head"].get<std::string>(), big.toJson().dump().substr(0, McpExchangeRecorder::HeadBytes));
        QCOMPARE(McpExchangeText::summary(entry),
                 QStringLiteral("← response #7 result (%1 bytes, clipped)").arg(bigSize));
        QVERIFY(McpExchangeText::pretty(entry).startsWith(
            QStringLiteral("(a message of %1 bytes; its first 16384 bytes of compact JSON:)\n{\"id\":7,")
                .arg(bigSize)));

        // Log messages of 100 KiB each: clipped to 16 KiB each, 28 fit in 448 KiB.
        McpExchangeRecorder logs(5);
        const JsonRpcMessage log = JsonRpcMessage::notification(
            "notifications/message", {{"level", "info"}, {"data", std::string(100 * 1024, 'y')}});
        for (int n = 0; n < 40; ++n)
            logs.add(Direction::Received, log);
        QCOMPARE(logs.keptMessages(), 28);
        QCOMPARE(logs.omittedMessages(), qint64(12));
        QCOMPARE(logs.omittedBytes(), qint64(12 * sizeOf(log)));
    }

    // A log message goes to every call open on its server: made ready once, kept by
    // each record as add() keeps it (whole when small, clipped when large), and counted
    // against each record's own bounds.
    void preparedOnceKeptByEachCall()
    {
        const JsonRpcMessage small
            = JsonRpcMessage::notification("notifications/message", {{"level", "info"}, {"data", "hello"}});
        const JsonRpcMessage large = JsonRpcMessage::notification(
            "notifications/message", {{"level", "info"}, {"data", std::string(1 << 20, 'z')}});
        const McpExchangeRecorder::Prepared smallReady = McpExchangeRecorder::prepare(small.toJson());
        const McpExchangeRecorder::Prepared largeReady = McpExchangeRecorder::prepare(large.toJson());
        QCOMPARE(smallReady.bytes, sizeOf(small));
        QCOMPARE(smallReady.cost, sizeOf(small));
        QCOMPARE(largeReady.bytes, sizeOf(large));
        QCOMPARE(largeReady.cost, McpExchangeRecorder::HeadBytes);
        McpExchangeRecorder first(5);
        McpExchangeRecorder second(6);
        McpExchangeRecorder direct(7);
        for (McpExchangeRecorder *recorder : {&first, &second}) {
            QVERIFY(recorder->addPrepared(Direction::Received, smallReady));
            QVERIFY(recorder->addPrepared(Direction::Received, largeReady));
        }
        QVERIFY(direct.add(Direction::Received, small));
        QVERIFY(direct.add(Direction::Received, large));
        const QStringList rows{
            QStringLiteral("← notification notifications/message info"),
            QStringLiteral("← notification notifications/message (%1 bytes, clipped)").arg(sizeOf(large))};
        QCOMPARE(rowsOf(first.toJson()), rows);
        QCOMPARE(rowsOf(second.toJson()), rows);
        QCOMPARE(rowsOf(direct.toJson()), rows);
        QCOMPARE(first.toJson()["messages"][0]["message"].dump(), small.toJson().dump());
        QCOMPARE(first.toJson()["messages"][1]["head"].get<std::string>(),
                 direct.toJson()["messages"][1]["head"].get<std::string>());
        // Each record's bounds: 28 clipped lines fit in one, whatever the other kept.
        for (int n = 0; n < 40; ++n)
            second.addPrepared(Direction::Received, largeReady);
        QCOMPARE(second.keptMessages(), 28);
        QCOMPARE(first.keptMessages(), 2);
    }

    // A server's requests during the call, as a hostile server sends them (attack26):
    // one with an 8 MiB method and a 2 MiB id is kept as a bounded head, method cut to
    // MaxIdBytes and its id left out; a flood of them is bounded like any message, and
    // the answer to one that was not kept is not kept either.
    void serverRequestsAreBounded()
    {
        McpExchangeRecorder recorder(5);
        QVERIFY(recorder.take(Direction::Sent, call(7, 5)));
        const std::string method(8 << 20, 'm');
        const std::string id(2 << 20, 'i');
        recorder.addServerRequest(JsonRpcMessage::request(json(id), method, json::object()));
        json exchange = recorder.toJson();
        QCOMPARE(exchange["messages"].size(), std::size_t(2));
        const json &entry = exchange["messages"][1];
        QCOMPARE(entry["method"].get<std::string>(), std::string(McpExchangeRecorder::MaxIdBytes, 'm'));
        QVERIFY(!entry.contains("id"));
        QCOMPARE(entry["head"].get<std::string>().size(), McpExchangeRecorder::HeadBytes);
        QVERIFY(!recorder.take(Direction::Sent, JsonRpcMessage::resultFor(json(id), json::object())));

        for (int n = 0; n < 100000; ++n)
            recorder.addServerRequest(
                JsonRpcMessage::request(json("request-" + std::to_string(n)), "foo/bar", json::object()));
        QCOMPARE(recorder.keptMessages(), McpExchangeRecorder::MaxMessages - 1); // one place left: the final reply
        QCOMPARE(recorder.omittedMessages(), qint64(100000 - (McpExchangeRecorder::MaxMessages - 3)));
        // Kept: its answer is kept. Left out: so is its answer.
        QVERIFY(recorder.take(Direction::Sent, JsonRpcMessage::resultFor(json("request-0"), json::object())));
        QVERIFY(!recorder.take(Direction::Sent, JsonRpcMessage::resultFor(json("request-99999"), json::object())));
        QVERIFY(recorder.take(Direction::Received, JsonRpcMessage::resultFor(json(7), json::object())));
        exchange = recorder.toJson();
        QVERIFY(exchange.dump().size() < McpExchangeRecorder::MaxBytes);
    }
};

QTEST_GUILESS_MAIN(TestMcpExchangeRecorder)
#include "tst_mcpexchangerecorder.moc"
