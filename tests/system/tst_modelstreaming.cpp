// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Streamed model replies (docs/models.md "Streaming"): ModelClient asked for a stream
// against the local fake server (tests/data/models/fakemodelserver.py) — the reply equals
// the unstreamed one, the preview grows while it arrives, and every way a stream can go
// wrong ends with its own clear error, no crash and bounded memory.
#include "fakemodelserver.h"
#include "h2offeringserver.h"
#include "llm/modelclient.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using json = nlohmann::json;

namespace {

json parsed(const char *text)
{
    return json::parse(QByteArray(text).replace('\'', '"').toStdString());
}

ModelRequest question(bool withTools = true)
{
    ModelRequest request;
    request.messages = parsed("[{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': '1 EUR?'}]");
    if (withTools) {
        Tool tool;
        tool.name = QStringLiteral("get_rate");
        tool.description = QStringLiteral("Exchange rate");
        tool.inputSchema = parsed("{'type': 'object', 'properties': {'base': {'type': 'string'}}}");
        request.tools = {tool};
    }
    return request;
}

struct Asked
{
    ModelResult result;
    QStringList previews;            ///< what the preview callback got, in order
    qint64 previewBeforeDoneMs = -1; ///< how long before `done` the first preview came
};

} // namespace

class TestModelStreaming : public QObject
{
    Q_OBJECT

private:
    FakeModelServer m_server;
    QNetworkAccessManager m_network;
    QTemporaryDir m_project;

    ModelConfig model(bool anthropic, const QString &scenario)
    {
        ModelConfig config;
        config.name = QStringLiteral("fake");
        config.provider = anthropic ? ModelConfig::Provider::Anthropic : ModelConfig::Provider::OpenAIChat;
        config.model = QStringLiteral("fake-1");
        config.baseUrl = m_server.base() + QLatin1Char('/') + scenario;
        config.timeoutMs = 20000;
        return config;
    }

    /// One request; `stream` asks for a stream (a preview callback).
    Asked ask(ModelConfig config, bool stream, qint64 replyCap = 0, int idleMs = 0, bool withTools = true)
    {
        if (idleMs > 0)
            config.streamIdleMs = idleMs;
        ModelClient client(config, Secrets::load(m_project.path()), &m_network);
        if (replyCap > 0)
            client.setReplyCap(replyCap);
        Asked asked;
        bool done = false;
        QElapsedTimer firstPreview;
        QEventLoop loop;
        ModelClient::Preview preview;
        if (stream)
            preview = [&](const QString &text) {
                if (done)
                    QTest::qFail("a preview after the reply", __FILE__, __LINE__);
                if (asked.previews.isEmpty())
                    firstPreview.start();
                asked.previews << text;
            };
        client.send(
            question(withTools),
            [&](const ModelResult &result) {
                asked.result = result;
                done = true;
                if (firstPreview.isValid())
                    asked.previewBeforeDoneMs = firstPreview.elapsed();
                loop.quit();
            },
            preview);
        if (!done)
            loop.exec();
        return asked;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_project.isValid());
        if (FakeModelServer::python().isEmpty())
            QSKIP("python3 is not installed: the fake model server needs it");
        const QString why = m_server.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void cleanupTestCase() { m_server.stop(); }

