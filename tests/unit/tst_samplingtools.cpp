// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tools in sampling (MCP 2025-11-25, docs/mcp.md "Tools in sampling"): the question a
// sampling/createMessage with tools becomes (what a person reads, what a model is
// given), the requests refused with InvalidParams before anything is built, and the
// answers of a tool call (a person's, a model's) as the server's result.
#include "engine/personquestion.h"
#include "mcp/mcppersonquestion.h"
#include "mcp/samplingtools.h"

#include <QRegularExpression>
#include <QTest>

using nlohmann::json;

namespace {

/// JSON written with single quotes, so moc can read this file: J("{'a': 1}").
json J(const char *text)
{
    return json::parse(QByteArray(text).replace('\'', '"').toStdString());
}

const char *const Weather = "{'name': 'get_weather', 'description': 'Current weather of a city',"
                            " 'inputSchema': {'type': 'object', 'properties': {'city': {'type': 'string'}},"
                            " 'required': ['city']}}";

/// The spec's follow-up request: a question, two tool uses, their results (one an error).
json followUp()
{
    json params = J("{'messages': ["
                    "{'role': 'user', 'content': {'type': 'text', 'text': 'Weather in Paris and London?'}},"
                    "{'role': 'assistant', 'content': ["
                    "  {'type': 'tool_use', 'id': 'call_1', 'name': 'get_weather', 'input': {'city': 'Paris'}},"
                    "  {'type': 'tool_use', 'id': 'call_2', 'name': 'get_weather', 'input': {'city': 'London'}}]},"
                    "{'role': 'user', 'content': ["
                    "  {'type': 'tool_result', 'toolUseId': 'call_1', 'content': [{'type': 'text', 'text': '18 C'}]},"
                    "  {'type': 'tool_result', 'toolUseId': 'call_2', 'isError': true,"
                    "   'content': [{'type': 'text', 'text': 'no station'}]}]}],"
                    " 'toolChoice': {'mode': 'auto'}, 'maxTokens': 100}");
    params["tools"] = json::array({J(Weather)});
    return params;
}

std::optional<json> questionFor(const json &params, QString *error,
                                const QString &version = QStringLiteral("2025-11-25"))
{
    return McpPersonQuestion::question(
        QStringLiteral("weather"),
        McpServerRequest{7, QStringLiteral("sampling/createMessage"), params, false, version}, error);
}

} // namespace

class TestSamplingTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theQuestionShowsToolsAndTheirUse();
    void theEraAllowsTools();
    void refusals_data();
    void refusals();
    void nestedBlocksCount();
    void largeToolBlocksAreBounded();
    void aPersonsToolCall();
    void badToolCalls_data();
    void badToolCalls();
};

