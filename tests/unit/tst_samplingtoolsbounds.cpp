// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Bounds of a sampling request's tools that are not bytes (docs/mcp.md "Tools in
// sampling"): the objects of the inputSchemas, which the schema validator compiles and a
// person's form builds widgets for (attack44 F2: one 220 KB tool of 21 000 properties
// took 721 ms to check and its form 2.8 s and 84 000 widgets, all on the GUI thread).
#include "mcp/samplingtools.h"

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
