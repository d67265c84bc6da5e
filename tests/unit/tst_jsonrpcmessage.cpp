// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonrpc/jsonrpcmessage.h"

#include <QTest>

using nlohmann::json;
using Kind = JsonRpcMessage::Kind;

Q_DECLARE_METATYPE(JsonRpcMessage::Kind)

class TestJsonRpcMessage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decodeValid_data();
    void decodeValid();
    void decodeRefused_data();
    void decodeRefused();
    void refusalsAreBounded();
    void encodeRoundTrips_data();
    void encodeRoundTrips();
    void encodeReplacesBadUtf8();
};

void TestJsonRpcMessage::decodeValid_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QByteArray>("id"); // as JSON
    QTest::addColumn<QString>("method");
    QTest::addColumn<QByteArray>("payload"); // params, result or error, as JSON

    QTest::newRow("initialize") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":)"
                                              R"({"protocolVersion":"2025-06-18","capabilities":{}}})")
                                << Kind::Request << QByteArray("1") << QStringLiteral("initialize")
                                << QByteArray(R"({"capabilities":{},"protocolVersion":"2025-06-18"})");
    QTest::newRow("string id, no params")
        << QByteArray(R"({"jsonrpc":"2.0","id":"a-1","method":"tools/list"})") << Kind::Request
        << QByteArray(R"("a-1")") << QStringLiteral("tools/list") << QByteArray("null");
    QTest::newRow("id 0") << QByteArray(R"({"id":0,"method":"ping","jsonrpc":"2.0"})") << Kind::Request
                          << QByteArray("0") << QStringLiteral("ping") << QByteArray("null");
    QTest::newRow("negative id") << QByteArray(R"({"jsonrpc":"2.0","id":-7,"method":"ping"})") << Kind::Request
                                 << QByteArray("-7") << QStringLiteral("ping") << QByteArray("null");
    QTest::newRow("largest unsigned id") << QByteArray(R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"})")
                                         << Kind::Request << QByteArray("18446744073709551615")
                                         << QStringLiteral("ping") << QByteArray("null");
    QTest::newRow("positional params") << QByteArray(R"({"jsonrpc":"2.0","id":2,"method":"sum","params":[1,2]})")
                                       << Kind::Request << QByteArray("2") << QStringLiteral("sum")
                                       << QByteArray("[1,2]");
    QTest::newRow("notification") << QByteArray(
        R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":5}})")
                                  << Kind::Notification << QByteArray("null")
                                  << QStringLiteral("notifications/progress") << QByteArray(R"({"progress":5})");
    QTest::newRow("unknown members ignored")
        << QByteArray(R"({"jsonrpc":"2.0","method":"notifications/initialized","extra":true})") << Kind::Notification
        << QByteArray("null") << QStringLiteral("notifications/initialized") << QByteArray("null");
    QTest::newRow("result") << QByteArray(R"({"jsonrpc":"2.0","id":3,"result":{"tools":[]}})") << Kind::Result
                            << QByteArray("3") << QString() << QByteArray(R"({"tools":[]})");
    QTest::newRow("null result") << QByteArray(R"({"jsonrpc":"2.0","id":"x","result":null})") << Kind::Result
                                 << QByteArray(R"("x")") << QString() << QByteArray("null");
    QTest::newRow("error with data") << QByteArray(
        R"({"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Unknown tool: x","data":[1]}})")
                                     << Kind::Error << QByteArray("4") << QString()
                                     << QByteArray(R"({"code":-32602,"data":[1],"message":"Unknown tool: x"})");
    QTest::newRow("parse error without id")
        << QByteArray(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})") << Kind::Error
        << QByteArray("null") << QString() << QByteArray(R"({"code":-32700,"message":"Parse error"})");
}

void TestJsonRpcMessage::decodeValid()
{
    QFETCH(QByteArray, text);
    QFETCH(Kind, kind);
    QFETCH(QByteArray, id);
    QFETCH(QString, method);
    QFETCH(QByteArray, payload);

    const JsonRpcDecoded decoded = JsonRpc::decode(text.toStdString());
    QVERIFY2(decoded.message, decoded.problem.message.c_str());
    const JsonRpcMessage &message = *decoded.message;
    QCOMPARE(message.kind, kind);
    QCOMPARE(QByteArray::fromStdString(message.id.dump()), id);
    QCOMPARE(QString::fromStdString(message.method), method);
    json expected = json::parse(payload.toStdString());
    switch (kind) {
    case Kind::Request:
    case Kind::Notification:
        QCOMPARE(message.params.dump(), expected.dump());
        break;
    case Kind::Result:
        QCOMPARE(message.result.dump(), expected.dump());
        break;
    case Kind::Error:
        QCOMPARE(message.error.toJson().dump(), expected.dump());
        break;
    }
}