void TestSamplingTools::theQuestionShowsToolsAndTheirUse()
{
    QString error;
    const auto question = questionFor(followUp(), &error);
    QVERIFY2(question, qPrintable(error));
    QCOMPARE(QString::fromStdString((*question)["message"].get<std::string>()),
             QStringLiteral("user: Weather in Paris and London?\n"
                            "assistant: → get_weather({\"city\":\"Paris\"})  [call_1]\n"
                            "→ get_weather({\"city\":\"London\"})  [call_2]\n"
                            "user: ← [call_1] 18 C\n"
                            "← [call_2, error] no station"));
    QCOMPARE((*question)["tools"].dump(), json::array({J(Weather)}).dump());
    QCOMPARE((*question)["tool_choice"].get<std::string>(), std::string("auto"));
    // A model is given the tool uses as its tool calls and each result as a tool message.
    json expected = J("{'messages': ["
                      "{'role': 'user', 'content': 'Weather in Paris and London?'},"
                      "{'role': 'assistant', 'content': null, 'tool_calls': ["
                      "  {'id': 'call_1', 'type': 'function', 'function': {'name': 'get_weather', "
                      "   'arguments': '{\\'city\\':\\'Paris\\'}'}},"
                      "  {'id': 'call_2', 'type': 'function', 'function': {'name': 'get_weather', "
                      "   'arguments': '{\\'city\\':\\'London\\'}'}}]},"
                      "{'role': 'tool', 'tool_call_id': 'call_1', 'content': '18 C'},"
                      "{'role': 'tool', 'tool_call_id': 'call_2', 'content': 'no station', 'is_error': true}],"
                      " 'omitted': 0, 'tool_choice': 'auto'}");
    expected["tools"] = json::array({J(Weather)});
    QCOMPARE((*question)["model_request"].dump(), expected.dump());
    // An image in a tool's result is not given to a model; structuredContent is, when
    // the result has no text.
    json params = followUp();
    params["messages"][2]["content"][0]["content"] = J("[{'type': 'image', 'data': 'AAAA', 'mimeType': 'image/png'}]");
    params["messages"][2]["content"][0]["structuredContent"] = J("{'celsius': 18}");
    const auto imaged = questionFor(params, &error);
    QVERIFY2(imaged, qPrintable(error));
    QCOMPARE(
        (*imaged)["model_request"]["messages"][2].dump(),
        J("{'role': 'tool', 'tool_call_id': 'call_1', 'content': '[image not sent]\\n{\\'celsius\\':18}'}").dump());
    QCOMPARE((*imaged)["model_request"]["omitted"].get<int>(), 1);
}

void TestSamplingTools::theEraAllowsTools()
{
    // Revisions with the sampling.tools capability; "" is a question built outside a session.
    QVERIFY(SamplingTools::allowedIn(QStringLiteral("2025-11-25")));
    QVERIFY(SamplingTools::allowedIn(QStringLiteral("2026-07-28")));
    QVERIFY(SamplingTools::allowedIn(QString()));
    QVERIFY(!SamplingTools::allowedIn(QStringLiteral("2025-06-18")));
    QVERIFY(!SamplingTools::allowedIn(QStringLiteral("2024-11-05")));
    QString error;
    QVERIFY2(questionFor(followUp(), &error, QStringLiteral("2026-07-28")), qPrintable(error));
}

