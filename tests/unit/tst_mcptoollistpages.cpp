// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcptoollistpages.h"

#include <QTest>

using json = nlohmann::json;
using Kind = McpToolListPages::Step::Kind;

namespace {

json tool(const std::string &name)
{
    return {{"name", name}, {"inputSchema", {{"type", "object"}}}};
}

json page(json tools, json nextCursor = nullptr)
{
    json result = {{"tools", std::move(tools)}};
    if (!nextCursor.is_null())
        result["nextCursor"] = std::move(nextCursor);
    return result;
}

/// `value` as compact JSON (QCOMPARE cannot take a json).
QString text(const json &value)
{
    return QString::fromStdString(value.dump());
}

std::vector<std::string> namesOf(const std::vector<json> &tools)
{
    std::vector<std::string> names;
    for (const json &tool : tools)
        names.push_back(tool["name"].get<std::string>());
    return names;
}

} // namespace

class TstMcpToolListPages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pagesFollowTheirCursors()
    {
        McpToolListPages pages;
        QCOMPARE(pages.page(), 1);
        const McpToolListPages::Step first = pages.take(page(json::array({tool("a"), tool("b")}), "c2"));
        QCOMPARE(first.kind, Kind::Next);
        QCOMPARE(text(first.cursor), QStringLiteral("\"c2\""));
        QCOMPARE(pages.page(), 2);
        // A null nextCursor ends the list as an absent one does.
        json last = page(json::array({tool("c")}));
        last["nextCursor"] = nullptr;
        const McpToolListPages::Step done = pages.take(last);
        QCOMPARE(done.kind, Kind::Done);
        QCOMPARE(done.failure, QString());
        QCOMPARE(namesOf(pages.tools()), (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(text(pages.tools()[0]), text(tool("a"))); // as the server sent it
        QCOMPARE(pages.droppedEntries(), qint64(0));
        QCOMPARE(pages.duplicateNames(), QStringList());
        QCOMPARE(pages.rejectedTools(), QStringList());
    }

    void aResultWithoutAToolsArrayFails_data()
    {
        QTest::addColumn<QByteArray>("result");
        QTest::newRow("no tools") << QByteArray(R"({"nextCursor": "x"})");
        QTest::newRow("tools an object") << QByteArray(R"({"tools": {"name": "a"}})");
        QTest::newRow("not an object") << QByteArray(R"([{"name": "a"}])");
        QTest::newRow("null") << QByteArray("null");
    }

    void aResultWithoutAToolsArrayFails()
    {
        QFETCH(QByteArray, result);
        McpToolListPages pages;
        const McpToolListPages::Step step = pages.take(json::parse(result.toStdString()));
        QCOMPARE(step.kind, Kind::Failed);
        QCOMPARE(step.failure, QStringLiteral("the server's tools/list result has no \"tools\" array"));
        QCOMPARE(pages.tools().size(), std::size_t(0));
    }

    // Two pages of 9 MiB each: the second passes 16 MiB and none of its tools is taken.
    void pagesAddingUpPastTheByteBoundFail()
    {
        McpToolListPages pages;
        json big = tool("big1");
        big["description"] = std::string(9u << 20, 'x');
        QCOMPARE(pages.take(page(json::array({big}), "c2")).kind, Kind::Next);
        big["name"] = "big2";
        const McpToolListPages::Step step = pages.take(page(json::array({big}), "c3"));
        QCOMPARE(step.kind, Kind::Failed);
        QCOMPARE(step.failure,
                 QStringLiteral("the server's tools/list pages add up to more than 16 MiB (at page 2); "
                                "the studio stopped there"));
        QCOMPARE(namesOf(pages.tools()), std::vector<std::string>{"big1"});
        QCOMPARE(McpToolListPages::MaxToolBytes, std::size_t(16u << 20));
    }

    // Page 100 may end the list; a cursor on page 100 fails (its tools are taken first).
    void aCursorPastTheHundredthPageFails()
    {
        McpToolListPages pages;
        for (int i = 1; i < McpToolListPages::MaxPages; ++i) {
            const McpToolListPages::Step step
                = pages.take(page(json::array({tool("t" + std::to_string(i))}), "c" + std::to_string(i + 1)));
            QCOMPARE(step.kind, Kind::Next);
        }
        QCOMPARE(pages.page(), 100);
        const McpToolListPages::Step step = pages.take(page(json::array({tool("t100")}), "c101"));
        QCOMPARE(step.kind, Kind::Failed);
        QCOMPARE(step.failure, QStringLiteral("the server's tools/list goes on past 100 pages"));
        QCOMPARE(pages.tools().size(), std::size_t(100));
        QCOMPARE(text(pages.tools().back()), text(tool("t100")));

        McpToolListPages ending;
        for (int i = 1; i < McpToolListPages::MaxPages; ++i)
            QCOMPARE(ending.take(page(json::array(), "more")).kind, Kind::Next);
        QCOMPARE(ending.take(page(json::array({tool("last")}))).kind, Kind::Done);
        QCOMPARE(namesOf(ending.tools()), std::vector<std::string>{"last"});
    }

    void aNextCursorThatIsNotAStringFails_data()
    {
        QTest::addColumn<QByteArray>("cursor");
        QTest::newRow("number") << QByteArray("42");
        QTest::newRow("object") << QByteArray(R"({"page": 2})");
        QTest::newRow("false") << QByteArray("false");
    }

    void aNextCursorThatIsNotAStringFails()
    {
        QFETCH(QByteArray, cursor);
        McpToolListPages pages;
        const McpToolListPages::Step step
            = pages.take(page(json::array({tool("a"), 7}), json::parse(cursor.toStdString())));
        QCOMPARE(step.kind, Kind::Failed);
        QCOMPARE(step.failure, QStringLiteral("the server's tools/list nextCursor is not a string"));
        // The page's entries were read before its cursor.
        QCOMPARE(namesOf(pages.tools()), std::vector<std::string>{"a"});
        QCOMPARE(pages.droppedEntries(), qint64(1));
    }

    void entriesThatAreNoToolsAreDroppedAndCounted()
    {
        McpToolListPages pages;
        QCOMPARE(
            pages
                .take(page(json::parse(R"([1, "b", null, [], {}, {"name": 3}, {"name": null}, {"title": "x"}])"), "c2"))
                .kind,
            Kind::Next);
        QCOMPARE(pages.droppedEntries(), qint64(8));
        QCOMPARE(pages.take(page(json::array({tool("a"), true}))).kind, Kind::Done);
        QCOMPARE(pages.droppedEntries(), qint64(9));
        QCOMPARE(namesOf(pages.tools()), std::vector<std::string>{"a"});
    }

    void duplicatesAcrossPagesAreKeptOnceAndNamed()
    {
        McpToolListPages pages;
        json first = tool("b");
        first["description"] = "the first b";
        QCOMPARE(pages.take(page(json::array({tool("a"), first}), "c2")).kind, Kind::Next);
        json second = tool("b");
        second["description"] = "the second b";
        QCOMPARE(pages.take(page(json::array({second, tool("a"), tool("c"), tool("b")}))).kind, Kind::Done);
        QCOMPARE(namesOf(pages.tools()), (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(text(pages.tools()[1]["description"]), QStringLiteral("\"the first b\""));
        // Each name once, in the order they came again.
        QCOMPARE(pages.duplicateNames(), (QStringList{QStringLiteral("b"), QStringLiteral("a")}));
        QCOMPARE(pages.droppedEntries(), qint64(0));
    }

    void atMostTwentyDuplicatesAreNamed()
    {
        McpToolListPages pages;
        json list = json::array();
        for (int i = 0; i < 25; ++i)
            list.push_back(tool("d" + std::to_string(i)));
        QCOMPARE(pages.take(page(list, "c2")).kind, Kind::Next);
        QCOMPARE(pages.take(page(list)).kind, Kind::Done);
        QCOMPARE(pages.tools().size(), std::size_t(25));
        QCOMPARE(pages.duplicateNames().size(), McpToolListPages::MaxNamed);
        QCOMPARE(pages.duplicateNames().front(), QStringLiteral("d0"));
        QCOMPARE(pages.duplicateNames().back(), QStringLiteral("d19"));
    }

    // A 2026 session over Streamable HTTP: a tool whose x-mcp-header breaks the spec's
    // rules is left out and named; the annotations of the others are kept.
    void toolsWithBadParameterHeadersAreRejected()
    {
        const json routed = json::parse(R"({"name": "routed", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}}}})");
        const json bad = json::parse(R"({"name": "bad", "inputSchema": {"type": "object", "properties": {
            "n": {"type": "number", "x-mcp-header": "N"}}}})");
        const json badName = json::parse(R"({"name": "worse", "inputSchema": {"type": "object", "properties": {
            "q": {"type": "string", "x-mcp-header": "Not a token"}}}})");

        McpToolListPages checked(true);
        QVERIFY(checked.checksParameterHeaders());
        QCOMPARE(checked.take(page(json::array({routed, bad}), "c2")).kind, Kind::Next);
        QCOMPARE(checked.take(page(json::array({tool("plain"), badName}))).kind, Kind::Done);
        QCOMPARE(namesOf(checked.tools()), (std::vector<std::string>{"routed", "plain"}));
        QCOMPARE(checked.rejectedTools(),
                 (QStringList{
                     QStringLiteral("bad: property 'n': x-mcp-header is only for a property of type string, integer "
                                    "or boolean"),
                     QStringLiteral("worse: property 'q': its x-mcp-header is not an HTTP header name (letters, "
                                    "digits and !#$%&'*+-.^_`|~, not empty)")}));
        const McpParamHeaders::ToolParameters parameters = checked.takeParameters();
        QCOMPARE(parameters.size(), std::size_t(1)); // "plain" has none
        QCOMPARE(parameters.at("routed").size(), std::size_t(1));
        QCOMPARE(parameters.at("routed")[0].name, std::string("Region"));
        QCOMPARE(parameters.at("routed")[0].path, std::vector<std::string>{"region"});

        // Not checked (the 2025 era, stdio): every tool is offered.
        McpToolListPages unchecked;
        QCOMPARE(unchecked.take(page(json::array({routed, bad, badName}))).kind, Kind::Done);
        QCOMPARE(unchecked.tools().size(), std::size_t(3));
        QCOMPARE(unchecked.rejectedTools(), QStringList());
        QCOMPARE(unchecked.takeParameters().size(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TstMcpToolListPages)
#include "tst_mcptoollistpages.moc"
