// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "bridgemessage.h"
#include "bridgewaithint.h"

#include <QTest>

using nlohmann::json;

namespace {

std::string nested(int depth)
{
    return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']');
}

} // namespace

class TestBridgeMessage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decodeValid_data();
    void decodeValid();
    void decodeInvalid_data();
    void decodeInvalid();
    void decodeBadArguments_data();
    void decodeBadArguments();
    void deepNestingRefusedWithoutRecursion();
    void modelFrameRefusedByItsId();
    void decodeWait_data();
    void decodeWait();
    void firstInvalidUtf8_data();
    void firstInvalidUtf8();
    void encodeResult();
    void encodeError();
    void errorFromJson();
    void errorFromJsonRejectsWrongTypes_data();
    void errorFromJsonRejectsWrongTypes();
};

void TestBridgeMessage::decodeValid_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QByteArray>("id");
    QTest::addColumn<QByteArray>("tool");
    QTest::addColumn<QByteArray>("args");
    QTest::addColumn<int>("argsBytes");

    QTest::newRow("keyword args") << QByteArray(R"({"type":"call","id":"c1","tool":"add","args":{"a":1,"b":2}})")
                                  << QByteArray("c1") << QByteArray("add") << QByteArray(R"({"a":1,"b":2})") << 13;
    QTest::newRow("positional args") << QByteArray(R"({"type":"call","id":"c2","tool":"add","args":[1, 2]})")
                                     << QByteArray("c2") << QByteArray("add") << QByteArray("[1,2]") << 5;
    QTest::newRow("missing args is {}") << QByteArray(R"({"type":"call","id":"c3","tool":"now"})") << QByteArray("c3")
                                        << QByteArray("now") << QByteArray("{}") << 2;
    // 6 + "héllo " (7) + "€" (3) + 2: the cap counts UTF-8 bytes, not characters.
    QTest::newRow("non-ASCII args bytes")
        << QByteArray(R"({"type":"call","id":"c4","tool":"t","args":{"s":"héllo €"}})") << QByteArray("c4")
        << QByteArray("t") << QByteArray(R"({"s":"héllo €"})") << 18;
    // An escaped character is counted as it is re-serialised (raw UTF-8).
    QTest::newRow("escapes re-serialised")
        << QByteArray(R"({"type":"call","id":"c5","tool":"t","args":{"s":"\u00e9\ud83d\ude00"}})") << QByteArray("c5")
        << QByteArray("t") << QByteArray("{\"s\":\"é😀\"}") << 14;
    QTest::newRow("extra fields ignored, whitespace, CR")
        << QByteArray(" { \"id\" : \"c6\", \"tool\":\"t\", \"type\":\"call\", \"meta\": 1 }\r") << QByteArray("c6")
        << QByteArray("t") << QByteArray("{}") << 2;
    QTest::newRow("depth exactly 128") << QByteArray(R"({"type":"call","id":"c7","tool":"t","args":)")
            + QByteArray::fromStdString(nested(127)) + "}"
                                       << QByteArray("c7") << QByteArray("t") << QByteArray::fromStdString(nested(127))
                                       << 254;
    QTest::newRow("brackets inside strings do not count")
        << QByteArray(R"({"type":"call","id":"c8","tool":"t","args":{"s":")") + QByteArray(1000, '[') + "\\\"{\"}}"
        << QByteArray("c8") << QByteArray("t") << QByteArray(R"({"s":")") + QByteArray(1000, '[') + "\\\"{\"}" << 1011;
}

void TestBridgeMessage::decodeValid()
{
    QFETCH(QByteArray, line);
    QFETCH(QByteArray, id);
    QFETCH(QByteArray, tool);
    QFETCH(QByteArray, args);
    QFETCH(int, argsBytes);

    const BridgeDecodeResult result = BridgeProtocol::decodeLine(line.toStdString());
    QCOMPARE(QString::fromStdString(result.error), QString());
    QVERIFY(result.call.has_value());
    QCOMPARE(QByteArray::fromStdString(result.call->id), id);
    QCOMPARE(QByteArray::fromStdString(result.call->tool), tool);
    QCOMPARE(QByteArray::fromStdString(result.call->args.dump()), args);
    QCOMPARE(result.call->argsBytes, std::size_t(argsBytes));
}