    void streamedEqualsUnstreamed_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<bool>("withTools");
        QTest::addColumn<QString>("reply");
        QTest::newRow("openai: a tool call")
            << false << true
            << QStringLiteral("{\"message\":{\"content\":null,\"role\":\"assistant\",\"tool_calls\":[{\"function\":"
                              "{\"arguments\":\"{\\\"base\\\": \\\"EUR\\\"}\",\"name\":\"get_rate\"},\"id\":\"call_1\","
                              "\"type\":\"function\"}]},\"stop_reason\":\"tool_calls\",\"usage\":{\"input_tokens\":11,"
                              "\"output_tokens\":5}}");
        QTest::newRow("openai: text")
            << false << false
            << QStringLiteral("{\"message\":{\"content\":\"1 EUR is 1.08 USD.\",\"role\":\"assistant\"},\"stop_"
                              "reason\":\"stop\",\"usage\":{\"input_tokens\":11,\"output_tokens\":5}}");
        QTest::newRow("anthropic: a tool call")
            << true << true
            << QStringLiteral("{\"message\":{\"content\":null,\"role\":\"assistant\",\"tool_calls\":[{\"function\":"
                              "{\"arguments\":\"{\\\"base\\\":\\\"EUR\\\"}\",\"name\":\"get_rate\"},\"id\":\"toolu_1\","
                              "\"type\":\"function\"}]},\"stop_reason\":\"tool_calls\",\"usage\":{\"input_tokens\":11,"
                              "\"output_tokens\":5}}");
        QTest::newRow("anthropic: text")
            << true << false
            << QStringLiteral("{\"message\":{\"content\":\"1 EUR is 1.08 USD.\",\"role\":\"assistant\"},\"stop_"
                              "reason\":\"stop\",\"usage\":{\"input_tokens\":11,\"output_tokens\":5}}");
    }

    /// The same answer streamed and unstreamed is the same reply, to the byte.
    void streamedEqualsUnstreamed()
    {
        QFETCH(bool, anthropic);
        QFETCH(bool, withTools);
        QFETCH(QString, reply);
        const ModelConfig config = model(anthropic, QStringLiteral("ok"));
        const Asked plain = ask(config, false, 0, 0, withTools);
        QVERIFY2(plain.result.reply, qPrintable(plain.result.error.message));
        QCOMPARE(QString::fromStdString(plain.result.reply->toJson().dump()), reply);
        const json unstreamedBody = json::parse(m_server.get(QStringLiteral("/last"))["body"].get<std::string>());
        QVERIFY(!unstreamedBody.contains("stream"));

        const Asked streamed = ask(config, true, 0, 0, withTools);
        QVERIFY2(streamed.result.reply, qPrintable(streamed.result.error.message));
        QCOMPARE(QString::fromStdString(streamed.result.reply->toJson().dump()), reply);
        const json last = m_server.get(QStringLiteral("/last"));
        QCOMPARE(last["headers"]["accept"].get<std::string>(), std::string("text/event-stream"));
        json body = json::parse(last["body"].get<std::string>());
        QVERIFY(body["stream"] == json(true));
        if (anthropic) {
            QVERIFY(!body.contains("stream_options"));
        } else {
            QVERIFY(body["stream_options"] == parsed("{'include_usage': true}"));
            body.erase("stream_options");
        }
        body.erase("stream");
        QCOMPARE(QString::fromStdString(body.dump()),
                 QString::fromStdString(unstreamedBody.dump())); // nothing else changed in the request
    }

    /// A server that cannot stream answers JSON: read as an unstreamed reply.
    void jsonAnswerToAStreamRequest()
    {
        for (const bool anthropic : {false, true}) {
            const Asked asked = ask(model(anthropic, QStringLiteral("streamjson")), true, 0, 0, false);
            QVERIFY2(asked.result.reply, qPrintable(asked.result.error.message));
            QCOMPARE(QString::fromStdString(asked.result.reply->message.value("content", "")),
                     QStringLiteral("1 EUR is 1.08 USD."));
            QVERIFY(asked.previews.isEmpty());
        }
    }

    /// A server that refuses "stream_options" (as older compatible servers do): the
    /// error says what to do, and with "stream": false the same request is answered,
    /// unstreamed, without a preview.
    void streamOptOut()
    {
        ModelConfig config = model(false, QStringLiteral("nostreamoptions"));
        const Asked refused = ask(config, true, 0, 0, false);
        QVERIFY(!refused.result.reply);
        QCOMPARE(refused.result.error.code, QStringLiteral("model_refused"));
        QCOMPARE(refused.result.error.message,
                 QStringLiteral("model 'fake': the request was refused (HTTP 400 from %1: Unrecognized request "
                                "argument supplied: stream_options); if this server does not take streamed "
                                "requests, set \"stream\": false on this model in toolstudio.json")
                     .arg(config.endpointUrl()));

        config.stream = false;
        const Asked answered = ask(config, true, 0, 0, false);
        QVERIFY2(answered.result.reply, qPrintable(answered.result.error.message));
        QCOMPARE(QString::fromStdString(answered.result.reply->message.value("content", "")),
                 QStringLiteral("1 EUR is 1.08 USD."));
        QVERIFY(answered.previews.isEmpty());
        const json last = m_server.get(QStringLiteral("/last"));
        QCOMPARE(last["headers"]["accept"].get<std::string>(), std::string("application/json"));
        const json body = json::parse(last["body"].get<std::string>());
        QVERIFY(!body.contains("stream"));
        QVERIFY(!body.contains("stream_options"));

        // Another 400 is not about streaming: no such advice.
        const Asked other = ask(model(false, QStringLiteral("badrequest")), true, 0, 0, false);
        QCOMPARE(other.result.error.code, QStringLiteral("model_refused"));
        QCOMPARE(other.result.error.message,
                 QStringLiteral("model 'fake': the request was refused (HTTP 400 from %1: max_tokens is too large)")
                     .arg(model(false, QStringLiteral("badrequest")).endpointUrl()));
    }

    /// The preview shows the text while the server pauses; the reply is whole.
    void previewGrowsBeforeTheEnd()
    {
        for (const bool anthropic : {false, true}) {
            const Asked asked = ask(model(anthropic, QStringLiteral("slowstream")), true);
            QVERIFY2(asked.result.reply, qPrintable(asked.result.error.message));
            QCOMPARE(QString::fromStdString(asked.result.reply->message.value("content", "")),
                     QStringLiteral("Counting: one, two."));
            QVERIFY(!asked.previews.isEmpty());
            QCOMPARE(asked.previews.first(), QStringLiteral("Counting: one, "));
            QVERIFY2(asked.previewBeforeDoneMs >= 2000, qPrintable(QString::number(asked.previewBeforeDoneMs)));
        }
    }

    /// A body that stays open after the terminator: the reply is whole, taken after a
    /// short grace (ModelClient::TerminatorGraceMs), not failed by the idle timeout.
    void bodyOpenAfterTheTerminator()
    {
        for (const bool anthropic : {false, true}) {
            QElapsedTimer timer;
            timer.start();
            const Asked asked = ask(model(anthropic, QStringLiteral("streamlinger")), true, 0, 5000, false);
            QVERIFY2(asked.result.reply, qPrintable(asked.result.error.message));
            QCOMPARE(QString::fromStdString(asked.result.reply->message.value("content", "")),
                     QStringLiteral("Whole answer."));
            QCOMPARE(asked.result.reply->stopReason, QStringLiteral("stop"));
            QVERIFY2(timer.elapsed() < 4000, qPrintable(QString::number(timer.elapsed())));
        }
    }

    void bytesAfterTheTerminatorAreLetGo()
    {
        // attack44 F1: a server that floods after its terminator. Left unread for the 250 ms
        // grace, the bytes piled up in Qt (264 MB peak against 41 MB); read and let go, the
        // body is cut off after 64 KiB of them, and the server can send only what the
        // sockets' buffers take.
        for (const bool anthropic : {false, true}) {
            const Asked asked = ask(model(anthropic, QStringLiteral("streamafterflood")), true);
            QVERIFY2(asked.result.reply, qPrintable(asked.result.error.message));
            QCOMPARE(QString::fromStdString(asked.result.reply->message.value("content", "")),
                     QStringLiteral("Whole answer."));
            QTest::qWait(300); // the server's writes end at the closed connection
            const qint64 flooded = m_server.get(QStringLiteral("/flooded")).value("bytes", qint64(-1));
            QVERIFY2(flooded >= 0 && flooded < 48ll * 1024 * 1024, qPrintable(QString::number(flooded)));
        }
    }

    void http2IsNotNegotiated()
    {
        // attack44 F1 left the model client negotiating HTTP/2, where Qt 6.4 does not
        // bound what it reads ahead of a stream; now every request of the studio's own
        // is HTTP/1.1 (OutgoingNetwork::request), as the MCP client's are.
        if (!QSslSocket::supportsSsl())
            QSKIP("no TLS backend");
        H2OfferingServer server;
        QVERIFY(server.listen());
        ModelConfig config = model(false, QString());
        config.baseUrl = server.base() + QStringLiteral("/v1");
        ModelClient client(config, Secrets::load(m_project.path()), &m_network);
        const quint64 id = client.send(question(false), [](const ModelResult &) {});
        QByteArray protocol = "unset";
        QCOMPARE(server.firstRequestLine(&protocol), QByteArray("POST /v1/chat/completions HTTP/1.1"));
        QCOMPARE(protocol, QByteArray());
        client.cancel(id);
    }

    void failures_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<QString>("message"); ///< %1 = the endpoint URL

        for (const bool anthropic : {false, true}) {
            const char *p = anthropic ? "anthropic: " : "openai: ";
            const QString end = anthropic ? QStringLiteral("no message_stop") : QStringLiteral("no data: [DONE]");
            const int opening = anthropic ? 2 : 0; // message_start, content_block_start
            QTest::addRow("%sstall mid-stream", p)
                << anthropic << QStringLiteral("streamstall") << QStringLiteral("timeout") << true
                << QStringLiteral("model 'fake': the stream from %1 stopped mid-reply: nothing came for 0.5 s after "
                                  "%2 events")
                       .arg(QStringLiteral("%1"), QString::number(opening + 2));
            QTest::addRow("%sno terminator", p)
                << anthropic << QStringLiteral("streamnoend") << QStringLiteral("model_bad_reply") << false
                << QStringLiteral("model 'fake': the stream from %1 ended before its end (%2) after %3 events")
                       .arg(QStringLiteral("%1"), end, QString::number(opening + 2));
            QTest::addRow("%sserver error event", p)
                << anthropic << QStringLiteral("streamerror") << QStringLiteral("model_server_error") << true
                << QStringLiteral("model 'fake': the server sent an error in the stream: %2 (from %1)")
                       .arg(QStringLiteral("%1"),
                            anthropic ? QStringLiteral("overloaded_error: Overloaded")
                                      : QStringLiteral("the model is overloaded"));
            QTest::addRow("%sendless tiny events", p)
                << anthropic << QStringLiteral("streamflood") << QStringLiteral("reply_too_large") << false
                << QStringLiteral("model 'fake': the reply from %1 is larger than 1048576 bytes; it was not read "
                                  "further");
            QTest::addRow("%sone line without end", p)
                << anthropic << QStringLiteral("streamlongline") << QStringLiteral("reply_too_large") << false
                << QStringLiteral("model 'fake': the reply from %1 is larger than 1048576 bytes; it was not read "
                                  "further");
            QTest::addRow("%sSSE labelled JSON", p)
                << anthropic << QStringLiteral("streamliesjson") << QStringLiteral("model_bad_reply") << false
                << QStringLiteral("model 'fake': the reply is not JSON: syntax error while parsing value - invalid "
                                  "literal; last read: '%2' (byte offset 0); it begins: %3 (from %1)")
                       .arg(QStringLiteral("%1"), anthropic ? QStringLiteral("e") : QStringLiteral("d"),
                            anthropic ? QStringLiteral("event: message_start\\ndata: {\"type\": \"message_start\", "
                                                       "\"message\": {\"id\": \"msg_s\", ")
                                      : QStringLiteral("data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": "
                                                       "\"Half \"}, \"finish_reason\": "));
            QTest::addRow("%sJSON labelled SSE", p)
                << anthropic << QStringLiteral("streamliessse") << QStringLiteral("model_bad_reply") << false
                << QStringLiteral("model 'fake': the stream from %1 ended before its end (%2) after 0 events; it "
                                  "begins: %3")
                       .arg(QStringLiteral("%1"), end,
                            anthropic ? QStringLiteral("{\"id\": \"msg_1\", \"type\": \"message\", \"role\": "
                                                       "\"assistant\", \"model\": \"fake-1\", \"cont")
                                      : QStringLiteral("{\"id\": \"chatcmpl-1\", \"object\": \"chat.completion\", "
                                                       "\"created\": 0, \"model\": \"fake-1"));
        }
        QTest::addRow("openai: malformed event")
            << false << QStringLiteral("streambadevent") << QStringLiteral("model_bad_reply") << false
            << QStringLiteral("model 'fake': event 2 of the stream: the reply is not JSON: syntax error while parsing "
                              "object - unexpected end of input; expected '}' (byte offset 38); it begins: "
                              "{\"choices\": [{\"delta\": {\"content\": \"x\" (from %1)");
        QTest::addRow("openai: invalid UTF-8 split over chunks")
            << false << QStringLiteral("streambadutf8") << QStringLiteral("model_bad_reply") << false
            << QStringLiteral("model 'fake': event 2 of the stream: the reply is not JSON: syntax error while parsing "
                              "value - invalid string: ill-formed UTF-8 byte; last read: '\"caf%2(' (byte offset 52); "
                              "it begins: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"caf%2(\"}}]} "
                              "(from %1)")
                   .arg(QStringLiteral("%1"), QString(QChar(0xFFFD)));
        QTest::addRow("openai: 10 MB of tool-call arguments")
            << false << QStringLiteral("streamhugeargs") << QStringLiteral("reply_too_large") << false
            << QStringLiteral("model 'fake': the reply from %1 is larger than 8388608 bytes; it was not read further");
        QTest::addRow("openai: closed mid-event")
            << false << QStringLiteral("streamcut") << QStringLiteral("model_bad_reply") << true
            << QStringLiteral("model 'fake': the stream from %1 ended before its end (no data: [DONE]) after 1 "
                              "events, in the middle of an event");
    }

    void failures()
    {
        QFETCH(bool, anthropic);
        QFETCH(QString, scenario);
        QFETCH(QString, code);
        QFETCH(bool, retryable);
        QFETCH(QString, message);
        const ModelConfig config = model(anthropic, scenario);
        const bool defaultCap = scenario == QLatin1String("streamhugeargs");
        const Asked asked = ask(config, true, defaultCap ? 0 : 1024 * 1024, 500);
        QVERIFY(!asked.result.reply);
        const QString expected = message.arg(config.endpointUrl());
        // Qt names a close mid-chunk "Connection closed" or not at all, as its timing falls.
        if (scenario == QLatin1String("streamcut") && asked.result.error.message != expected)
            QCOMPARE(asked.result.error.message, expected + QStringLiteral(": Connection closed"));
        else
            QCOMPARE(asked.result.error.message, expected);
        QCOMPARE(asked.result.error.code, code);
        QCOMPARE(asked.result.error.retryable, retryable);
    }
};

QTEST_GUILESS_MAIN(TestModelStreaming)
#include "tst_modelstreaming.moc"
