// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The neutral message shape and the two provider codecs (docs/models.md), with the
// exact JSON that goes out and what comes back.
#include "llm/anthropiccodec.h"
#include "llm/modelmessage.h"
#include "llm/openaichatcodec.h"

#include <QTest>

using json = nlohmann::json;

namespace {

/// JSON written with single quotes, so moc can read this file: J("{'a': 1}").
std::string J(const char *text)
{
    return QByteArray(text).replace('\'', '"').toStdString();
}

json parsed(const char *text)
{
    return json::parse(J(text));
}

ModelConfig config(ModelConfig::Provider provider, json params = json::object())
{
    ModelConfig model;
    model.name = QStringLiteral("m");
    model.provider = provider;
    model.model = QStringLiteral("test-model");
    model.params = std::move(params);
    return model;
}

Tool rateTool()
{
    Tool tool;
    tool.name = QStringLiteral("get_rate");
    tool.description = QStringLiteral("Exchange rate");
    tool.inputSchema = parsed("{'type': 'object', 'properties': {'base': {'type': 'string'}}, 'required': ['base']}");
    tool.parameterOrder = {QStringLiteral("base")};
    return tool;
}

/// A conversation in the neutral shape: system, user, a tool call, its result (an
/// error), the model's answer, the next user turn.
json conversation()
{
    return parsed("["
                  "{'role': 'system', 'content': 'Be brief.'},"
                  "{'role': 'user', 'content': '100 EUR?'},"
                  "{'role': 'assistant', 'content': 'Looking.', 'tool_calls': [{'id': 'c1', 'type': 'function',"
                  "  'function': {'name': 'get_rate', 'arguments': '{\\'base\\':\\'EUR\\'}'}}]},"
                  "{'role': 'tool', 'tool_call_id': 'c1', 'content': 'rate service down', 'is_error': true},"
                  "{'role': 'assistant', 'content': 'The service is down.'},"
                  "{'role': 'user', 'content': 'Try again'}]");
}

/// A 1×1 PNG, as base64.
constexpr const char *Png
    = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/// A user message asking about an image (and, with `audio`, a clip of WAV).
json imageMessages(bool audio)
{
    json parts
        = json::array({json{{"type", "text"}, {"text", "What is on it?"}}, ModelMessage::imagePart("image/png", Png)});
    if (audio)
        parts.push_back(ModelMessage::audioPart("wav", "UklGRiQAAABXQVZF"));
    return json::array(
        {json{{"role", "system"}, {"content", "Be brief."}}, json{{"role", "user"}, {"content", parts}}});
}

QString text(const std::optional<nlohmann::ordered_json> &value)
{
    return value ? QString::fromStdString(value->dump()) : QStringLiteral("(none)");
}

} // namespace

