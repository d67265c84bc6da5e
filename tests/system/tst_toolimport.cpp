// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio tools import` on files as they are published (issue 17 §3): a file with
// one bad tool among good ones imports the good ones and lists the refused one with
// its reason; BFCL function documents (JSON lines and plain lists) import with their
// dialect mapped to JSON Schema; a tool imported --as mock answers with an example of
// its output_schema that the studio's own validator accepts.

#include "clirunner.h"
#include "testfiles.h"

#include "exchange/schemaexample.h"
#include "project/schemavalidator.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <functional>

namespace {

nlohmann::json manifestOf(const QTemporaryDir &dir)
{
    return nlohmann::json::parse(fileBytes(dir.filePath(QStringLiteral("toolstudio.json"))).toStdString());
}

QByteArray dumped(const nlohmann::json &value)
{
    return QByteArray::fromStdString(value.dump());
}

/// The validator's verdict on `value` against `schema`: "" when valid.
QString verdict(const nlohmann::json &schema, const nlohmann::json &value)
{
    QString error;
    const auto validator = SchemaValidator::compile(schema, &error);
    if (!validator)
        return QStringLiteral("schema does not compile: ") + error;
    const auto failure = validator->validate(value);
    return failure ? failure->toString() : QString();
}

} // namespace

class TestToolImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // 12 definitions, one of them without a name: 11 imported, exit 0, the refused one
    // named with its reason on stderr and in the summary line.
    void oneInvalidToolAmongValidOnes()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        QByteArray list = "[";
        for (int i = 1; i <= 12; ++i) {
            if (i > 1)
                list += ", ";
            list += i == 7 ? QByteArray("{\"type\": \"function\", \"function\": {\"description\": \"no name\"}}")
                           : "{\"type\": \"function\", \"function\": {\"name\": \"t" + QByteArray::number(i)
                    + "\", \"parameters\": {\"type\": \"object\"}}}";
        }
        list += "]";
        const QString file = dir.filePath(QStringLiteral("openai.json"));
        QVERIFY(writeFile(file, list));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.err, QByteArray("tool 'definition 7': a openai-chat tool definition without a name\n"));
        QCOMPARE(result.out,
                 QByteArray("imported 11 of 12 tool(s): t1, t2, t3, t4, t5, t6, t8, t9, t10, t11, t12; refused: "
                            "definition 7\n"));
        QCOMPARE(manifestOf(dir)["tools"].size(), std::size_t(11));

        // Every one refused: exit 1, the project unchanged.
        const QByteArray before = fileBytes(dir.filePath(QStringLiteral("toolstudio.json")));
        const CommandResult again = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.startsWith("tool 'definition 7': a openai-chat tool definition without a name\n"
                                      "tool 't1': the project already has a tool of that name; it is not renamed "
                                      "(suggested: 't1_2'; on the command line: --rename t1=t1_2)\n"),
                 again.err.constData());
        QVERIFY2(again.err.endsWith("nothing imported: 12 of 12 tool(s) refused\n"), again.err.constData());
        QCOMPARE(fileBytes(dir.filePath(QStringLiteral("toolstudio.json"))), before);
    }

    // A name given twice in the file: the second copy is refused ("defined twice") with a
    // suggested name; --rename OLD=NEW renames that copy only, not both, and says so.
    void renameOfANameGivenTwiceRenamesOnlyTheRefusedCopy()
    {
        const QByteArray twice = "[{\"name\": \"get\", \"description\": \"first\", \"input_schema\": {\"type\": "
                                 "\"object\"}}, {\"name\": \"get\", \"description\": \"second\", \"input_schema\": "
                                 "{\"type\": \"object\"}}]";
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        const QString file = dir.filePath(QStringLiteral("twice.json"));
        QVERIFY(writeFile(file, twice));
        const CommandResult refused = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file});
        QCOMPARE(refused.err,
                 QByteArray("tool 'get': defined twice in the file; it is not renamed (suggested: "
                            "'get_2'; on the command line: --rename get=get_2)\n"));

        QTemporaryDir other;
        QVERIFY(writeFile(other.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), other.path(), file,
                                                 QStringLiteral("--rename"), QStringLiteral("get=get_2")});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("imported 2 tool(s): get, get_2\n"));
        QCOMPARE(result.err,
                 QByteArray("note: --rename get=get_2: twice.json defines 'get' 2 times; only copy 2 (the "
                            "one refused as defined twice) is renamed, the others keep the name\n"));
        const nlohmann::json tools = manifestOf(other)["tools"];
        QCOMPARE(tools.size(), std::size_t(2));
        QCOMPARE(dumped(tools[0]["name"]) + dumped(tools[0]["description"]), QByteArray("\"get\"\"first\""));
        QCOMPARE(dumped(tools[1]["name"]) + dumped(tools[1]["description"]), QByteArray("\"get_2\"\"second\""));
    }

    // BFCL's data files: one JSON object per line with "question" and "function": [...]
    // (a function repeated on another line is read once), and a plain function list.
    void bfclJsonLinesImportAsPublished()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        const QString file = dir.filePath(QStringLiteral("BFCL_v3_simple.json"));
        QVERIFY(writeFile(
            file,
            "{\"id\": \"simple_0\", \"question\": [[{\"role\": \"user\", \"content\": \"Area of a triangle?\"}]], "
            "\"function\": [{\"name\": \"calculate_triangle_area\", \"description\": \"Area of a triangle.\", "
            "\"parameters\": {\"type\": \"dict\", \"properties\": {\"base\": {\"type\": \"integer\", \"description\": "
            "\"The base.\"}, \"height\": {\"type\": \"float\"}, \"unit\": {\"type\": \"string\", \"description\": "
            "\"The unit.\", \"default\": \"units\"}}, \"required\": [\"base\", \"height\"]}}]}\n"
            "{\"id\": \"simple_1\", \"question\": [[{\"role\": \"user\", \"content\": \"5!\"}]], \"function\": "
            "[{\"name\": \"math.factorial\", \"description\": \"Factorial.\", \"parameters\": {\"type\": \"dict\", "
            "\"properties\": {\"number\": {\"type\": \"integer\"}, \"point\": {\"type\": \"tuple\", \"items\": "
            "{\"type\": \"float\"}}, \"values\": {\"type\": \"list\"}, \"extra\": {\"type\": \"any\", \"optional\": "
            "true}, \"options\": {\"type\": \"dict\", \"properties\": {\"depth\": {\"type\": \"integer\", "
            "\"optional\": true, \"default\": 2}}, \"required\": [\"depth\"]}}, \"required\": [\"number\", "
            "\"extra\"]}}]}\n"
            "{\"id\": \"simple_2\", \"question\": [[{\"role\": \"user\", \"content\": \"Again\"}]], \"function\": "
            "[{\"name\": \"calculate_triangle_area\", \"description\": \"Area of a triangle.\", \"parameters\": "
            "{\"type\": \"dict\", \"properties\": {\"base\": {\"type\": \"integer\", \"description\": \"The base.\"}, "
            "\"height\": {\"type\": \"float\"}, \"unit\": {\"type\": \"string\", \"description\": \"The unit.\", "
            "\"default\": \"units\"}}, \"required\": [\"base\", \"height\"]}}]}\n"));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, QByteArray("imported 2 tool(s): calculate_triangle_area, math_factorial\n"));
        QCOMPARE(result.err,
                 QByteArray("note: tool 'math.factorial' is imported as 'math_factorial' (the model APIs take no "
                            "'.'; its title keeps 'math.factorial')\n"));
        const nlohmann::json tools = manifestOf(dir)["tools"];
        QCOMPARE(dumped(tools[0]["input_schema"]),
                 QByteArray("{\"properties\":{\"base\":{\"description\":\"The base.\",\"type\":\"integer\"},"
                            "\"height\":{\"type\":\"number\"},\"unit\":{\"default\":\"units\",\"description\":"
                            "\"The unit.\",\"type\":\"string\"}},\"required\":[\"base\",\"height\"],\"type\":"
                            "\"object\"}"));
        QCOMPARE(dumped(tools[1]["name"]), QByteArray("\"math_factorial\""));
        QCOMPARE(dumped(tools[1]["title"]), QByteArray("\"math.factorial\""));
        QCOMPARE(dumped(tools[1]["input_schema"]),
                 QByteArray("{\"properties\":{\"extra\":{},\"number\":{\"type\":\"integer\"},\"options\":"
                            "{\"properties\":{\"depth\":{\"default\":2,\"type\":\"integer\"}},\"required\":[],"
                            "\"type\":\"object\"},\"point\":{\"items\":{\"type\":\"number\"},\"type\":\"array\"},"
                            "\"values\":{\"type\":\"array\"}},\"required\":[\"number\"],\"type\":\"object\"}"));
    }

    // A plain list of BFCL functions (their "live" and multi-function shape), with
    // --format bfcl, and a Java-typed parameter read as a string (said so).
    void bfclFunctionListWithFormatOption()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        const QString file = dir.filePath(QStringLiteral("functions.json"));
        QVERIFY(writeFile(file,
                          "[{\"name\": \"get_weather\", \"description\": \"Weather.\", \"parameters\": {\"type\": "
                          "\"dict\", \"required\": [\"location\"], \"properties\": {\"location\": {\"type\": "
                          "\"string\"}, \"unit\": {\"type\": \"string\", \"enum\": [\"celsius\", \"fahrenheit\"], "
                          "\"default\": \"fahrenheit\"}}}},\n"
                          " {\"name\": \"Cache.put\", \"description\": \"Java.\", \"parameters\": {\"type\": "
                          "\"dict\", \"properties\": {\"map\": {\"type\": \"HashMap\", \"description\": \"A map.\"}}, "
                          "\"required\": [\"map\"]}}]\n"));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file,
                                                 QStringLiteral("--format"), QStringLiteral("bfcl")});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, QByteArray("imported 2 tool(s): get_weather, Cache_put\n"));
        QCOMPARE(result.err,
                 QByteArray("note: tool 'Cache.put' is imported as 'Cache_put' (the model APIs take no '.'; its title "
                            "keeps 'Cache.put')\n"
                            "note: tool 'Cache.put': parameter 'map': BFCL type 'HashMap' is read as a string\n"));
        const nlohmann::json tools = manifestOf(dir)["tools"];
        QCOMPARE(dumped(tools[0]["input_schema"]),
                 QByteArray("{\"properties\":{\"location\":{\"type\":\"string\"},\"unit\":{\"default\":\"fahrenheit\","
                            "\"enum\":[\"celsius\",\"fahrenheit\"],\"type\":\"string\"}},\"required\":[\"location\"],"
                            "\"type\":\"object\"}"));
        QCOMPARE(dumped(tools[1]["input_schema"]["properties"]["map"]),
                 QByteArray("{\"description\":\"A map.\",\"type\":\"string\"}"));

        const CommandResult unknown = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file,
                                                  QStringLiteral("--format"), QStringLiteral("gorilla")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.startsWith("unknown import format 'gorilla' (bfcl, or auto: the others are recognised "
                                       "by their shape)\n"));
    }

    // The reference server "everything" imported as mocks: every tool imports, and the
    // one with an outputSchema answers with an example that satisfies it.
    void everythingAsMocksAnswersWithValidResults()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        const CommandResult result
            = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(),
                          mcpFixture("everything-tools-list.json"), QStringLiteral("--as"), QStringLiteral("mock")});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.out.startsWith("imported 14 tool(s): "), result.out.constData());
        const nlohmann::json structured = manifestOf(dir)["tools"][9];
        QCOMPARE(dumped(structured["name"]), QByteArray("\"structured-content\""));
        const nlohmann::json mock = structured["handler"]["sequence"][0]["result"];
        QCOMPARE(dumped(mock), QByteArray("{\"conditions\":\"\",\"humidity\":0,\"temperature\":0}"));
        QCOMPARE(verdict(structured["output_schema"], mock), QString());
    }

    // An export adds no key silently: `items: {}` for an untyped array is listed with
    // where and why; a schema that has items is exported as written.
    void exportListsAddedItems()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                          "{\"name\": \"p\", \"tools\": [{\"name\": \"bag\", \"input_schema\": {\"type\": \"object\", "
                          "\"properties\": {\"things\": {\"type\": \"array\"}, \"pairs\": {\"type\": \"array\", "
                          "\"items\": {\"type\": \"array\"}}, \"tags\": {\"type\": \"array\", \"items\": {\"type\": "
                          "\"string\"}}}}, \"handler\": {\"kind\": \"manual\"}}]}\n"));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("export"), dir.path(),
                                                 QStringLiteral("--format"), QStringLiteral("openai-chat")});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(
            result.err,
            QByteArray("tool 'bag': added \"items\": {} (any item) to the array schema at /properties/pairs/items, "
                       "/properties/things (OpenAI refuses an array schema without items)\n"));
        const nlohmann::json list = nlohmann::json::parse(result.out.toStdString());
        QCOMPARE(dumped(list[0]["function"]["parameters"]["properties"]),
                 QByteArray("{\"pairs\":{\"items\":{\"items\":{},\"type\":\"array\"},\"type\":\"array\"},\"tags\":"
                            "{\"items\":{\"type\":\"string\"},\"type\":\"array\"},\"things\":{\"items\":{},\"type\":"
                            "\"array\"}}"));
    }

    // A member of an unexpected type where the importer reads a flag or a kind
    // ({"type": 5}, "optional": "yes") aborted the whole process (nlohmann's value()
    // throws): each is read as absent, and the import goes on.
    void membersOfAnotherTypeDoNotAbort()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        const QString file = dir.filePath(QStringLiteral("odd.json"));
        QVERIFY(
            writeFile(file,
                      "[{\"type\": 5, \"name\": \"typed\", \"parameters\": {\"type\": \"object\"}},\n"
                      " {\"name\": \"flags\", \"parameters\": {\"type\": \"dict\", \"properties\": {\"a\": "
                      "{\"type\": \"str\", \"optional\": \"yes\"}, \"b\": {\"type\": \"int\", \"optional\": 1}, "
                      "\"c\": {\"type\": \"float\", \"optional\": true}}, \"required\": [\"a\", \"b\", \"c\"]}}]\n"));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file,
                                                 QStringLiteral("--format"), QStringLiteral("bfcl")});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, QByteArray("imported 2 tool(s): typed, flags\n"));
        QCOMPARE(dumped(manifestOf(dir)["tools"][1]["input_schema"]),
                 QByteArray("{\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"},\"c\":{\"type\":"
                            "\"number\"}},\"required\":[\"a\",\"b\"],\"type\":\"object\"}"));
    }

    // Names from the file are printed escaped and elided, and the suggested --rename
    // command is shell-quoted: a name with a quote was a paste-ready command injection,
    // one with ESC drove the terminal.
    void refusedNamesArePrintable()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"p\", \"tools\": []}\n"));
        const QString file = dir.filePath(QStringLiteral("names.json"));
        const QByteArray longName(10000, 'n');
        QVERIFY(writeFile(file,
                          "{\"tools\": [{\"name\": \"ok\", \"inputSchema\": {\"type\": \"object\"}},\n"
                          " {\"name\": \"x';touch pwned;'\\u001b]0;t\\u0007\", \"inputSchema\": {}},\n"
                          " {\"name\": \"a.b\\u001b[2J\", \"inputSchema\": {\"type\": \"object\", \"properties\": "
                          "{\"p\\u001b[31m\": {\"type\": \"HashMap\\u001b\"}}}},\n"
                          " {\"name\": \""
                              + longName + "\", \"inputSchema\": {}}]}\n"));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(!result.err.contains('\x1b') && !result.out.contains('\x1b'), result.err.constData());
        const QList<QByteArray> lines = result.err.split('\n');
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines[0],
                 QByteArray("note: tool 'a.b\\u001b[2J': parameter 'p\\u001b[31m': BFCL type 'HashMap\\u001b' is read "
                            "as a string"));
        const QByteArray rule
            = "invalid name (1 to 128 letters, digits, '_', '-' or '.', starting with a letter, digit "
              "or '_'); it is not renamed ";
        QCOMPARE(lines[1],
                 "tool 'x';touch pwned;'\\u001b]0;t\\u0007': " + rule
                     + "(suggested: 'x__touch_pwned____0_t_'; on the command line: --rename "
                       "'x'\\'';touch pwned;'\\''\\u001b]0;t\\u0007=x__touch_pwned____0_t_')");
        QCOMPARE(lines[2],
                 "tool 'a.b\\u001b[2J': " + rule
                     + "(suggested: 'a.b__2J'; on the command line: --rename 'a.b\\u001b[2J=a.b__2J')");
        QVERIFY2(lines[3].startsWith("tool '" + QByteArray(128, 'n') + "… (9872 bytes dropped)': " + rule),
                 lines[3].left(300).constData());
        QCOMPARE(result.out,
                 "imported 1 of 4 tool(s): ok; refused: x';touch pwned;'\\u001b]0;t\\u0007, a.b\\u001b[2J, "
                     + QByteArray(128, 'n') + "… (9872 bytes dropped)\n");
    }

    void exampleSatisfiesEachKeyword_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("example");
        QTest::newRow("enum first") << QByteArray("{\"type\":\"string\",\"enum\":[\"EUR\",\"GBP\"]}")
                                    << QByteArray("\"EUR\"");
        QTest::newRow("const") << QByteArray("{\"const\":{\"ok\":true}}") << QByteArray("{\"ok\":true}");
        QTest::newRow("minimum") << QByteArray("{\"type\":\"integer\",\"minimum\":3}") << QByteArray("3");
        QTest::newRow("exclusiveMinimum")
            << QByteArray("{\"type\":\"integer\",\"exclusiveMinimum\":3}") << QByteArray("4");
        QTest::newRow("negative maximum") << QByteArray("{\"type\":\"number\",\"maximum\":-2.5}") << QByteArray("-2.5");
        QTest::newRow("date-time") << QByteArray("{\"type\":\"string\",\"format\":\"date-time\"}")
                                   << QByteArray("\"2026-01-01T00:00:00Z\"");
        QTest::newRow("minLength") << QByteArray("{\"type\":\"string\",\"minLength\":3}") << QByteArray("\"xxx\"");
        QTest::newRow("minItems") << QByteArray("{\"type\":\"array\",\"minItems\":2,\"items\":{\"type\":\"boolean\"}}")
                                  << QByteArray("[false,false]");
        QTest::newRow("nullable") << QByteArray("{\"type\":[\"null\",\"integer\"]}") << QByteArray("0");
        QTest::newRow("$ref and required")
            << QByteArray("{\"type\":\"object\",\"required\":[\"when\",\"price\"],\"properties\":{\"when\":{\"$ref\":"
                          "\"#/definitions/day\"},\"price\":{\"type\":\"number\",\"minimum\":0.5},\"note\":{\"type\":"
                          "\"string\"}},\"definitions\":{\"day\":{\"type\":\"string\",\"format\":\"date\"}}}")
            << QByteArray("{\"when\":\"2026-01-01\",\"price\":0.5}");
        QTest::newRow("anyOf first") << QByteArray("{\"anyOf\":[{\"type\":\"boolean\"},{\"type\":\"string\"}]}")
                                     << QByteArray("false");
    }

    void exampleSatisfiesEachKeyword()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, example);
        const auto parsed = nlohmann::ordered_json::parse(schema.toStdString());
        const nlohmann::ordered_json generated = SchemaExample::generate(parsed);
        QCOMPARE(QByteArray::fromStdString(generated.dump()), example);
        QCOMPARE(verdict(nlohmann::json::parse(schema.toStdString()), nlohmann::json::parse(generated.dump())),
                 QString());
    }

    // Hostile output schemas: the example stays small whatever the schema (a $ref back
    // to the root twice per object, or in an array of 64, grew it exponentially: one
    // 177-byte file hung `tools import --as mock`), and a bound beyond int64 is no
    // undefined cast.
    void exampleIsBounded_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<int>("values");
        QTest::addColumn<QByteArray>("start");
        QTest::newRow("$ref to the root twice")
            << QByteArray("{\"type\":\"object\",\"required\":[\"a\",\"b\"],\"properties\":{\"a\":{\"$ref\":\"#\"},"
                          "\"b\":{\"$ref\":\"#\"}}}")
            << 1000 << QByteArray("{\"a\":{\"a\":{\"a\":");
        QTest::newRow("$ref in 64 items")
            << QByteArray("{\"type\":\"array\",\"minItems\":64,\"items\":{\"$ref\":\"#\"}}") << 1000
            << QByteArray("[[[[[[");
        QTest::newRow("allOf of the root")
            << QByteArray("{\"type\":\"object\",\"allOf\":[{\"$ref\":\"#\"},{\"$ref\":\"#\"}],\"required\":[\"x\"]}")
            << 1000 << QByteArray("{\"x\":null}");
        QTest::newRow("minimum 1e300") << QByteArray("{\"type\":\"integer\",\"minimum\":1e300}") << 1
                                       << QByteArray("1e+300");
    }

    void exampleIsBounded()
    {
        QFETCH(QByteArray, schema);
        QFETCH(int, values);
        QFETCH(QByteArray, start);
        const nlohmann::ordered_json generated
            = SchemaExample::generate(nlohmann::ordered_json::parse(schema.toStdString()));
        int count = 0;
        const std::function<void(const nlohmann::ordered_json &)> walk = [&](const nlohmann::ordered_json &value) {
            ++count;
            if (value.is_structured())
                for (const auto &member : value)
                    walk(member);
        };
        walk(generated);
        QVERIFY2(count <= values, qPrintable(QString::number(count)));
        QVERIFY2(QByteArray::fromStdString(generated.dump()).startsWith(start),
                 generated.dump().substr(0, 200).c_str());
    }
};

QTEST_GUILESS_MAIN(TestToolImport)
#include "tst_toolimport.moc"