void TestJsonRpcMessage::decodeRefused_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QByteArray>("id"); // the id a receiver answers with, as JSON

    const int parse = JsonRpcError::ParseError;
    const int invalid = JsonRpcError::InvalidRequest;
    const QString prefix = QStringLiteral("not a JSON-RPC 2.0 message: ");
    QTest::newRow("not JSON") << QByteArray(R"({"jsonrpc":"2.0",)") << parse
                              << QStringLiteral(
                                     "not valid JSON: syntax error while parsing object key - unexpected end of input; "
                                     "expected string literal "
                                     "(byte offset 17)")
                              << QByteArray("null");
    QTest::newRow("too deep") << QByteArray(200, '[') << parse
                              << QStringLiteral("not valid JSON: nested deeper than 128 levels (byte offset 128)")
                              << QByteArray("null");
    QTest::newRow("batch") << QByteArray(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])") << invalid
                           << prefix + QStringLiteral("a batch (an array of messages); MCP sends one message at a time")
                           << QByteArray("null");
    QTest::newRow("a string") << QByteArray(R"("hello")") << invalid
                              << prefix + QStringLiteral("expected an object, got a string") << QByteArray("null");
    QTest::newRow("no jsonrpc") << QByteArray(R"({"id":5,"method":"ping"})") << invalid
                                << prefix + QStringLiteral(R"("jsonrpc" is missing (it must be "2.0"))")
                                << QByteArray("5");
    QTest::newRow("jsonrpc 1.0") << QByteArray(R"({"jsonrpc":"1.0","id":"r","method":"ping"})") << invalid
                                 << prefix + QStringLiteral(R"("jsonrpc" must be "2.0")") << QByteArray(R"("r")");
    QTest::newRow("fractional id") << QByteArray(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})") << invalid
                                   << prefix
            + QStringLiteral(R"("id" must be a string or an integer, got a number with a fraction or exponent)")
                                   << QByteArray("null");
    QTest::newRow("id beyond 64 bits") << QByteArray(R"({"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"})")
                                       << invalid
                                       << prefix
            + QStringLiteral(R"("id" must be a string or an integer, got a number with a fraction or exponent)")
                                       << QByteArray("null");
    QTest::newRow("object id") << QByteArray(R"({"jsonrpc":"2.0","id":{},"method":"ping"})") << invalid
                               << prefix + QStringLiteral(R"("id" must be a string or an integer, got an object)")
                               << QByteArray("null");
    QTest::newRow("null request id") << QByteArray(R"({"jsonrpc":"2.0","id":null,"method":"ping"})") << invalid
                                     << prefix + QStringLiteral(R"(a request's "id" must not be null)")
                                     << QByteArray("null");
    QTest::newRow("method not a string") << QByteArray(R"({"jsonrpc":"2.0","id":6,"method":7})") << invalid
                                         << prefix + QStringLiteral(R"("method" must be a string, got an integer)")
                                         << QByteArray("6");
    QTest::newRow("empty method") << QByteArray(R"({"jsonrpc":"2.0","id":6,"method":""})") << invalid
                                  << prefix + QStringLiteral(R"("method" is empty)") << QByteArray("6");
    QTest::newRow("params a string") << QByteArray(R"({"jsonrpc":"2.0","id":7,"method":"m","params":"x"})") << invalid
                                     << prefix
            + QStringLiteral(R"("params" must be an object or an array, got a string)")
                                     << QByteArray("7");
    QTest::newRow("method and result") << QByteArray(R"({"jsonrpc":"2.0","id":8,"method":"m","result":1})") << invalid
                                       << prefix
            + QStringLiteral(R"(a message with "method" has no "result" or "error")")
                                       << QByteArray("8");
    QTest::newRow("result and error") << QByteArray(
        R"({"jsonrpc":"2.0","id":9,"result":1,"error":{"code":1,"message":"m"}})")
                                      << invalid
                                      << prefix + QStringLiteral(R"(a response has "result" or "error", not both)")
                                      << QByteArray("9");
    QTest::newRow("neither")
        << QByteArray(R"({"jsonrpc":"2.0","id":10})") << invalid
        << prefix
            + QStringLiteral(
                R"(it has neither "method" (a request or notification) nor "result" or "error" (a response))")
        << QByteArray("10");
    QTest::newRow("response without id") << QByteArray(R"({"jsonrpc":"2.0","result":{}})") << invalid
                                         << prefix + QStringLiteral(R"(a response needs an "id")")
                                         << QByteArray("null");
    QTest::newRow("result with null id") << QByteArray(R"({"jsonrpc":"2.0","id":null,"result":{}})") << invalid
                                         << prefix + QStringLiteral(R"(a result's "id" must not be null)")
                                         << QByteArray("null");
    QTest::newRow("error a string") << QByteArray(R"({"jsonrpc":"2.0","id":11,"error":"bad"})") << invalid
                                    << prefix + QStringLiteral(R"("error" must be an object, got a string)")
                                    << QByteArray("11");
    QTest::newRow("error without code") << QByteArray(R"({"jsonrpc":"2.0","id":12,"error":{"message":"m"}})") << invalid
                                        << prefix + QStringLiteral(R"("error" has no "code")") << QByteArray("12");
    QTest::newRow("fractional code") << QByteArray(R"({"jsonrpc":"2.0","id":13,"error":{"code":1.5,"message":"m"}})")
                                     << invalid
                                     << prefix
            + QStringLiteral(R"("error.code" must be an integer, got a number with a fraction or exponent)")
                                     << QByteArray("13");
    QTest::newRow("code beyond int64") << QByteArray(
        R"({"jsonrpc":"2.0","id":14,"error":{"code":9223372036854775808,"message":"m"}})")
                                       << invalid << prefix + QStringLiteral(R"("error.code" is beyond 64 bits)")
                                       << QByteArray("14");
    QTest::newRow("message not a string")
        << QByteArray(R"({"jsonrpc":"2.0","id":15,"error":{"code":1,"message":2}})") << invalid
        << prefix + QStringLiteral(R"("error.message" must be a string, got an integer)") << QByteArray("15");
    QTest::newRow("error without message")
        << QByteArray(R"({"jsonrpc":"2.0","id":16,"error":{"code":1}})") << invalid
        << prefix + QStringLiteral(R"("error" has no "message")") << QByteArray("16");
}