class TestModelCodec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void openAIRequest()
    {
        ModelRequest request;
        request.messages = conversation();
        request.tools = {rateTool()};
        QString error;
        const auto body = OpenAIChatCodec::buildRequest(
            config(ModelConfig::Provider::OpenAIChat, parsed("{'temperature': 0}")), request, &error);
        QVERIFY2(body, qPrintable(error));
        QCOMPARE(text(body),
                 QString::fromStdString(
                     J("{'model':'test-model','messages':["
                       "{'role':'system','content':'Be brief.'},"
                       "{'role':'user','content':'100 EUR?'},"
                       "{'role':'assistant','content':'Looking.','tool_calls':[{'id':'c1','type':'function',"
                       "'function':{'name':'get_rate','arguments':'{\\'base\\':\\'EUR\\'}'}}]},"
                       "{'role':'tool','tool_call_id':'c1','content':'rate service down'},"
                       "{'role':'assistant','content':'The service is down.'},"
                       "{'role':'user','content':'Try again'}],"
                       "'tools':[{'type':'function','function':{'name':'get_rate','description':'Exchange rate',"
                       "'parameters':{'type':'object','properties':{'base':{'type':'string'}},'required':['base']}}}],"
                       "'temperature':0}")));
    }

    void anthropicRequest()
    {
        ModelRequest request;
        request.messages = conversation();
        request.tools = {rateTool()};
        QString error;
        const auto body = AnthropicCodec::buildRequest(config(ModelConfig::Provider::Anthropic), request, &error);
        QVERIFY2(body, qPrintable(error));
        // The tool result and the next user text share one user message; max_tokens is
        // the default the API requires.
        QCOMPARE(
            text(body),
            QString::fromStdString(
                J("{'model':'test-model','max_tokens':4096,'system':'Be brief.','messages':["
                  "{'role':'user','content':[{'type':'text','text':'100 EUR?'}]},"
                  "{'role':'assistant','content':[{'type':'text','text':'Looking.'},"
                  "{'type':'tool_use','id':'c1','name':'get_rate','input':{'base':'EUR'}}]},"
                  "{'role':'user','content':[{'type':'tool_result','tool_use_id':'c1',"
                  "'content':'rate service down','is_error':true}]},"
                  "{'role':'assistant','content':[{'type':'text','text':'The service is down.'}]},"
                  "{'role':'user','content':[{'type':'text','text':'Try again'}]}],"
                  "'tools':[{'name':'get_rate','description':'Exchange rate',"
                  "'input_schema':{'type':'object','properties':{'base':{'type':'string'}},'required':['base']}}]}")));

        // Two results in a row and then text: one user message, results first.
        request.messages
            = parsed("[{'role': 'user', 'content': 'go'},"
                     "{'role': 'assistant', 'content': null, 'tool_calls': ["
                     "  {'id': 'a', 'type': 'function', 'function': {'name': 'get_rate', 'arguments': '{}'}},"
                     "  {'id': 'b', 'type': 'function', 'function': {'name': 'get_rate', 'arguments': '{}'}}]},"
                     "{'role': 'tool', 'tool_call_id': 'a', 'content': '1'},"
                     "{'role': 'tool', 'tool_call_id': 'b', 'content': '2'},"
                     "{'role': 'user', 'content': 'and?'}]");
        request.tools.clear();
        const auto merged = AnthropicCodec::buildRequest(
            config(ModelConfig::Provider::Anthropic, parsed("{'max_tokens': 50, 'temperature': 1}")), request, &error);
        QVERIFY2(merged, qPrintable(error));
        QCOMPARE(text(merged),
                 QString::fromStdString(
                     J("{'model':'test-model','max_tokens':50,'messages':["
                       "{'role':'user','content':[{'type':'text','text':'go'}]},"
                       "{'role':'assistant','content':[{'type':'tool_use','id':'a','name':'get_rate','input':{}},"
                       "{'type':'tool_use','id':'b','name':'get_rate','input':{}}]},"
                       "{'role':'user','content':[{'type':'tool_result','tool_use_id':'a','content':'1'},"
                       "{'type':'tool_result','tool_use_id':'b','content':'2'},{'type':'text','text':'and?'}]}],"
                       "'temperature':1}")));
    }

    void toolChoiceIsEachProvidersOwn_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("openai");
        QTest::addColumn<QString>("anthropic");
        QTest::newRow("none given") << QString() << QString() << QString();
        QTest::newRow("auto") << QStringLiteral("auto") << QStringLiteral("\"auto\"")
                              << QStringLiteral("{\"type\":\"auto\"}");
        QTest::newRow("required") << QStringLiteral("required") << QStringLiteral("\"required\"")
                                  << QStringLiteral("{\"type\":\"any\"}");
        QTest::newRow("none") << QStringLiteral("none") << QStringLiteral("\"none\"")
                              << QStringLiteral("{\"type\":\"none\"}");
    }

    void toolChoiceIsEachProvidersOwn()
    {
        // MCP's toolChoice modes (sampling with tools, docs/mcp.md): Chat Completions
        // takes them as they are, Messages as {"type"}, "required" being its "any".
        QFETCH(QString, mode);
        QFETCH(QString, openai);
        QFETCH(QString, anthropic);
        ModelRequest request;
        request.messages = parsed("[{'role': 'user', 'content': 'go'}]");
        request.tools = {rateTool()};
        request.toolChoice = mode;
        QString error;
        const auto chat = OpenAIChatCodec::buildRequest(config(ModelConfig::Provider::OpenAIChat), request, &error);
        QVERIFY2(chat, qPrintable(error));
        QCOMPARE(chat->contains("tool_choice") ? QString::fromStdString((*chat)["tool_choice"].dump()) : QString(),
                 openai);
        const auto messages = AnthropicCodec::buildRequest(config(ModelConfig::Provider::Anthropic), request, &error);
        QVERIFY2(messages, qPrintable(error));
        QCOMPARE(messages->contains("tool_choice") ? QString::fromStdString((*messages)["tool_choice"].dump())
                                                   : QString(),
                 anthropic);
        // Without tools there is nothing to choose: no tool_choice.
        request.tools.clear();
        QVERIFY(!OpenAIChatCodec::buildRequest(config(ModelConfig::Provider::OpenAIChat), request, &error)
                     ->contains("tool_choice"));
        QVERIFY(!AnthropicCodec::buildRequest(config(ModelConfig::Provider::Anthropic), request, &error)
                     ->contains("tool_choice"));
    }

    void imagePartsRequest()
    {
        // Chat Completions takes the parts as they are; Messages an image block of base64.
        ModelRequest request;
        request.messages = imageMessages(true);
        QString error;
        const auto openai = OpenAIChatCodec::buildRequest(config(ModelConfig::Provider::OpenAIChat), request, &error);
        QVERIFY2(openai, qPrintable(error));
        QCOMPARE(text(openai),
                 QString::fromStdString(J("{'model':'test-model','messages':["
                                          "{'role':'system','content':'Be brief.'},"
                                          "{'role':'user','content':[{'text':'What is on it?','type':'text'},"
                                          "{'image_url':{'url':'data:image/png;base64,")
                                        + Png
                                        + J("'},'type':'image_url'},"
                                            "{'input_audio':{'data':'UklGRiQAAABXQVZF','format':'wav'},"
                                            "'type':'input_audio'}]}]}")));
        request.messages = imageMessages(false);
        const auto anthropic = AnthropicCodec::buildRequest(config(ModelConfig::Provider::Anthropic), request, &error);
        QVERIFY2(anthropic, qPrintable(error));
        QCOMPARE(text(anthropic),
                 QString::fromStdString(J("{'model':'test-model','max_tokens':4096,'system':'Be brief.','messages':["
                                          "{'role':'user','content':[{'type':'text','text':'What is on it?'},"
                                          "{'type':'image','source':{'type':'base64','media_type':'image/png','data':'")
                                        + Png + J("'}}]}]}")));
        // Anthropic takes no audio: refused, not dropped unseen.
        request.messages = imageMessages(true);
        QVERIFY(!AnthropicCodec::buildRequest(config(ModelConfig::Provider::Anthropic), request, &error));
        QCOMPARE(error,
                 QStringLiteral("messages[1].content[2]: Anthropic takes no audio (an input_audio part); leave it "
                                "out"));
        // A person reading the conversation sees the parts named and sized, not their base64.
        QCOMPARE(ModelMessage::conversationText(imageMessages(true)),
                 QStringLiteral("system: Be brief.\n\nuser: What is on it?\n[image image/png, 96 bytes of base64]\n"
                                "[audio wav, 16 bytes of base64]"));
    }

    void badRequests_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<QString>("messages");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an array") << false << QStringLiteral("{}")
                                      << QStringLiteral("'messages' must be an array of messages, not an object");
        QTest::newRow("empty") << false << QStringLiteral("[]")
                               << QStringLiteral("'messages' is empty; give at least one user message");
        QTest::newRow("unknown role")
            << false << QStringLiteral("[{\"role\": \"robot\", \"content\": \"x\"}]")
            << QStringLiteral("messages[0]: 'role' must be \"system\", \"user\", \"assistant\" or \"tool\", not "
                              "\"robot\"");
        QTest::newRow("tool without id")
            << false
            << QStringLiteral("[{\"role\": \"user\", \"content\": \"x\"}, {\"role\": \"tool\", \"content\": \"1\"}]")
            << QStringLiteral("messages[1]: a 'tool' message needs 'tool_call_id' (the id of the call it answers)");
        QTest::newRow("unknown key") << false
                                     << QStringLiteral("[{\"role\": \"user\", \"content\": \"x\", \"contnet\": 1}]")
                                     << QStringLiteral("messages[0]: unknown key 'contnet' in a 'user' message");
        QTest::newRow("call without arguments")
            << false
            << QStringLiteral("[{\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"a\", \"function\": {\"name\": "
                              "\"t\"}}]}]")
            << QStringLiteral("messages[0].tool_calls[0].function needs 'arguments' (the arguments as JSON text)");
        const auto user = [](const char *parts) {
            return QStringLiteral("[{\"role\": \"user\", \"content\": %1}]").arg(QString::fromStdString(J(parts)));
        };
        QTest::newRow("no parts") << false << user("[]")
                                  << QStringLiteral("messages[0]: 'content' is an empty array; give text or at least "
                                                    "one part");
        QTest::newRow("part not an object")
            << false << user("['hi']") << QStringLiteral("messages[0].content[0] must be an object, not a string");
        QTest::newRow("part of no type")
            << false << user("[{'text': 'hi'}]")
            << QStringLiteral("messages[0].content[0] needs a 'type': \"text\", \"image_url\" or \"input_audio\"");
        QTest::newRow("part of an unknown type")
            << false << user("[{'type': 'video_url', 'video_url': {}}]")
            << QStringLiteral("messages[0].content[0]: 'type' must be \"text\", \"image_url\" or \"input_audio\", "
                              "not \"video_url\"");
        QTest::newRow("svg image")
            << false << user("[{'type': 'image_url', 'image_url': {'url': 'data:image/svg+xml;base64,PHN2Zz4='}}]")
            << QStringLiteral(
                   "messages[0].content[0].image_url.url must be a data URL (data:MIME;base64,…) of one of "
                   "image/png, image/jpeg, image/gif, image/webp; it begins data:image/svg+xml;base64,PHN2Zz4=");
        QTest::newRow("image by address")
            << false << user("[{'type': 'image_url', 'image_url': {'url': 'https://example.org/a.png'}}]")
            << QStringLiteral("messages[0].content[0].image_url.url must be a data URL (data:MIME;base64,…) of one of "
                              "image/png, image/jpeg, image/gif, image/webp; it begins https://example.org/a.png");
        QTest::newRow("image not base64")
            << false << user("[{'type': 'image_url', 'image_url': {'url': 'data:image/png;base64,iVBO%%'}}]")
            << QStringLiteral("messages[0].content[0].image_url.url: what follows ';base64,' is not base64");
        QTest::newRow("jpeg named png")
            << true << user("[{'type': 'image_url', 'image_url': {'url': 'data:image/png;base64,/9j/4AAQ'}}]")
            << QStringLiteral("messages[0].content[0].image_url.url: the data is not a PNG image (image/png declared)");
        QTest::newRow("image part with more")
            << false
            << user("[{'type': 'image_url', 'image_url': {'url': 'data:image/jpeg;base64,/9j/4AAQ', 'fetch': true}}]")
            << QStringLiteral("messages[0].content[0].image_url: unknown key 'fetch'");
        QTest::newRow("ogg audio")
            << false << user("[{'type': 'input_audio', 'input_audio': {'data': 'T2dnUw==', 'format': 'ogg'}}]")
            << QStringLiteral("messages[0].content[0].input_audio.format must be \"wav\" or \"mp3\", not \"ogg\"");
        QTest::newRow("parts in an assistant message")
            << false << QString::fromStdString(J("[{'role': 'assistant', 'content': [{'type': 'text', 'text': 'x'}]}]"))
            << QStringLiteral("messages[0]: 'content' must be a string or null");
        QTest::newRow("late system for anthropic")
            << true
            << QStringLiteral("[{\"role\": \"user\", \"content\": \"x\"}, {\"role\": \"system\", \"content\": \"y\"}]")
            << QStringLiteral("messages[1]: a 'system' message after the conversation started; Anthropic takes one "
                              "system prompt, so put system messages first");
        QTest::newRow("invalid arguments sent back to anthropic")
            << true
            << QStringLiteral("[{\"role\": \"user\", \"content\": \"x\"}, {\"role\": \"assistant\", \"tool_calls\": "
                              "[{\"id\": \"a\", \"function\": {\"name\": \"t\", \"arguments\": \"[1]\"}}]}]")
            << QStringLiteral("messages[1].tool_calls[0]: Anthropic takes a tool call's arguments as a JSON object, "
                              "and these are an array");
    }

    void badRequests()
    {
        QFETCH(bool, anthropic);
        QFETCH(QString, messages);
        QFETCH(QString, message);
        ModelRequest request;
        request.messages = json::parse(messages.toStdString());
        QString error;
        const auto body = anthropic
            ? AnthropicCodec::buildRequest(config(ModelConfig::Provider::Anthropic), request, &error)
            : OpenAIChatCodec::buildRequest(config(ModelConfig::Provider::OpenAIChat), request, &error);
        QVERIFY(!body);
        QCOMPARE(error, message);
    }

    void refusedTool()
    {
        Tool tool = rateTool();
        tool.name = QStringLiteral("a.very.long.name.that.is.over.sixty.four.characters.long.for.the.apis.x");
        ModelRequest request;
        request.messages = parsed("[{'role': 'user', 'content': 'x'}]");
        request.tools = {tool};
        QString error;
        QVERIFY(!OpenAIChatCodec::buildRequest(config(ModelConfig::Provider::OpenAIChat), request, &error));
        QVERIFY2(error.startsWith(QStringLiteral("tool '%1': ").arg(tool.name)), qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral("(the model cannot be given this tool)")), qPrintable(error));
    }

    void openAIReply()
    {
        QString error;
        const auto reply = OpenAIChatCodec::parseReply(
            J("{'id': 'x', 'object': 'chat.completion', 'choices': [{'index': 0, 'message': {'role': 'assistant', "
              "'content': null, 'tool_calls': ["
              "{'id': 'call_9', 'type': 'function', 'function': {'name': 'get_rate', 'arguments': '{\\'base\\':\\'EUR\\'}'}},"
              "{'type': 'function', 'function': {'name': 'get_rate', 'arguments': '{not json'}},"
              "{'id': 'o', 'function': {'name': 'get_rate', 'arguments': {'base': 'USD'}}}]},"
              "'finish_reason': 'tool_calls'}], 'usage': {'prompt_tokens': 31, 'completion_tokens': 12, "
              "'total_tokens': 43}}"),
            &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(reply->argumentErrors.size(), std::size_t(1));
        QCOMPARE(reply->argumentErrors[0].first, QStringLiteral("call_2")); // an id given where the server sent none
        QCOMPARE(reply->argumentErrors[0].second,
                 QStringLiteral("arguments are not valid JSON: syntax error while parsing object key - invalid "
                                "literal; last read: '{no'; expected string literal; they were: {not json"));
        json out = reply->toJson();
        QVERIFY(out.contains("argument_errors"));
        out.erase("argument_errors");
        QCOMPARE(QString::fromStdString(out.dump()),
                 QString::fromStdString(
                     J("{'message':{'content':null,'role':'assistant','tool_calls':["
                       "{'function':{'arguments':'{\\'base\\':\\'EUR\\'}','name':'get_rate'},'id':'call_9',"
                       "'type':'function'},"
                       "{'function':{'arguments':'{not json','name':'get_rate'},'id':'call_2','type':'function'},"
                       "{'function':{'arguments':'{\\'base\\':\\'USD\\'}','name':'get_rate'},'id':'o',"
                       "'type':'function'}]},"
                       "'stop_reason':'tool_calls','usage':{'input_tokens':31,'output_tokens':12}}")));

        // A final answer without usage (some local servers send none).
        const auto final = OpenAIChatCodec::parseReply(
            J("{'choices': [{'message': {'role': 'assistant', 'content': '1.08'}, 'finish_reason': 'stop'}]}"), &error);
        QVERIFY2(final, qPrintable(error));
        QCOMPARE(QString::fromStdString(final->toJson().dump()),
                 QString::fromStdString(J("{'message':{'content':'1.08','role':'assistant'},'stop_reason':'stop',"
                                          "'usage':{'input_tokens':0,'output_tokens':0}}")));
    }

    // attack7: usage beyond 2^63 (an unsigned number) wrapped below 0 and counted as 0
    // tokens; now the largest count, as any count past an int. Negative counts are 0.
    void anErrorOfControlCharactersIsQuotedBounded()
    {
        // 250 control characters escape to 1 500 characters: the quote keeps 25 of them
        // (CI's fuzz_modelreply found a 1 200-character message).
        std::string message;
        for (int i = 0; i < 250; ++i)
            message += "\\u0001";
        const std::string body = "{\"error\": {\"message\": \"" + message + "\"}}";
        const QString said = OpenAIChatCodec::errorMessage(body);
        QCOMPARE(said, QString(QStringLiteral("\\u0001")).repeated(25) + QStringLiteral("… (225 bytes dropped)"));
        QVERIFY(said.size() <= ModelMessage::QuoteChars + ModelMessage::MaxNoteChars);
        const QString plain = ModelMessage::quoteText(std::string(300, 'x'));
        QCOMPARE(plain, QString(200, QLatin1Char('x')) + QStringLiteral("… (100 bytes dropped)"));
    }

    void hugeUsageIsTheLargestCountNotZero()
    {
        QString error;
        const auto openai = OpenAIChatCodec::parseReply(
            J("{'choices': [{'message': {'role': 'assistant', 'content': 'x'}}], 'usage': {'prompt_tokens': "
              "18446744073709551615, 'completion_tokens': 9223372036854775808}}"),
            &error);
        QVERIFY2(openai, qPrintable(error));
        QCOMPARE(openai->inputTokens, std::numeric_limits<int>::max());
        QCOMPARE(openai->outputTokens, std::numeric_limits<int>::max());
        const auto anthropic = AnthropicCodec::parseReply(
            J("{'type': 'message', 'role': 'assistant', 'content': [{'type': 'text', 'text': 'x'}], 'stop_reason': "
              "'end_turn', 'usage': {'input_tokens': 18446744073709551615, 'output_tokens': -5}}"),
            &error);
        QVERIFY2(anthropic, qPrintable(error));
        QCOMPARE(anthropic->inputTokens, std::numeric_limits<int>::max());
        QCOMPARE(anthropic->outputTokens, 0);
    }

    void anthropicReply()
    {
        QString error;
        const auto reply = AnthropicCodec::parseReply(
            J("{'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'model': 'm', 'content': ["
              "{'type': 'thinking', 'thinking': 'hmm', 'signature': 's'},"
              "{'type': 'text', 'text': 'Let me check.'},"
              "{'type': 'tool_use', 'id': 'toolu_1', 'name': 'get_rate', 'input': {'base': 'EUR'}}],"
              "'stop_reason': 'tool_use', 'stop_sequence': null, 'usage': {'input_tokens': 20, "
              "'cache_read_input_tokens': 100, 'output_tokens': 7}}"),
            &error);
        QVERIFY2(reply, qPrintable(error));
        QCOMPARE(QString::fromStdString(reply->toJson().dump()),
                 QString::fromStdString(
                     J("{'message':{'content':'Let me check.','role':'assistant','tool_calls':["
                       "{'function':{'arguments':'{\\'base\\':\\'EUR\\'}','name':'get_rate'},'id':'toolu_1',"
                       "'type':'function'}]},"
                       "'stop_reason':'tool_calls','usage':{'input_tokens':120,'output_tokens':7}}")));

        const auto final = AnthropicCodec::parseReply(
            J("{'type': 'message', 'role': 'assistant', 'content': [{'type': 'text', 'text': 'Done.'}], "
              "'stop_reason': 'max_tokens', 'usage': {'input_tokens': 5, 'output_tokens': 50}}"),
            &error);
        QVERIFY2(final, qPrintable(error));
        QCOMPARE(final->stopReason, QStringLiteral("length"));
        QCOMPARE(final->message.dump(), J("{'content':'Done.','role':'assistant'}"));
        QCOMPARE(reply->model, QStringLiteral("m"));
        QCOMPARE(final->model, QString()); // named none
        QVERIFY(!final->stoppedAtSequence);
        const auto atSequence = AnthropicCodec::parseReply(
            J("{'type': 'message', 'role': 'assistant', 'content': [{'type': 'text', 'text': 'One'}], "
              "'stop_reason': 'stop_sequence', 'stop_sequence': 'END'}"),
            &error);
        QVERIFY2(atSequence, qPrintable(error));
        QCOMPARE(atSequence->stopReason, QStringLiteral("stop"));
        QVERIFY(atSequence->stoppedAtSequence);
    }

    // The model id a reply names (a dated version of the one asked for) is kept, bounded
    // (MaxModelIdChars), and not in toJson(); one that is not a string is none.
    void theReplysModelId()
    {
        QString error;
        const auto openai = OpenAIChatCodec::parseReply(
            J("{'model': 'gpt-4o-2024-08-06', 'choices': [{'message': {'role': 'assistant', 'content': 'x'}}]}"),
            &error);
        QVERIFY2(openai, qPrintable(error));
        QCOMPARE(openai->model, QStringLiteral("gpt-4o-2024-08-06"));
        QVERIFY(!openai->toJson().contains("model"));
        const std::string huge = "{\"model\": \"" + std::string(5000, 'm')
            + "\", \"type\": \"message\", \"content\": [{\"type\": \"text\", \"text\": \"x\"}]}";
        const auto anthropic = AnthropicCodec::parseReply(huge, &error);
        QVERIFY2(anthropic, qPrintable(error));
        QCOMPARE(anthropic->model, QString(ModelMessage::MaxModelIdChars, u'm'));
        const auto number = OpenAIChatCodec::parseReply(
            J("{'model': 7, 'choices': [{'message': {'role': 'assistant', 'content': 'x'}}]}"), &error);
        QVERIFY2(number, qPrintable(error));
        QCOMPARE(number->model, QString());
    }

    void badReplies_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("openai: not JSON")
            << false << QByteArray("<html>502 Bad Gateway</html>")
            << QStringLiteral("the reply is not JSON: syntax error while parsing value - invalid literal; last read: "
                              "'<' (byte offset 0); it begins: <html>502 Bad Gateway</html>");
        QTest::newRow("openai: empty body")
            << false << QByteArray()
            << QStringLiteral("the reply is not JSON: no JSON value (the text is empty) (byte offset 0)");
        QTest::newRow("openai: an array")
            << false << QByteArray("[1]") << QStringLiteral("the reply is not a JSON object but an array");
        QTest::newRow("openai: no choices")
            << false << QByteArray("{\"hello\": \"world\"}")
            << QStringLiteral("the reply has no choices[0].message (is base_url a Chat Completions server?)");
        QTest::newRow("openai: empty choices")
            << false << QByteArray("{\"choices\": []}")
            << QStringLiteral("the reply has no choices[0].message (is base_url a Chat Completions server?)");
        QTest::newRow("openai: content a number")
            << false << QByteArray("{\"choices\": [{\"message\": {\"content\": 5}}]}")
            << QStringLiteral("the reply's choices[0].message.content is a number, not a string");
        QTest::newRow("openai: call without name")
            << false << QByteArray("{\"choices\": [{\"message\": {\"tool_calls\": [{\"function\": {}}]}}]}")
            << QStringLiteral("the reply has no choices[0].message.tool_calls[0].function.name");
        QTest::newRow("openai: an error body with 200")
            << false << QByteArray("{\"error\": {\"message\": \"model not loaded\"}}")
            << QStringLiteral("the server answered with an error: model not loaded");
        QTest::newRow("openai: too deep")
            << false << QByteArray(200, '[')
            << QStringLiteral("the reply is not JSON: nested deeper than 128 levels (byte offset 128); it begins: "
                              "%1")
                   .arg(QString(80, u'['));
        QTest::newRow("anthropic: no content")
            << true << QByteArray("{\"choices\": []}")
            << QStringLiteral("the reply has no content array (is base_url a Messages API server?)");
        QTest::newRow("anthropic: tool_use without id")
            << true << QByteArray("{\"content\": [{\"type\": \"tool_use\", \"name\": \"t\", \"input\": {}}]}")
            << QStringLiteral("the reply's content[0] (tool_use) has no 'id'");
        QTest::newRow("anthropic: block without type")
            << true << QByteArray("{\"content\": [{\"text\": \"x\"}]}")
            << QStringLiteral("the reply's content[0] is not a block with a 'type'");
        QTest::newRow("anthropic: error body")
            << true
            << QByteArray("{\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": "
                          "\"Overloaded\"}}")
            << QStringLiteral("the server answered with an error: overloaded_error: Overloaded");
        QTest::newRow("anthropic: role user") << true << QByteArray("{\"role\": \"user\", \"content\": []}")
                                              << QStringLiteral("the reply's role is \"user\", not \"assistant\"");
    }

    void badReplies()
    {
        QFETCH(bool, anthropic);
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        const std::string_view text(body.constData(), std::size_t(body.size()));
        QString error;
        const auto reply
            = anthropic ? AnthropicCodec::parseReply(text, &error) : OpenAIChatCodec::parseReply(text, &error);
        QVERIFY(!reply);
        QCOMPARE(error, message);
    }

    void errorBodies()
    {
        QCOMPARE(OpenAIChatCodec::errorMessage(J("{'error': {'message': 'Incorrect API key', 'type': 'x'}}")),
                 QStringLiteral("Incorrect API key"));
        QCOMPARE(OpenAIChatCodec::errorMessage(J("{'error': 'model \\'qwen\\' not found'}")),
                 QStringLiteral("model \"qwen\" not found"));
        QCOMPARE(OpenAIChatCodec::errorMessage("not json"), QString());
        QCOMPARE(AnthropicCodec::errorMessage(
                     J("{'type': 'error', 'error': {'type': 'authentication_error', 'message': 'invalid x-api-key'}}")),
                 QStringLiteral("authentication_error: invalid x-api-key"));
        // A server's text is printable and cut.
        const std::string longMessage = "{\"error\": \"" + std::string(5000, 'a') + "\\u0007\"}";
        const QString cut = OpenAIChatCodec::errorMessage(longMessage);
        QVERIFY2(cut.size() < 260, qPrintable(cut));
        QVERIFY2(cut.startsWith(QString(200, u'a')), qPrintable(cut));
    }
};

QTEST_GUILESS_MAIN(TestModelCodec)
#include "tst_modelcodec.moc"