void TestSamplingTools::refusals_data()
{
    QTest::addColumn<QByteArray>("change"); // merged into followUp()'s params
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("message");
    const QString v = QStringLiteral("2025-11-25");
    QTest::newRow("tools in 2025-06-18")
        << QByteArray("{}") << QStringLiteral("2025-06-18")
        << QStringLiteral("tools and toolChoice in sampling/createMessage need MCP 2025-11-25 (the client capability "
                          "sampling.tools); this server's session speaks 2025-06-18");
    QTest::newRow("toolChoice alone in 2025-06-18")
        << QByteArray("{\"tools\": null}") << QStringLiteral("2025-06-18")
        << QStringLiteral("tools and toolChoice in sampling/createMessage need MCP 2025-11-25 (the client capability "
                          "sampling.tools); this server's session speaks 2025-06-18");
    QTest::newRow("tools not an array") << QByteArray("{\"tools\": {}}") << v
                                        << QStringLiteral("\"tools\" is an object, not an array of tools");
    QTest::newRow("129 tools") << QByteArray("{\"tools\": 129}") << v
                               << QStringLiteral("the request offers 129 tools; Tool Studio takes at most 128");
    QTest::newRow("tools too large") << QByteArray("{\"tools\": \"big\"}") << v
                                     << QStringLiteral("the request's tools are 262194 bytes; Tool Studio takes at "
                                                       "most 262144");
    QTest::newRow("tools far too large") << QByteArray("{\"tools\": \"huge\"}") << v
                                         << QStringLiteral("the request's tools are more than 524288 bytes; Tool "
                                                           "Studio takes at most 262144");
    QTest::newRow("no name") << QByteArray(R"({"tools": [{"inputSchema": {"type": "object"}}]})") << v
                             << QStringLiteral("tools[0] has no name (a string of 1 to 128 bytes)");
    QTest::newRow("empty name") << QByteArray(R"({"tools": [{"name": "", "inputSchema": {"type": "object"}}]})") << v
                                << QStringLiteral("tools[0] has no name (a string of 1 to 128 bytes)");
    QTest::newRow("inputSchema an array")
        << QByteArray(R"({"tools": [{"name": "a", "inputSchema": []}]})") << v
        << QStringLiteral("tools[0] \"a\": its inputSchema is an array, not an object");
    QTest::newRow("inputSchema 40 levels deep")
        << QByteArray(R"({"tools": "deep"})") << v
        << QStringLiteral("tools[0] \"deep\": its inputSchema is nested deeper than 32 levels");
    QTest::newRow("no inputSchema") << QByteArray(R"({"tools": [{"name": "a"}]})") << v
                                    << QStringLiteral("tools[0] \"a\": its inputSchema is missing, not an object");
    QTest::newRow("name twice") << QByteArray(
        R"({"tools": [{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}}]})")
                                << v << QStringLiteral("tools[1]: the name \"a\" is given to two tools");
    QTest::newRow("toolChoice mode any")
        << QByteArray(R"({"toolChoice": {"mode": "any"}})") << v
        << QStringLiteral("toolChoice.mode is \"any\"; MCP's modes are \"auto\", \"required\" and \"none\"");
    QTest::newRow("toolChoice a string") << QByteArray(R"({"toolChoice": "auto"})") << v
                                         << QStringLiteral(
                                                "\"toolChoice\" is a string, not an object ({\"mode\": \"auto\"})");
    QTest::newRow("required without tools")
        << QByteArray(R"({"tools": [], "toolChoice": {"mode": "required"}})") << v
        << QStringLiteral("toolChoice.mode is \"required\" but the request offers no tools");
    QTest::newRow("tool_use in a user message")
        << QByteArray(R"({"messages": [{"role": "user", "content": {"type": "tool_use", "id": "x", "name": "a",
            "input": {}}}]})")
        << v
        << QStringLiteral("messages[0].content: a tool_use in a message of role \"user\"; a tool_use is the "
                          "assistant's");
    QTest::newRow("tool_result in an assistant message")
        << QByteArray(R"({"messages": [{"role": "assistant", "content": [{"type": "tool_result", "toolUseId": "x",
            "content": []}]}]})")
        << v
        << QStringLiteral("messages[0].content[0]: a tool_result in a message of role \"assistant\"; a tool_result "
                          "is the user's");
    QTest::newRow("toolUseId of no tool_use")
        << QByteArray(R"({"messages": [{"role": "user", "content": [{"type": "tool_result", "toolUseId": "ghost",
            "content": []}]}]})")
        << v
        << QStringLiteral("messages[0].content[0]: the tool_result's toolUseId \"ghost\" names no earlier tool_use");
    QTest::newRow("tool_use without input")
        << QByteArray(R"({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content":
            {"type": "tool_use", "id": "x", "name": "a"}}]})")
        << v << QStringLiteral("messages[1].content: the tool_use's \"input\" is missing, not an object");
    QTest::newRow("a result missing")
        << QByteArray(R"({"messages": [{"role": "assistant", "content": [
            {"type": "tool_use", "id": "a", "name": "t", "input": {}}, {"type": "tool_use", "id": "b", "name": "t",
            "input": {}}]}, {"role": "user", "content": [{"type": "tool_result", "toolUseId": "a", "content": []}]}]})")
        << v
        << QStringLiteral("messages[0] has a tool_use (\"b\") that messages[1] does not answer with a tool_result");
    QTest::newRow("results mixed with text")
        << QByteArray(R"({"messages": [{"role": "assistant", "content": [
            {"type": "tool_use", "id": "a", "name": "t", "input": {}}]}, {"role": "user", "content": [
            {"type": "text", "text": "here"}, {"type": "tool_result", "toolUseId": "a", "content": []}]}]})")
        << v
        << QStringLiteral("messages[1] mixes tool results with other content; a message of tool results holds "
                          "nothing else");
    QTest::newRow("ends with a tool_use")
        << QByteArray(R"({"messages": [{"role": "assistant", "content": [
            {"type": "tool_use", "id": "a", "name": "t", "input": {}}]}]})")
        << v
        << QStringLiteral("messages[0] has a tool_use (\"a\") that no tool_result answers; the request ends with it");
    QTest::newRow("isError not a boolean")
        << QByteArray(R"({"messages": [{"role": "assistant", "content": [
            {"type": "tool_use", "id": "a", "name": "t", "input": {}}]}, {"role": "user", "content": [
            {"type": "tool_result", "toolUseId": "a", "content": [], "isError": "yes"}]}]})")
        << v << QStringLiteral("messages[1].content[0]: the tool_result's \"isError\" is a string, not true or false");
}