void TestBridgeMessage::decodeInvalid_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("error");
    QTest::addColumn<bool>("prefixOnly"); // the parser's own detail follows the prefix

    QTest::newRow("bad JSON, not a call's shape") << QByteArray(R"({"type":"call","args":tru,"id":"c1","tool":"t"})")
                                                  << QStringLiteral("invalid JSON at byte offset 25: ") << true;
    QTest::newRow("truncated JSON") << QByteArray(R"({"type":"call")")
                                    << QStringLiteral("invalid JSON at byte offset 14: ") << true;
    QTest::newRow("trailing garbage") << QByteArray(R"({"type":"call","id":"c1","tool":"t"} x)")
                                      << QStringLiteral("invalid JSON at byte offset 37: ") << true;
    QTest::newRow("bad UTF-8") << QByteArray("{\"type\":\"call\",\"id\":\"\xff\",\"tool\":\"t\"}")
                               << QStringLiteral("invalid UTF-8 at byte offset 21") << false;
    QTest::newRow("overlong slash") << QByteArray("{\"type\":\"call\",\"id\":\"a\xc0\xaf\",\"tool\":\"t\"}")
                                    << QStringLiteral("invalid UTF-8 at byte offset 22") << false;
    QTest::newRow("UTF-8 encoded surrogate") << QByteArray("{\"type\":\"call\",\"id\":\"\xed\xa0\x80\",\"tool\":\"t\"}")
                                             << QStringLiteral("invalid UTF-8 at byte offset 21") << false;
    QTest::newRow("lone high surrogate escape")
        << QByteArray(R"({"type":"call","id":"\ud800","tool":"t"})")
        << QStringLiteral("lone UTF-16 surrogate escape \\ud800 in a JSON string at byte offset 21") << false;
    QTest::newRow("lone low surrogate escape")
        << QByteArray(R"({"type":"call","id":"ab\uDC00","tool":"t"})")
        << QStringLiteral("lone UTF-16 surrogate escape \\uDC00 in a JSON string at byte offset 23") << false;
    QTest::newRow("high surrogate then non-surrogate")
        << QByteArray(R"({"type":"call","id":"\ud83d\u0041","tool":"t"})")
        << QStringLiteral("lone UTF-16 surrogate escape \\ud83d in a JSON string at byte offset 21") << false;
    QTest::newRow("not an object") << QByteArray("[1,2]")
                                   << QStringLiteral("a bridge message must be a JSON object, not an array") << false;
    QTest::newRow("missing type") << QByteArray(R"({"id":"c1","tool":"t"})")
                                  << QStringLiteral("a bridge message needs a string \"type\"") << false;
    QTest::newRow("wrong type")
        << QByteArray(R"({"type":"result","id":"c1","tool":"t"})")
        << QStringLiteral(
               "unknown bridge message type \"result\" (a script sends only \"call\", \"model\" and \"wait\")")
        << false;
    QTest::newRow("type cut to 64 bytes")
        << QByteArray(R"({"type":")") + QByteArray(100, 'x') + R"("})"
        << QStringLiteral("unknown bridge message type \"") + QString(64, QLatin1Char('x'))
            + QStringLiteral("…\" (a script sends only \"call\", \"model\" and \"wait\")")
        << false;
    QTest::newRow("missing id") << QByteArray(R"({"type":"call","tool":"t"})")
                                << QStringLiteral("a call needs a non-empty string \"id\"") << false;
    QTest::newRow("empty id") << QByteArray(R"({"type":"call","id":"","tool":"t"})")
                              << QStringLiteral("a call needs a non-empty string \"id\"") << false;
    QTest::newRow("numeric id") << QByteArray(R"({"type":"call","id":7,"tool":"t"})")
                                << QStringLiteral("a call needs a non-empty string \"id\"") << false;
    QTest::newRow("missing tool") << QByteArray(R"({"type":"call","id":"c1"})")
                                  << QStringLiteral("a call needs a string \"tool\"") << false;
    QTest::newRow("depth 129") << QByteArray(R"({"type":"call","id":"c7","tool":"t","args":)")
            + QByteArray::fromStdString(nested(128)) + "}"
                               << QStringLiteral("JSON nested deeper than 128 levels at byte offset 170") << false;
}

