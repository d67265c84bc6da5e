// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// ModelStream (app/core/llm/modelstream.*): a streamed reply of each protocol, put back
// together, equals the reply the same answer gives unstreamed; bad events are named.
#include "llm/anthropiccodec.h"
#include "llm/modelstream.h"
#include "llm/openaichatcodec.h"
#include "python/secrets.h"

#include <QTemporaryDir>
#include <QTest>

using json = nlohmann::json;

namespace {

/// Text written with single quotes, so moc can read this file.
std::string J(const char *text)
{
    return QByteArray(text).replace('\'', '"').toStdString();
}

struct Fed
{
    bool ok = true;
    QString error;
    ModelStream::Failure failure = ModelStream::Failure::None;
    bool ended = false;
    QString preview;
    std::optional<ModelReply> reply;
};

/// Feeds `sse` (single quotes for double ones) through SseParser into a ModelStream.
Fed feed(ModelStream::Protocol protocol, const char *sse)
{
    SseParser parser;
    ModelStream stream(protocol);
    std::vector<SseEvent> events;
    parser.feed(J(sse), &events);
    Fed fed;
    for (const SseEvent &event : events) {
        if (!stream.add(event, &fed.error)) {
            fed.ok = false;
            fed.failure = stream.failure();
            return fed;
        }
    }
    fed.ended = stream.ended();
    fed.preview = stream.preview();
    if (fed.ended) {
        fed.reply = stream.reply(&fed.error);
        fed.ok = fed.reply.has_value();
    }
    return fed;
}

QString dumped(const std::optional<ModelReply> &reply)
{
    return reply ? QString::fromStdString(reply->toJson().dump()) : QStringLiteral("(none)");
}

constexpr auto OpenAI = ModelStream::Protocol::OpenAIChat;
constexpr auto Anthropic = ModelStream::Protocol::Anthropic;

} // namespace

class TestModelStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void openAIText()
    {
        const Fed fed = feed(OpenAI,
                             "data: {'choices': [{'index': 0, 'delta': {'role': 'assistant', 'content': ''}}]}\n\n"
                             "data: {'choices': [{'index': 0, 'delta': {'content': '1 EUR is '}}]}\n\n"
                             "data: {'choices': [{'index': 0, 'delta': {'content': '1.08 USD.'}, 'finish_reason': "
                             "null}]}\n\n"
                             "data: {'choices': [{'index': 0, 'delta': {}, 'finish_reason': 'stop'}]}\n\n"
                             "data: {'choices': [], 'usage': {'prompt_tokens': 11, 'completion_tokens': 5}}\n\n"
                             "data: [DONE]\n\n");
        QVERIFY2(fed.ok, qPrintable(fed.error));
        QString error;
        const auto unstreamed = OpenAIChatCodec::parseReply(
            J("{'choices': [{'index': 0, 'message': {'role': 'assistant', 'content': '1 EUR is 1.08 USD.'}, "
              "'finish_reason': 'stop'}], 'usage': {'prompt_tokens': 11, 'completion_tokens': 5}}"),
            &error);
        QCOMPARE(dumped(fed.reply), dumped(unstreamed));
        QCOMPARE(dumped(fed.reply),
                 QStringLiteral("{\"message\":{\"content\":\"1 EUR is 1.08 USD.\",\"role\":"
                                "\"assistant\"},\"stop_reason\":\"stop\",\"usage\":{\"input_"
                                "tokens\":11,\"output_tokens\":5}}"));
        QCOMPARE(fed.preview, QStringLiteral("1 EUR is 1.08 USD."));
    }

    void openAIToolCallsInPieces()
    {
        const Fed fed = feed(
            OpenAI,
            "data: {'choices': [{'index': 0, 'delta': {'role': 'assistant', 'content': null, 'tool_calls': [{'index': "
            "0, 'id': 'call_a', 'type': 'function', 'function': {'name': 'get_rate', 'arguments': ''}}]}}]}\n\n"
            "data: {'choices': [{'index': 0, 'delta': {'tool_calls': [{'index': 0, 'function': {'arguments': "
            "'{\\'base\\''}}]}}]}\n\n"
            "data: {'choices': [{'index': 0, 'delta': {'tool_calls': [{'index': 1, 'id': 'call_b', 'function': "
            "{'name': 'get_rate', 'arguments': '{\\'base\\': \\'GBP\\'}'}}]}}]}\n\n"
            "data: {'choices': [{'index': 0, 'delta': {'tool_calls': [{'index': 0, 'function': {'arguments': ': "
            "\\'EUR\\'}'}}]}}]}\n\n"
            "data: {'choices': [{'index': 0, 'delta': {}, 'finish_reason': 'tool_calls'}]}\n\n"
            "data: {'choices': [], 'usage': {'prompt_tokens': 20, 'completion_tokens': 7}}\n\n"
            "data: [DONE]\n\n");
        QVERIFY2(fed.ok, qPrintable(fed.error));
        QString error;
        const auto unstreamed = OpenAIChatCodec::parseReply(
            J("{'choices': [{'message': {'role': 'assistant', 'content': null, 'tool_calls': ["
              "{'id': 'call_a', 'type': 'function', 'function': {'name': 'get_rate', 'arguments': "
              "'{\\'base\\': \\'EUR\\'}'}},"
              "{'id': 'call_b', 'type': 'function', 'function': {'name': 'get_rate', 'arguments': "
              "'{\\'base\\': \\'GBP\\'}'}}]}, 'finish_reason': 'tool_calls'}], 'usage': {'prompt_tokens': 20, "
              "'completion_tokens': 7}}"),
            &error);
        QVERIFY(unstreamed);
        QCOMPARE(dumped(fed.reply), dumped(unstreamed));
        QCOMPARE(fed.preview, QStringLiteral("→ get_rate({\"base\": \"EUR\"})\n→ get_rate({\"base\": \"GBP\"})"));
    }

    void anthropicTextAndToolUse()
    {
        const Fed fed = feed(
            Anthropic,
            "event: message_start\ndata: {'type': 'message_start', 'message': {'id': 'msg_1', 'type': 'message', "
            "'role': 'assistant', 'content': [], 'model': 'm', 'stop_reason': null, 'usage': {'input_tokens': 11, "
            "'output_tokens': 1}}}\n\n"
            "event: content_block_start\ndata: {'type': 'content_block_start', 'index': 0, 'content_block': "
            "{'type': 'text', 'text': ''}}\n\n"
            "event: ping\ndata: {'type': 'ping'}\n\n"
            "event: content_block_delta\ndata: {'type': 'content_block_delta', 'index': 0, 'delta': {'type': "
            "'text_delta', 'text': 'Let me '}}\n\n"
            "event: content_block_delta\ndata: {'type': 'content_block_delta', 'index': 0, 'delta': {'type': "
            "'text_delta', 'text': 'look.'}}\n\n"
            "event: content_block_stop\ndata: {'type': 'content_block_stop', 'index': 0}\n\n"
            "event: content_block_start\ndata: {'type': 'content_block_start', 'index': 1, 'content_block': "
            "{'type': 'tool_use', 'id': 'toolu_1', 'name': 'get_rate', 'input': {}}}\n\n"
            "event: content_block_delta\ndata: {'type': 'content_block_delta', 'index': 1, 'delta': {'type': "
            "'input_json_delta', 'partial_json': ''}}\n\n"
            "event: content_block_delta\ndata: {'type': 'content_block_delta', 'index': 1, 'delta': {'type': "
            "'input_json_delta', 'partial_json': '{\\'base\\': \\'E'}}\n\n"
            "event: content_block_delta\ndata: {'type': 'content_block_delta', 'index': 1, 'delta': {'type': "
            "'input_json_delta', 'partial_json': 'UR\\'}'}}\n\n"
            "event: content_block_stop\ndata: {'type': 'content_block_stop', 'index': 1}\n\n"
            "event: message_delta\ndata: {'type': 'message_delta', 'delta': {'stop_reason': 'tool_use', "
            "'stop_sequence': null}, 'usage': {'output_tokens': 5}}\n\n"
            "event: message_stop\ndata: {'type': 'message_stop'}\n\n");
        QVERIFY2(fed.ok, qPrintable(fed.error));
        QString error;
        const auto unstreamed = AnthropicCodec::parseReply(
            J("{'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'content': [{'type': 'text', 'text': 'Let me "
              "look.'}, {'type': 'tool_use', 'id': 'toolu_1', 'name': 'get_rate', 'input': {'base': 'EUR'}}], "
              "'stop_reason': 'tool_use', 'usage': {'input_tokens': 11, 'output_tokens': 5}}"),
            &error);
        QVERIFY(unstreamed);
        QCOMPARE(dumped(fed.reply), dumped(unstreamed));
        QCOMPARE(fed.preview, QStringLiteral("Let me look.\n→ get_rate({\"base\": \"EUR\"})"));
        QCOMPARE(fed.reply->model, QStringLiteral("m")); // message_start's
    }

    // The model id a stream names (every Chat Completions chunk has it; Anthropic's
    // message_start) is the reply's, as unstreamed.
    void theModelIdOfAStream()
    {
        const Fed fed = feed(OpenAI,
                             "data: {'model': 'gpt-4o-2024-08-06', 'choices': [{'index': 0, 'delta': {'content': "
                             "'hi'}}]}\n\n"
                             "data: {'model': 'later', 'choices': [{'index': 0, 'delta': {}, 'finish_reason': "
                             "'stop'}]}\n\n"
                             "data: [DONE]\n\n");
        QVERIFY2(fed.ok, qPrintable(fed.error));
        QCOMPARE(fed.reply->model, QStringLiteral("gpt-4o-2024-08-06"));
        const Fed unnamed = feed(OpenAI,
                                 "data: {'choices': [{'index': 0, 'delta': {'content': 'hi'}, 'finish_reason': "
                                 "'stop'}]}\n\ndata: [DONE]\n\n");
        QVERIFY2(unnamed.ok, qPrintable(unnamed.error));
        QCOMPARE(unnamed.reply->model, QString());
    }

    void badStreams_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<QByteArray>("sse");
        QTest::addColumn<QString>("error");
        QTest::addColumn<int>("failure");
        const int bad = int(ModelStream::Failure::BadEvent);
        const int server = int(ModelStream::Failure::ServerError);
        QTest::newRow("openai: not JSON")
            << false << QByteArray("data: {'choices': []}\n\ndata: {'choices': [\n\n")
            << QStringLiteral("event 2 of the stream: the reply is not JSON: syntax error while parsing value - "
                              "unexpected end of input; expected '[', '{', or a literal (byte offset 13); it begins: "
                              "{\"choices\": [")
            << bad;
        QTest::newRow("openai: error in the stream")
            << false << QByteArray("data: {'error': {'message': 'overloaded', 'type': 'server_error'}}\n\n")
            << QStringLiteral("the server sent an error in the stream: overloaded") << server;
        QTest::newRow("openai: huge index")
            << false
            << QByteArray("data: {'choices': [{'delta': {'tool_calls': [{'index': 1000000000, 'function': {'name': "
                          "'x'}}]}}]}\n\n")
            << QStringLiteral("event 1 of the stream: choices[0].delta.tool_calls[0].index is not a number from 0 "
                              "to 1023")
            << bad;
        QTest::newRow("openai: content not text")
            << false << QByteArray("data: {'choices': [{'delta': {'content': 5}}]}\n\n")
            << QStringLiteral("event 1 of the stream: choices[0].delta.content is a number, not a string") << bad;
        QTest::newRow("openai: not an object") << false << QByteArray("data: [1]\n\n")
                                               << QStringLiteral("event 1 of the stream: the reply is not a JSON "
                                                                 "object but an array")
                                               << bad;
        QTest::newRow("anthropic: error event")
            << true
            << QByteArray("event: error\ndata: {'type': 'error', 'error': {'type': 'overloaded_error', 'message': "
                          "'Overloaded'}}\n\n")
            << QStringLiteral("the server sent an error in the stream: overloaded_error: Overloaded") << server;
        QTest::newRow("anthropic: delta before start")
            << true
            << QByteArray("data: {'type': 'message_start', 'message': {'role': 'assistant'}}\n\n"
                          "data: {'type': 'content_block_delta', 'index': 3, 'delta': {'type': 'text_delta', "
                          "'text': 'x'}}\n\n")
            << QStringLiteral("event 2 of the stream: content_block_delta for content block 3, which did not start")
            << bad;
        QTest::newRow("anthropic: block before message")
            << true
            << QByteArray("data: {'type': 'content_block_start', 'index': 0, 'content_block': {'type': 'text'}}\n\n")
            << QStringLiteral("event 1 of the stream: content_block_start before message_start") << bad;
        QTest::newRow("anthropic: no type")
            << true << QByteArray("data: {}\n\n") << QStringLiteral("event 1 of the stream: it has no 'type'") << bad;
    }

    void badStreams()
    {
        QFETCH(bool, anthropic);
        QFETCH(QByteArray, sse);
        QFETCH(QString, error);
        QFETCH(int, failure);
        const Fed fed = feed(anthropic ? Anthropic : OpenAI, sse.constData());
        QVERIFY(!fed.ok);
        QCOMPARE(fed.error, error);
        QCOMPARE(int(fed.failure), failure);
    }

    /// Tool input whose pieces do not make JSON: the reply fails, naming the block.
    void anthropicInputNotJson()
    {
        const Fed fed = feed(Anthropic,
                             "data: {'type': 'message_start', 'message': {'role': 'assistant'}}\n\n"
                             "data: {'type': 'content_block_start', 'index': 0, 'content_block': {'type': "
                             "'tool_use', 'id': 't', 'name': 'get_rate', 'input': {}}}\n\n"
                             "data: {'type': 'content_block_delta', 'index': 0, 'delta': {'type': "
                             "'input_json_delta', 'partial_json': '{\\'base'}}\n\n"
                             "data: {'type': 'message_stop'}\n\n");
        QVERIFY(fed.ended);
        QVERIFY(!fed.ok);
        QVERIFY2(fed.error.startsWith(QStringLiteral("the stream's content block 0 (tool_use): its input_json_delta "
                                                     "pieces are not JSON: ")),
                 qPrintable(fed.error));
    }

    /// Without [DONE] the stream has not ended: the client reports it, not a cut reply.
    void noTerminator()
    {
        const Fed fed = feed(OpenAI, "data: {'choices': [{'delta': {'content': 'half'}}]}\n\n");
        QVERIFY(fed.ok);
        QVERIFY(!fed.ended);
        QCOMPARE(fed.preview, QStringLiteral("half"));
    }

    /// A long reply's preview is cut; the reply is whole.
    void previewIsCut()
    {
        ModelStream stream(OpenAI);
        QString error;
        const std::string piece(1000, 'x');
        for (int i = 0; i < 40; ++i) {
            SseEvent event;
            event.data = json{{"choices", {{{"delta", {{"content", piece}}}}}}}.dump();
            QVERIFY(stream.add(event, &error));
        }
        QVERIFY(stream.changed());
        const QString preview = stream.preview();
        QVERIFY(!stream.changed());
        QCOMPARE(preview.size(), ModelStream::PreviewChars + 1);
        QVERIFY(preview.endsWith(QStringLiteral("x…")));
    }

    /// A key that straddles the preview's cut is masked, not shown in part (the cut
    /// comes after the mask; an attacker's server could place it there).
    void aSecretAcrossThePreviewsCutIsMasked()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Secrets secrets = Secrets::load(dir.path());
        const QString key = QStringLiteral("sk-live-0123456789abcdef");
        QVERIFY(secrets.set(QStringLiteral("API_KEY"), key));
        ModelStream stream(OpenAI);
        QString error;
        SseEvent event;
        // The key starts 10 characters before the cut.
        const std::string text = std::string(ModelStream::PreviewChars - 10, 'x') + key.toStdString() + "tail";
        event.data = json{{"choices", {{{"delta", {{"content", text}}}}}}}.dump();
        QVERIFY(stream.add(event, &error));
        const QString preview = stream.preview(&secrets);
        QCOMPARE(preview.size(), ModelStream::PreviewChars + 1);
        QCOMPARE(preview.right(21), QStringLiteral("xxxxxxxxxx********ta…"));
        QVERIFY2(!preview.contains(QStringLiteral("sk-live")), qPrintable(preview.right(40)));
        // The tool call's arguments, cut at 200, likewise.
        ModelStream calls(OpenAI);
        json call = {{"index", 0}, {"id", "c1"}};
        call["function"] = {{"name", "f"}, {"arguments", std::string(195, 'a') + key.toStdString()}};
        json delta;
        delta["tool_calls"] = json::array({call});
        json choice;
        choice["delta"] = delta;
        event.data = json{{"choices", json::array({choice})}}.dump();
        QVERIFY2(calls.add(event, &error), qPrintable(error));
        const QString line = calls.preview(&secrets);
        QVERIFY2(!line.contains(QStringLiteral("sk-li")), qPrintable(line));
        QVERIFY2(line.endsWith(QStringLiteral("aaaaa*****…)")), qPrintable(line.right(20)));
    }
};

QTEST_GUILESS_MAIN(TestModelStream)
#include "tst_modelstream.moc"
