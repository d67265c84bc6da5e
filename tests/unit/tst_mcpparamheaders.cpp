// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpparamheaders.h"

#include <QTest>

using json = nlohmann::json;

namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

// The spec's example tool (2026-07-28 streamable-http "Custom Headers from Tool Parameters").
json spannerSchema()
{
    return json::parse(R"({"type": "object", "properties": {
        "region": {"type": "string", "description": "The region", "x-mcp-header": "Region"},
        "query": {"type": "string"}}, "required": ["region", "query"]})");
}

QString refusal(const json &schema)
{
    QString why;
    const auto annotations = McpParamHeaders::annotationsOf(schema, &why);
    return annotations ? QStringLiteral("(accepted)") : why;
}

} // namespace

class TstMcpParamHeaders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theSpecsExampleBecomesAHeader()
    {
        QString why;
        const auto annotations = McpParamHeaders::annotationsOf(spannerSchema(), &why);
        QVERIFY2(annotations, qPrintable(why));
        QCOMPARE(annotations->size(), std::size_t(1));
        const Headers headers
            = McpParamHeaders::headersFor(*annotations, json{{"region", "us-west1"}, {"query", "SELECT * FROM users"}});
        QCOMPARE(headers, (Headers{{"Mcp-Param-Region", "us-west1"}}));
        // No value at the path: no header.
        QCOMPARE(McpParamHeaders::headersFor(*annotations, json{{"query", "x"}}), Headers{});
    }

    // The spec's "Value Encoding" table, integers and booleans, and a nested property (in
    // the order of the schema's property names).
    void valuesAreConvertedAndEncoded()
    {
        const json schema = json::parse(R"({"type": "object", "properties": {
            "greeting": {"type": "string", "x-mcp-header": "Greeting"},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
            "target": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}}}})");
        QString why;
        const auto annotations = McpParamHeaders::annotationsOf(schema, &why);
        QVERIFY2(annotations, qPrintable(why));
        QCOMPARE(
            McpParamHeaders::headersFor(
                *annotations,
                json{{"greeting", "Hello, 世界"}, {"count", -7}, {"dry", false}, {"target", {{"zone", " padded "}}}}),
            (Headers{{"Mcp-Param-Count", "-7"},
                     {"Mcp-Param-Dry-Run", "false"},
                     {"Mcp-Param-Greeting", "=?base64?SGVsbG8sIOS4lueVjA==?="},
                     {"Mcp-Param-Zone", "=?base64?IHBhZGRlZCA=?="}}));
        QCOMPARE(McpParamHeaders::headersFor(*annotations, json{{"greeting", "line1\nline2"}, {"count", 42}}),
                 (Headers{{"Mcp-Param-Count", "42"}, {"Mcp-Param-Greeting", "=?base64?bGluZTEKbGluZTI=?="}}));
        QCOMPARE(McpParamHeaders::headersFor(*annotations, json{{"greeting", "=?base64?literal?="}}),
                 (Headers{{"Mcp-Param-Greeting", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="}}));
        // Past JavaScript's safe integers, or a value of another type: no header (the
        // server's HeaderMismatch then says so).
        QCOMPARE(McpParamHeaders::headersFor(*annotations, json{{"count", 9007199254740992LL}, {"dry", "yes"}}),
                 Headers{});
        QCOMPARE(McpParamHeaders::headersFor(*annotations, json{{"count", 18446744073709551615ULL}}), Headers{});
        QCOMPARE(McpParamHeaders::headersFor(*annotations, json{{"count", 9007199254740991LL}}),
                 (Headers{{"Mcp-Param-Count", "9007199254740991"}}));
    }

    void schemaWithoutAnnotationsHasNone()
    {
        QString why;
        const auto annotations = McpParamHeaders::annotationsOf(
            json::parse(R"({"type": "object", "properties": {"x-mcp-header": {"type": "string"},
                "v": {"const": {"x-mcp-header": "NotAnAnnotation"}, "enum": [{"x-mcp-header": "Nor"}]}}})"),
            &why);
        QVERIFY2(annotations, qPrintable(why));
        QCOMPARE(annotations->size(), std::size_t(0));
    }

    void brokenAnnotationsRefuseTheTool_data()
    {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("why");
        QTest::newRow("under items") << QStringLiteral(R"({"type": "object", "properties": {"list": {"type": "array",
            "items": {"type": "string", "x-mcp-header": "Item"}}}})")
                                     << QStringLiteral("property 'list' has x-mcp-header but is not reached from the "
                                                       "schema's root through 'properties' alone (not under items, "
                                                       "anyOf/oneOf/allOf/not, if/then/else, $defs or $ref)");
        QTest::newRow("under anyOf") << QStringLiteral(R"({"type": "object", "properties": {"a": {"anyOf": [
            {"type": "string", "x-mcp-header": "A"}]}}})")
                                     << QStringLiteral("property 'a' has x-mcp-header but is not reached from the "
                                                       "schema's root through 'properties' alone (not under items, "
                                                       "anyOf/oneOf/allOf/not, if/then/else, $defs or $ref)");
        QTest::newRow("in $defs") << QStringLiteral(R"({"type": "object", "$defs": {"r": {"type": "string",
            "x-mcp-header": "R"}}, "properties": {"r": {"$ref": "#/$defs/r"}}})")
                                  << QStringLiteral("the schema's root has x-mcp-header but is not reached from the "
                                                    "schema's root through 'properties' alone (not under items, "
                                                    "anyOf/oneOf/allOf/not, if/then/else, $defs or $ref)");
        QTest::newRow("on the root") << QStringLiteral(R"({"type": "string", "x-mcp-header": "Root"})")
                                     << QStringLiteral("the schema's root has x-mcp-header but is not reached from "
                                                       "the schema's root through 'properties' alone (not under "
                                                       "items, anyOf/oneOf/allOf/not, if/then/else, $defs or $ref)");
        QTest::newRow("number") << QStringLiteral(R"({"properties": {"t": {"type": "number", "x-mcp-header": "T"}}})")
                                << QStringLiteral("property 't': x-mcp-header is only for a property of type string, "
                                                  "integer or boolean");
        QTest::newRow("no type") << QStringLiteral(R"({"properties": {"t": {"x-mcp-header": "T"}}})")
                                 << QStringLiteral("property 't': x-mcp-header is only for a property of type "
                                                   "string, integer or boolean");
        QTest::newRow("empty") << QStringLiteral(R"({"properties": {"t": {"type": "string", "x-mcp-header": ""}}})")
                               << QStringLiteral("property 't': its x-mcp-header is not an HTTP header name "
                                                 "(letters, digits and !#$%&'*+-.^_`|~, not empty)");
        QTest::newRow("CR LF") << QStringLiteral(R"({"properties": {"t": {"type": "string",
            "x-mcp-header": "A\r\nSet-Cookie: x"}}})")
                               << QStringLiteral("property 't': its x-mcp-header is not an HTTP header name "
                                                 "(letters, digits and !#$%&'*+-.^_`|~, not empty)");
        QTest::newRow("not a string") << QStringLiteral(R"({"properties": {"t": {"type": "string",
            "x-mcp-header": 7}}})")
                                      << QStringLiteral("property 't': its x-mcp-header is not an HTTP header "
                                                        "name (letters, digits and !#$%&'*+-.^_`|~, not empty)");
        QTest::newRow("twice") << QStringLiteral(R"({"properties": {"a": {"type": "string", "x-mcp-header": "Zone"},
            "b": {"type": "string", "x-mcp-header": "zone"}}})")
                               << QStringLiteral("property 'b': x-mcp-header 'zone' is used by another property "
                                                 "too (names are compared without case)");
    }

    void brokenAnnotationsRefuseTheTool()
    {
        QFETCH(QString, schema);
        QFETCH(QString, why);
        QCOMPARE(refusal(json::parse(schema.toStdString())), why);
    }

    // Bounds: a server cannot make every call carry thousands of headers, nor walk the
    // studio's stack with a deep schema.
    void boundsHold()
    {
        json many = {{"type", "object"}, {"properties", json::object()}};
        for (std::size_t i = 0; i <= McpParamHeaders::MaxAnnotations; ++i)
            many["properties"]["p" + std::to_string(i)]
                = {{"type", "string"}, {"x-mcp-header", "H" + std::to_string(i)}};
        QCOMPARE(refusal(many), QStringLiteral("more than 32 properties have x-mcp-header"));
        json deep = {{"type", "string"}};
        for (int i = 0; i < 100; ++i)
            deep = {{"type", "object"}, {"properties", {{"n", deep}}}};
        QCOMPARE(refusal(deep), QStringLiteral("the inputSchema is nested deeper than 64 levels"));
        const json longName = {{"properties", {{"t", {{"type", "string"}, {"x-mcp-header", std::string(129, 'A')}}}}}};
        QCOMPARE(refusal(longName),
                 QStringLiteral("property 't': its x-mcp-header is longer than 128 characters (a "
                                "header name that long makes every call of the tool fail: 431 "
                                "from the server)"));
        const json longest = {{"properties", {{"t", {{"type", "string"}, {"x-mcp-header", std::string(128, 'A')}}}}}};
        QCOMPARE(refusal(longest), QStringLiteral("(accepted)"));

        // A call's Mcp-Param headers go out up to MaxHeaderBytes together ("name: value"):
        // "Mcp-Param-Region: " is 18 bytes, so 8174 of value fit, 8175 do not; two
        // headers of 5000 bytes each (each under the bound) do not either (attack35).
        const std::vector<McpParamHeaders::Annotation> region = {{{"region"}, "Region", "string"}};
        QCOMPARE(McpParamHeaders::oversized(McpParamHeaders::headersFor(region, {{"region", std::string(8174, 'a')}})),
                 QString());
        QCOMPARE(McpParamHeaders::oversized(McpParamHeaders::headersFor(region, {{"region", std::string(8175, 'a')}})),
                 QStringLiteral("not sent: the arguments the tool mirrors into HTTP headers (x-mcp-header) come to "
                                "8193 bytes as headers, the largest Mcp-Param-Region with a value of 8175 bytes; at "
                                "most 8192 go into a request's headers, as servers refuse larger ones: pass shorter "
                                "values"));
        const std::vector<McpParamHeaders::Annotation> two = {{{"a"}, "A", "string"}, {{"b"}, "B", "string"}};
        QCOMPARE(McpParamHeaders::oversized(
                     McpParamHeaders::headersFor(two, {{"a", std::string(5000, 'a')}, {"b", std::string(4999, 'b')}})),
                 QStringLiteral("not sent: the arguments the tool mirrors into HTTP headers (x-mcp-header) come to "
                                "10025 bytes as headers, the largest Mcp-Param-A with a value of 5000 bytes; at most "
                                "8192 go into a request's headers, as servers refuse larger ones: pass shorter "
                                "values"));
    }
};

QTEST_GUILESS_MAIN(TstMcpParamHeaders)
#include "tst_mcpparamheaders.moc"