void TestSamplingTools::refusals()
{
    QFETCH(QByteArray, change);
    QFETCH(QString, version);
    QFETCH(QString, message);
    json params = followUp();
    const json merged = json::parse(change.toStdString());
    if (merged.value("tools", json()) == 129)
        params["tools"] = json::array();
    for (int i = 0; merged.value("tools", json()) == 129 && i < 129; ++i)
        params["tools"].push_back({{"name", "t" + std::to_string(i)}, {"inputSchema", json::object()}});
    if (merged.value("tools", json()) == "big")
        params["tools"] = json::array(
            {{{"name", "big"}, {"description", std::string(256 * 1024, 'd')}, {"inputSchema", json::object()}}});
    if (merged.value("tools", json()) == "huge")
        params["tools"] = json::array(
            {{{"name", "huge"}, {"description", std::string(8 * 1024 * 1024, 'd')}, {"inputSchema", json::object()}}});
    if (merged.value("tools", json()) == "deep") {
        json deep = {{"type", "string"}};
        for (int i = 0; i < 20; ++i) // two levels each: the schema and its properties
            deep = {{"type", "object"}, {"properties", {{"x", deep}}}};
        params["tools"] = json::array({{{"name", "deep"}, {"inputSchema", deep}}});
    }
    for (auto it = merged.begin(); it != merged.end(); ++it)
        if (it.key() != "tools" || (!it->is_number() && *it != "big" && *it != "huge" && *it != "deep"))
            params[it.key()] = *it;
    QString error;
    const auto question = questionFor(params, &error, version);
    QVERIFY2(!question, question ? question->dump().c_str() : "");
    QCOMPARE(error, message);
}

void TestSamplingTools::nestedBlocksCount()
{
    // A tool_result's own blocks count toward the 10 000 a request may hold: counted
    // before anything is built.
    json params = followUp();
    params["messages"][2]["content"][0]["content"] = json::array();
    for (int i = 0; i < 9999; ++i)
        params["messages"][2]["content"][0]["content"].push_back({{"type", "text"}, {"text", "x"}});
    QCOMPARE(SamplingTools::contentBlocks(params["messages"]), std::size_t(1 + 2 + 2 + 9999 + 1));
    QString error;
    QVERIFY(!questionFor(params, &error));
    QCOMPARE(error,
             QStringLiteral("the request's messages hold 10005 content blocks; Tool Studio takes at most 10000"));
}