void TestJsonRpcMessage::decodeRefused()
{
    QFETCH(QByteArray, text);
    QFETCH(int, code);
    QFETCH(QString, message);
    QFETCH(QByteArray, id);

    const JsonRpcDecoded decoded = JsonRpc::decode(text.toStdString());
    QVERIFY(!decoded.message);
    QCOMPARE(decoded.problem.code, std::int64_t(code));
    QCOMPARE(QString::fromStdString(decoded.problem.message), message);
    QCOMPARE(QByteArray::fromStdString(decoded.problemId.dump()), id);
}

void TestJsonRpcMessage::refusalsAreBounded()
{
    // A sender controls the token the parser stops at; the reason quotes at most ~200 bytes of it.
    const std::string hugeToken = R"({"jsonrpc":"2.0","id":1,"method":)" + std::string(100000, 'x') + "}";
    const JsonRpcDecoded decoded = JsonRpc::decode(hugeToken);
    QVERIFY(!decoded.message);
    QCOMPARE(decoded.problem.code, std::int64_t(JsonRpcError::ParseError));
    QVERIFY2(decoded.problem.message.size() < 300, decoded.problem.message.c_str());
}

void TestJsonRpcMessage::encodeRoundTrips_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("request") << QByteArray(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})");
    QTest::newRow("request without params") << QByteArray(R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
    QTest::newRow("notification") << QByteArray(
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
    QTest::newRow("result") << QByteArray(R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})");
    QTest::newRow("error") << QByteArray(
        R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}})");
    QTest::newRow("error with data and null id")
        << QByteArray(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"line 1"}})");
}

void TestJsonRpcMessage::encodeRoundTrips()
{
    // What decode() reads, encode() writes back member for member ("jsonrpc" first).
    QFETCH(QByteArray, line);
    const JsonRpcDecoded decoded = JsonRpc::decode(line.toStdString());
    QVERIFY2(decoded.message, decoded.problem.message.c_str());
    const std::string encoded = decoded.message->encode();
    QCOMPARE(json::parse(encoded).dump(), json::parse(line.toStdString()).dump());
    QCOMPARE(encoded.substr(0, 16), std::string(R"({"jsonrpc":"2.0")"));
    if (decoded.message->kind != JsonRpcMessage::Kind::Notification)
        QCOMPARE(encoded.substr(16, 6), std::string(R"(,"id":)"));
    QVERIFY(encoded.find('\n') == std::string::npos);
}

void TestJsonRpcMessage::encodeReplacesBadUtf8()
{
    // Text the studio did not check (e.g. a server's stderr in an error) never makes encode() throw.
    JsonRpcError error{JsonRpcError::InternalError, std::string("bad \xff byte"), nullptr};
    const std::string line = JsonRpcMessage::errorFor(json(1), error).encode();
    QCOMPARE(line,
             std::string(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"bad )"
                         "\xef\xbf\xbd"
                         R"( byte"}})"));
}

QTEST_APPLESS_MAIN(TestJsonRpcMessage)
#include "tst_jsonrpcmessage.moc"
