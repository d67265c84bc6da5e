// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Bounds of a sampling request's tools that are not bytes (docs/mcp.md "Tools in
// sampling"): the objects of the inputSchemas, which the schema validator compiles and a
// person's form builds widgets for (attack44 F2: one 220 KB tool of 21 000 properties
// took 721 ms to check and its form 2.8 s and 84 000 widgets, all on the GUI thread), and
// the tool_use ids of an answer, never one the conversation has already (attack44 F3).
#include "engine/personquestion.h"
#include "mcp/mcppersonquestion.h"
#include "mcp/samplingtools.h"

#include <QRegularExpression>
#include <QTest>

using nlohmann::json;

namespace {

/// A tool `name` whose inputSchema is an object of `properties` properties ({} each):
/// 2 + `properties` objects (the schema, its "properties" and each property's).
json wideTool(const std::string &name, int properties)
{
    json members = json::object();
    for (int p = 0; p < properties; ++p)
        members["p" + std::to_string(p)] = json::object();
    return {{"name", name}, {"inputSchema", {{"type", "object"}, {"properties", std::move(members)}}}};
}

QString check(const json &tools)
{
    return SamplingTools::check({{"messages", json::array()}, {"tools", tools}}, QStringLiteral("2025-11-25"));
}

} // namespace

class TestSamplingToolsBounds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aToolOfTooManyObjectsIsRefused()
    {
        // 2 + 1022 objects: the most one tool may have.
        QCOMPARE(check(json::array({wideTool("w", 1022)})), QString());
        QCOMPARE(check(json::array({wideTool("ok", 3), wideTool("w", 1023)})),
                 QStringLiteral("tools[1] \"w\": its inputSchema has more than 1024 objects (subschemas); Tool "
                                "Studio takes at most 1024 in one tool"));
        // Objects anywhere count, an enum's values too.
        json tool = wideTool("e", 0);
        tool["inputSchema"]["properties"]["a"] = {{"enum", json::array()}};
        for (int i = 0; i < 1100; ++i)
            tool["inputSchema"]["properties"]["a"]["enum"].push_back(json::object());
        QCOMPARE(check(json::array({tool})),
                 QStringLiteral("tools[0] \"e\": its inputSchema has more than 1024 objects (subschemas); Tool "
                                "Studio takes at most 1024 in one tool"));
    }

    void aToolUseIdIsNeverUsedTwice()
    {
        // The server's conversation used call_1; a model that sends no ids gets call_1
        // and call_2 from the codec, and one answer may repeat an id.
        const json params = json::parse(R"({"maxTokens": 100, "messages": [
            {"role": "user", "content": {"type": "text", "text": "Weather in Paris?"}},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "w", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "toolUseId": "call_1",
              "content": [{"type": "text", "text": "18 C"}]}]}],
            "tools": [{"name": "w", "inputSchema": {"type": "object"}}]})");
        QString error;
        const auto question = McpPersonQuestion::question(
            QStringLiteral("s"),
            McpServerRequest{7, QStringLiteral("sampling/createMessage"), params, false, QStringLiteral("2025-11-25")},
            &error);
        QVERIFY2(question, qPrintable(error));
        ManualAnswer answer;
        answer.result = json::parse(R"({"content": [{"type": "tool_use", "id": "call_1", "name": "w", "input": {}},
            {"type": "tool_use", "id": "x", "name": "w", "input": {}},
            {"type": "tool_use", "id": "x", "name": "w", "input": {}}], "model": "m"})");
        QCOMPARE(PersonQuestion::check(*question, answer), QString());
        const json &content = answer.result["content"];
        const QRegularExpression fresh(QStringLiteral("^call_[0-9a-f]{24}$"));
        QVERIFY2(fresh.match(QString::fromStdString(content[0]["id"].get<std::string>())).hasMatch(),
                 content[0]["id"].dump().c_str());
        QCOMPARE(content[1]["id"].get<std::string>(), std::string("x"));
        QVERIFY2(fresh.match(QString::fromStdString(content[2]["id"].get<std::string>())).hasMatch(),
                 content[2]["id"].dump().c_str());
        QVERIFY(content[0]["id"] != content[2]["id"]);
        // The server's next request, with this answer and its results, is one the studio takes.
        json next = params;
        next["messages"].push_back(McpPersonQuestion::resultFor(*question, answer));
        json results = json::array();
        for (const json &use : content)
            results.push_back({{"type", "tool_result"},
                               {"toolUseId", use["id"]},
                               {"content", json::array({{{"type", "text"}, {"text", "ok"}}})}});
        next["messages"].push_back({{"role", "user"}, {"content", results}});
        QCOMPARE(SamplingTools::check(next, QStringLiteral("2025-11-25")), QString());
    }

    void theToolsTogetherAreBounded()
    {
        json tools = json::array();
        for (int i = 0; i < 8; ++i)
            tools.push_back(wideTool("t" + std::to_string(i), 1022)); // 8 × 1024 = 8192
        QCOMPARE(check(tools), QString());
        tools.push_back(wideTool("last", 0));
        QCOMPARE(check(tools),
                 QStringLiteral("tools[8] \"last\": the request's inputSchemas have more than 8192 objects "
                                "(subschemas) together; Tool Studio takes at most 8192"));
    }
};

QTEST_GUILESS_MAIN(TestSamplingToolsBounds)
#include "tst_samplingtoolsbounds.moc"