void TestBridgeMessage::decodeInvalid()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, error);
    QFETCH(bool, prefixOnly);

    const BridgeDecodeResult result = BridgeProtocol::decodeLine(line.toStdString());
    QVERIFY(!result.call.has_value());
    const QString got = QString::fromStdString(result.error);
    if (prefixOnly) {
        QVERIFY2(got.startsWith(error), qPrintable(got));
        QVERIFY(got.size() > error.size());
    } else {
        QCOMPARE(got, error);
    }
}

// A call in the shims' shape whose arguments alone are bad (the text a Bash script
// passed as JSON, a lone surrogate, a bad byte) is that call failing, not the run's end
// (issue 17 item 4): a call with argumentsError, the offset counted in the arguments.
void TestBridgeMessage::decodeBadArguments_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("error");

    QTest::newRow("not JSON") << QByteArray(R"({"type":"call","id":"c1","tool":"t","args":tru})")
                              << QStringLiteral("not valid JSON at byte 3 of the arguments: syntax error while "
                                                "parsing value - invalid literal; last read: 'tru'");
    QTest::newRow("object not closed (Bash: tool t '{\"id\": 1')")
        << QByteArray(R"({"type":"call","id":"c1","tool":"t","args":{"id": 1})")
        << QStringLiteral("not valid JSON at byte 8 of the arguments: syntax error while parsing object - "
                          "unexpected end of input; expected '}'");
    QTest::newRow("a number beyond a double") << QByteArray(R"({"type":"call","id":"c1","tool":"t","args":[1e999]})")
                                              << QStringLiteral("not valid JSON: number overflow parsing '1e999'");
    QTest::newRow("string args") << QByteArray(R"({"type":"call","id":"c1","tool":"t","args":"x"})")
                                 << QStringLiteral("the arguments must be a JSON object or array, not a string");
    QTest::newRow("null args, not last") << QByteArray(R"({"type":"call","args":null,"id":"c1","tool":"t"})")
                                         << QStringLiteral("the arguments must be a JSON object or array, not null");
    QTest::newRow("nothing after args") << QByteArray(R"({"type":"call","id":"c1","tool":"t","args": })")
                                        << QStringLiteral("no arguments after \"args\":");
    QTest::newRow("bad UTF-8 in a value")
        << QByteArray("{\"type\":\"call\",\"id\":\"c1\",\"tool\":\"t\",\"args\":{\"a\":\"\xff\"}}")
        << QStringLiteral("invalid UTF-8 at byte 6 of the arguments");
    QTest::newRow("lone surrogate in a value")
        << QByteArray(R"({"type":"call","id":"c1","tool":"t","args":{"a":"x\ud800"}})")
        << QStringLiteral("lone UTF-16 surrogate escape \\ud800 at byte 7 of the arguments");
}

void TestBridgeMessage::decodeBadArguments()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, error);

    const BridgeDecodeResult result = BridgeProtocol::decodeLine(line.toStdString());
    QCOMPARE(QString::fromStdString(result.error), QString());
    QVERIFY(result.call.has_value());
    QCOMPARE(QByteArray::fromStdString(result.call->id), QByteArray("c1"));
    QCOMPARE(QByteArray::fromStdString(result.call->tool), QByteArray("t"));
    QCOMPARE(QString::fromStdString(result.call->argumentsError), error);
    QCOMPARE(QByteArray::fromStdString(result.call->args.dump()), QByteArray("{}"));
}

void TestBridgeMessage::deepNestingRefusedWithoutRecursion()
{
    // 100 000 levels would overflow a recursive parser's stack; the pre-scan refuses
    // the line at the 129th bracket without building anything.
    for (const char open : {'[', '{'}) {
        const std::string line = std::string(100000, open);
        const BridgeDecodeResult result = BridgeProtocol::decodeLine(line);
        QVERIFY(!result.call.has_value());
        QCOMPARE(QString::fromStdString(result.error),
                 QStringLiteral("JSON nested deeper than 128 levels at byte offset 128"));
    }
    const std::string balanced = nested(100000);
    QCOMPARE(QString::fromStdString(BridgeProtocol::decodeLine(balanced).error),
             QStringLiteral("JSON nested deeper than 128 levels at byte offset 128"));
}