void TestSamplingTools::largeToolBlocksAreBounded()
{
    // A tool's input and result count toward the 256 KiB of text a model is given; the
    // transcript shows an input of more than 2000 bytes as such, a result cut.
    json params = followUp();
    params["messages"][1]["content"][0]["input"]["city"] = std::string(300 * 1024, 'p');
    params["messages"][2]["content"][1]["content"][0]["text"] = std::string(5000, 'r');
    QString error;
    const auto question = questionFor(params, &error);
    QVERIFY2(question, qPrintable(error));
    QCOMPARE((*question)["model_request"].dump(),
             J("{'error': 'the request\\u0027s text is more than the 262144 bytes a model is given'}").dump());
    const QString transcript = QString::fromStdString((*question)["message"].get<std::string>());
    QVERIFY2(transcript.contains(QStringLiteral("assistant: → get_weather({… more than 2000 bytes})  [call_1]\n")),
             qPrintable(transcript.left(300)));
    QVERIFY2(transcript.endsWith(QStringLiteral("← [call_2, error] ") + QString(2000, u'r')
                                 + QStringLiteral("… (3000 more bytes)")),
             qPrintable(transcript.right(100)));
    // Braces 2, each member its key and 4, a string its size and 2, an array item 1, a
    // scalar 8: 2 + (1 + 4 + 4) + (1 + 4 + (2 + 9 + 9)) = 36 (the JSON is 23 bytes).
    QCOMPARE(SamplingTools::bytesOf(J("{'a': 'xy', 'b': [1, true]}"), 1000), std::size_t(36));
}

void TestSamplingTools::aPersonsToolCall()
{
    QString error;
    const auto question = questionFor(followUp(), &error);
    QVERIFY2(question, qPrintable(error));
    ManualAnswer answer;
    answer.result = J("{'content': [{'type': 'tool_use', 'name': 'get_weather', 'input': {'city': 'Oslo'}}]}");
    QCOMPARE(PersonQuestion::check(*question, answer), QString());
    // A fresh id, "call_" and 24 hex digits, different each time.
    const QString id = QString::fromStdString(answer.result["content"][0]["id"].get<std::string>());
    QVERIFY2(QRegularExpression(QStringLiteral("^call_[0-9a-f]{24}$")).match(id).hasMatch(), qPrintable(id));
    ManualAnswer again;
    again.result = J("{'content': [{'type': 'tool_use', 'name': 'get_weather', 'input': {'city': 'Oslo'}}]}");
    QCOMPARE(PersonQuestion::check(*question, again), QString());
    QVERIFY(again.result["content"][0]["id"] != answer.result["content"][0]["id"]);
    json expected = J("{'role': 'assistant', 'content': [{'type': 'tool_use', 'name': 'get_weather',"
                      " 'input': {'city': 'Oslo'}}], 'model': 'person', 'stopReason': 'toolUse'}");
    expected["content"][0]["id"] = id.toStdString();
    QCOMPARE(McpPersonQuestion::resultFor(*question, answer).dump(), expected.dump());
    // A model's tool call keeps its id, model and stop reason; text answers stay as they were.
    ManualAnswer model;
    model.result
        = J("{'content': [{'type': 'text', 'text': 'Checking.'}, {'type': 'tool_use', 'id': 'toolu_9',"
            " 'name': 'get_weather', 'input': {'city': 'Rome'}}], 'model': 'claude-x', 'stopReason': 'toolUse'}");
    QCOMPARE(PersonQuestion::check(*question, model), QString());
    QCOMPARE(McpPersonQuestion::resultFor(*question, model).dump(),
             J("{'role': 'assistant', 'content': [{'type': 'text', 'text': 'Checking.'}, {'type': 'tool_use',"
               " 'id': 'toolu_9', 'name': 'get_weather', 'input': {'city': 'Rome'}}], 'model': 'claude-x',"
               " 'stopReason': 'toolUse'}")
                 .dump());
    ManualAnswer text;
    text.result = "Sunny";
    QCOMPARE(PersonQuestion::check(*question, text), QString());
    QCOMPARE(McpPersonQuestion::resultFor(*question, text).dump(),
             J("{'role': 'assistant', 'content': {'type': 'text', 'text': 'Sunny'}, 'model': 'person',"
               " 'stopReason': 'endTurn'}")
                 .dump());
}