// A model frame without its "model" is refused by its id, so that call alone fails. The
// id used to be read after the message was moved away when the compiler evaluated the
// arguments left to right (clang: an abort in fuzz_bridge, CI of session 30).
void TestBridgeMessage::modelFrameRefusedByItsId()
{
    const BridgeDecodeResult result = BridgeProtocol::decodeLine(R"({"type":"model","id":"c10","tool":"x","to*ls":3})");
    QVERIFY(!result.call.has_value());
    QCOMPARE(QString::fromStdString(result.id), QStringLiteral("c10"));
    QCOMPARE(QString::fromStdString(result.error),
             QStringLiteral("a model call needs a string \"model\" (the model's name in toolstudio.json)"));
}

void TestBridgeMessage::firstInvalidUtf8_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<qlonglong>("offset"); // -1 = valid

    QTest::newRow("empty") << QByteArray() << -1LL;
    QTest::newRow("ASCII and NUL") << QByteArray("ab\0c", 4) << -1LL;
    QTest::newRow("2, 3 and 4 bytes") << QByteArray("é€😀\xf4\x8f\xbf\xbf") << -1LL;
    QTest::newRow("lone continuation") << QByteArray("ab\x80") << 2LL;
    QTest::newRow("overlong 2-byte C0") << QByteArray("a\xc0\x80") << 1LL;
    QTest::newRow("overlong 2-byte C1") << QByteArray("a\xc1\xbf") << 1LL;
    QTest::newRow("overlong 3-byte") << QByteArray("xy\xe0\x80\xaf") << 2LL;
    QTest::newRow("overlong 4-byte") << QByteArray("\xf0\x8f\xbf\xbf") << 0LL;
    QTest::newRow("surrogate D800") << QByteArray("ok\xed\xa0\x80") << 2LL;
    QTest::newRow("surrogate DFFF") << QByteArray("\xed\xbf\xbf") << 0LL;
    QTest::newRow("last before surrogates") << QByteArray("\xed\x9f\xbf") << -1LL;
    QTest::newRow("above U+10FFFF") << QByteArray("abc\xf4\x90\x80\x80") << 3LL;
    QTest::newRow("F5 lead") << QByteArray("\xf5\x80\x80\x80") << 0LL;
    QTest::newRow("FF") << QByteArray("\xff") << 0LL;
    QTest::newRow("truncated at end") << QByteArray("abc\xe2\x82") << 3LL;
    QTest::newRow("bad continuation") << QByteArray("ab\xc3(") << 2LL;
    QTest::newRow("second sequence bad") << QByteArray("é\xe2\x82\x41") << 2LL;
}

void TestBridgeMessage::firstInvalidUtf8()
{
    QFETCH(QByteArray, bytes);
    QFETCH(qlonglong, offset);
    const std::size_t got
        = BridgeProtocol::firstInvalidUtf8(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    QCOMPARE(got == std::string_view::npos ? -1LL : qlonglong(got), offset);
}

void TestBridgeMessage::encodeResult()
{
    QCOMPARE(BridgeProtocol::encodeResult("c1", json{{"sum", 3}, {"text", "é"}}),
             std::string("{\"type\":\"result\",\"id\":\"c1\",\"value\":{\"sum\":3,\"text\":\"é\"}}\n"));
    QCOMPARE(BridgeProtocol::encodeResult("c\"2", json()),
             std::string("{\"type\":\"result\",\"id\":\"c\\\"2\",\"value\":null}\n"));
    // A handler's invalid UTF-8 does not stop the reply: it becomes U+FFFD.
    QCOMPARE(BridgeProtocol::encodeResult("c3", json("a\xff")),
             std::string("{\"type\":\"result\",\"id\":\"c3\",\"value\":\"a\xef\xbf\xbd\"}\n"));
}

void TestBridgeMessage::encodeError()
{
    BridgeError error;
    error.code = std::string(errorCodeName(ErrorCode::InvalidArguments));
    error.message = "a must be an integer";
    error.retryable = false;
    error.attempts = 1;
    error.details = json{{"pointer", "/a"}, {"code", "overridden?"}};
    QCOMPARE(
        BridgeProtocol::encodeError("c9", error),
        std::string(
            R"({"type":"error","id":"c9","error":{"attempts":1,"code":"invalid_arguments","message":"a must be an integer","pointer":"/a","retryable":false}})")
            + "\n");
    const std::string line = BridgeProtocol::encodeError("c9", error);
    QCOMPARE(std::count(line.begin(), line.end(), '\n'), 1L);
}

void TestBridgeMessage::errorFromJson()
{
    const json value = json::parse(
        R"({"code":"timeout","message":"30 s passed","retryable":true,"attempts":3,"pointer":"/x","extra":[1]})");
    const BridgeError error = BridgeError::fromJson(value);
    QCOMPARE(error.code, std::string("timeout"));
    QCOMPARE(error.message, std::string("30 s passed"));
    QCOMPARE(error.retryable, true);
    QCOMPARE(error.attempts, 3);
    QCOMPARE(error.details.dump(), std::string(R"({"extra":[1],"pointer":"/x"})"));
    QCOMPARE(error.toJson().dump(), value.dump());

    const BridgeError defaults = BridgeError::fromJson(json::object());
    QCOMPARE(defaults.code, std::string());
    QCOMPARE(defaults.attempts, 0);
    QCOMPARE(defaults.retryable, false);
}

void TestBridgeMessage::errorFromJsonRejectsWrongTypes_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("not an object") << QByteArray("[]")
                                   << QStringLiteral("an error must be a JSON object, not an array");
    QTest::newRow("code") << QByteArray(R"({"code":1})")
                          << QStringLiteral("error field \"code\" must be a string, not a number");
    QTest::newRow("retryable") << QByteArray(R"({"retryable":"yes"})")
                               << QStringLiteral("error field \"retryable\" must be a boolean, not a string");
    QTest::newRow("attempts") << QByteArray(R"({"attempts":-1})")
                              << QStringLiteral("error field \"attempts\" must be a non-negative integer");
}

void TestBridgeMessage::errorFromJsonRejectsWrongTypes()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    try {
        BridgeError::fromJson(json::parse(json.toStdString()));
        QFAIL("no exception");
    } catch (const std::runtime_error &e) {
        QCOMPARE(QString::fromUtf8(e.what()), message);
    }
}

// The wait hint, as the shims send it (matched without a parse) and with any other
// fields: decodeLine refuses it as a type of its own, which BridgeChannel reads as
// the hint (BridgeWaitHint::UnknownTypeWait), never as a call.
void TestBridgeMessage::decodeWait_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<bool>("exact");
    QTest::newRow("as the shims send it") << QByteArray(R"({"type":"wait"})") << true;
    QTest::newRow("spaces") << QByteArray(R"( { "type" : "wait" } )") << false;
    QTest::newRow("other fields") << QByteArray(R"({"id":"c1","type":"wait","tool":"t","args":[1,{"x":null}]})")
                                  << false;
    QTest::newRow("args not a container") << QByteArray(R"({"args":5,"type":"wait"})") << false;
}

void TestBridgeMessage::decodeWait()
{
    QFETCH(QByteArray, line);
    QFETCH(bool, exact);
    const std::string_view view(line.constData(), line.size());
    QCOMPARE(BridgeWaitHint::matches(view), exact);
    const BridgeDecodeResult result = BridgeProtocol::decodeLine(view);
    QVERIFY(!result.call);
    QCOMPARE(QString::fromStdString(result.id), QString());
    QCOMPARE(QString::fromStdString(result.error),
             QStringLiteral("unknown bridge message type \"wait\" (a script sends only \"call\", \"model\" and "
                            "\"wait\")"));
    QVERIFY(result.error.rfind(BridgeWaitHint::UnknownTypeWait, 0) == 0);
}

QTEST_GUILESS_MAIN(TestBridgeMessage)
#include "tst_bridgemessage.moc"