void TestSamplingTools::badToolCalls_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<QString>("choice"); // the question's tool_choice
    QTest::addColumn<QString>("reason");
    const QString shape = QStringLiteral(" (a tool call is {\"content\": [{\"type\": \"tool_use\", \"name\": \"…\", "
                                         "\"input\": {…}}]})");
    QTest::newRow("a tool not offered")
        << QByteArray(R"({"content": [{"type": "tool_use", "name": "rm", "input": {}}]})") << QString()
        << QStringLiteral("content[0] uses the tool \"rm\", which the server does not offer");
    QTest::newRow("input not matching")
        << QByteArray(R"({"content": [{"type": "tool_use", "name": "get_weather", "input": {"city": 7}}]})")
        << QString()
        << QStringLiteral("content[0]: the input does not match the inputSchema of \"get_weather\" at /city: "
                          "expected string, got integer");
    QTest::newRow("input not an object")
        << QByteArray(R"({"content": [{"type": "tool_use", "name": "get_weather", "input": "Paris"}]})") << QString()
        << QStringLiteral("content[0]: \"input\" is the tool's arguments, an object") + shape;
    QTest::newRow("an image block") << QByteArray(
        R"({"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]})")
                                    << QString()
                                    << QStringLiteral("content[0] is neither a tool_use nor a text block") + shape;
    QTest::newRow("text blocks only") << QByteArray(R"({"content": [{"type": "text", "text": "hi"}]})") << QString()
                                      << QStringLiteral("\"content\" has no tool_use; a reply of text alone is "
                                                        "{\"text\": \"…\"}");
    QTest::newRow("toolChoice none")
        << QByteArray(R"({"content": [{"type": "tool_use", "name": "get_weather", "input": {"city": "Oslo"}}]})")
        << QStringLiteral("none")
        << QStringLiteral("the server's toolChoice is \"none\": the reply must not use a tool; answer with text");
    QTest::newRow("text when required")
        << QByteArray(R"("Sunny")") << QStringLiteral("required")
        << QStringLiteral("the server's toolChoice is \"required\": answer with a tool call ({\"content\": "
                          "[{\"type\": \"tool_use\", …}]})");
    QTest::newRow("an id with a line break")
        << QByteArray(R"({"content": [{"type": "tool_use", "id": "a\nb", "name": "get_weather",
            "input": {"city": "Oslo"}}]})")
        << QString()
        << QStringLiteral("content[0]: \"id\" is printable text of 1 to 256 characters (leave it out for a fresh one)");
    QTest::newRow("another member") << QByteArray(
        R"({"content": [{"type": "tool_use", "name": "get_weather", "input": {}, "_meta": {}}]})")
                                    << QString()
                                    << QStringLiteral("content[0] has \"_meta\", which a tool_use does not") + shape;
}

void TestSamplingTools::badToolCalls()
{
    QFETCH(QByteArray, answer);
    QFETCH(QString, choice);
    QFETCH(QString, reason);
    json params = followUp();
    if (!choice.isEmpty())
        params["toolChoice"] = {{"mode", choice.toStdString()}};
    QString error;
    const auto question = questionFor(params, &error);
    QVERIFY2(question, qPrintable(error));
    ManualAnswer given;
    given.result = json::parse(answer.toStdString());
    QCOMPARE(PersonQuestion::check(*question, given), reason);
    // A question without tools takes no tool call.
    json plain = followUp();
    plain.erase("tools");
    plain.erase("toolChoice");
    plain["messages"] = J("[{'role': 'user', 'content': {'type': 'text', 'text': 'hi'}}]");
    const auto without = questionFor(plain, &error);
    QVERIFY2(without, qPrintable(error));
    QVERIFY(!without->contains("tools"));
    ManualAnswer call;
    call.result = J("{'content': [{'type': 'tool_use', 'name': 'get_weather', 'input': {'city': 'Oslo'}}]}");
    QCOMPARE(PersonQuestion::check(*without, call),
             QStringLiteral("the server offers no tools; a sampling answer is the assistant's text: \"text\" or "
                            "{\"text\": \"…\"}"));
}

QTEST_GUILESS_MAIN(TestSamplingTools)
#include "tst_samplingtools.moc"
