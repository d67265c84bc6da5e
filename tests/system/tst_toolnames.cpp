// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tool names by MCP's rule (1–128 of A-Z a-z 0-9 _ - .) end to end, as a user meets
// them with the built toolstudio: a script in each language reaches `get-tiny-image`,
// an MCP tools/list with hyphenated names imports, an export to a model API maps a
// dotted name and says so.

#include "clirunner.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

namespace {} // namespace

class TestToolNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // `get-tiny-image` is no identifier: Python and Node reach it through tools["…"]
    // and tools.call("…", {…}), Bash through `tool get-tiny-image`; it is not made a
    // Python global (only identifier names are).
    void hyphenatedNameFromEveryShim_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QByteArray>("output");
        QTest::newRow("python") << QStringLiteral("main.py")
                                << QByteArray("import builtins\n"
                                              "from toolstudio import tools\n"
                                              "print(tools['get-tiny-image']()['image'])\n"
                                              "print(tools.call('get-tiny-image', {'size': 2})['image'])\n"
                                              "print(hasattr(builtins, 'get-tiny-image'), callable(echo))\n")
                                << QByteArray("tiny\ntiny\nFalse True\n");
        QTest::newRow("node") << QStringLiteral("main.js")
                              << QByteArray("const { tools } = require('toolstudio');\n"
                                            "(async () => {\n"
                                            "  console.log((await tools['get-tiny-image']()).image);\n"
                                            "  console.log((await tools.call('get-tiny-image', { size: 2 })).image);\n"
                                            "  console.log(typeof globalThis['get-tiny-image']);\n"
                                            "})();\n")
                              << QByteArray("tiny\ntiny\nundefined\n");
        QTest::newRow("bash") << QStringLiteral("main.sh")
                              << QByteArray("tool get-tiny-image\ntool get-tiny-image size:=2\n")
                              << QByteArray("{\"image\":\"tiny\"}\n{\"image\":\"tiny\"}\n");
    }

    void hyphenatedNameFromEveryShim()
    {
        QFETCH(QString, script);
        QFETCH(QByteArray, source);
        QFETCH(QByteArray, output);
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("scripts/") + script), source));
        QVERIFY(
            writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      "{\"name\": \"names\", \"tools\": [\n"
                      " {\"name\": \"get-tiny-image\", \"input_schema\": {\"type\": \"object\", \"properties\":"
                      " {\"size\": {\"type\": \"integer\"}}},\n"
                      "  \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": {\"image\": \"tiny\"}}]}},\n"
                      " {\"name\": \"echo\", \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1}]}}]}\n"));
        const CommandResult run
            = toolstudio({QStringLiteral("run"), dir.path(), dir.filePath(QStringLiteral("scripts/") + script)});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QByteArray scriptOutput;
        for (const QByteArray &line : run.out.split('\n'))
            if (line.startsWith("tiny") || line.startsWith("False") || line.startsWith("undefined")
                || line.startsWith("{\"image\""))
                scriptOutput += line + '\n';
        QCOMPARE(scriptOutput, output);
        QCOMPARE(run.out.count("get-tiny-image succeeded"), 2);
    }

    // An MCP tools/list resembling the reference server "everything": 14 tools, 11
    // with '-' in the name. Every one imports under its own name.
    void mcpToolsListWithHyphenatedNamesImports()
    {
        QTemporaryDir dir;
        QVERIFY(
            writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"everything\", \"tools\": []}\n"));
        const CommandResult result
            = toolstudio({QStringLiteral("tools"), QStringLiteral("import"), dir.path(),
                          mcpFixture("everything-tools-list.json"), QStringLiteral("--as"), QStringLiteral("mock")});
        QVERIFY2(result.exitCode == 0, result.out + result.err);
        QCOMPARE(result.out,
                 QByteArray("imported 14 tool(s): echo, add, long-running-operation, print-env, sample-llm, "
                            "get-tiny-image, annotated-message, get-resource-reference, get-resource-links, "
                            "structured-content, zip-resources, list-roots, startElicitation, delete-all-notes\n"));
        const nlohmann::json manifest
            = nlohmann::json::parse(fileBytes(dir.filePath(QStringLiteral("toolstudio.json"))));
        QCOMPARE(manifest["tools"].size(), std::size_t(14));
        QCOMPARE(QByteArray::fromStdString(manifest["tools"][5].dump()),
                 QByteArray("{\"annotations\":{\"openWorldHint\":false,\"readOnlyHint\":true},\"description\":"
                            "\"Returns the MCP_TINY_IMAGE\",\"handler\":{\"kind\":\"mock\",\"sequence\":[{\"result\":"
                            "null}]},\"input_schema\":{\"properties\":{},\"type\":\"object\"},\"name\":"
                            "\"get-tiny-image\",\"title\":\"Tiny image\"}"));
        // MCP's title, hints and outputSchema are kept (structured-content has all three).
        const nlohmann::json &structured = manifest["tools"][9];
        QCOMPARE(QByteArray::fromStdString(structured["title"].get<std::string>()), QByteArray("Weather (structured)"));
        QCOMPARE(QByteArray::fromStdString(structured["annotations"].dump()),
                 QByteArray("{\"idempotentHint\":true,\"openWorldHint\":true,\"readOnlyHint\":true}"));
        QCOMPARE(QByteArray::fromStdString(structured["output_schema"]["required"].dump()),
                 QByteArray("[\"temperature\",\"conditions\",\"humidity\"]"));
        QVERIFY(!manifest["tools"][0].contains("annotations"));
        // The project loads with them; `tools list` shows the hyphenated names.
        const CommandResult list = toolstudio({QStringLiteral("tools"), QStringLiteral("list"), dir.path()});
        QVERIFY2(list.exitCode == 0, list.err);
        QVERIFY2(list.out.contains("get-tiny-image"), list.out.constData());
    }

    // An invalid name is refused with a suggestion while the valid tool is imported;
    // --rename OLD=NEW accepts the suggestion. Never renamed without being asked.
    void importRenameAcceptsTheSuggestion()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"r\", \"tools\": []}\n"));
        const QString file = dir.filePath(QStringLiteral("defs.json"));
        QVERIFY(writeFile(file,
                          "[{\"name\": \"get forecast\", \"input_schema\": {\"type\": \"object\"}},"
                          " {\"name\": \"files.read\", \"input_schema\": {\"type\": \"object\"}}]"));
        const QStringList import{QStringLiteral("tools"), QStringLiteral("import"), dir.path(), file};
        const CommandResult unknown
            = toolstudio(import + QStringList{QStringLiteral("--rename"), QStringLiteral("get forcast=get_forecast")});
        QCOMPARE(unknown.exitCode, 1);
        QCOMPARE(unknown.err,
                 "--rename get forcast=get_forecast: " + file.toUtf8()
                     + " has no tool called 'get forcast'\nnothing imported\n");

        const CommandResult partial = toolstudio(import);
        QCOMPARE(partial.exitCode, 0);
        QCOMPARE(partial.err,
                 QByteArray("tool 'get forecast': invalid name (1 to 128 letters, digits, '_', '-' or '.', starting "
                            "with a letter, digit or '_'); it is not renamed (suggested: 'get_forecast'; on the "
                            "command line: --rename 'get forecast=get_forecast')\n"));
        QCOMPARE(partial.out, QByteArray("imported 1 of 2 tool(s): files.read; refused: get forecast\n"));

        const CommandResult renamed
            = toolstudio(import + QStringList{QStringLiteral("--rename"), QStringLiteral("get forecast=get_forecast")});
        QVERIFY2(renamed.exitCode == 0, renamed.err);
        QCOMPARE(renamed.out, QByteArray("imported 1 of 2 tool(s): get_forecast; refused: files.read\n"));
        QCOMPARE(renamed.err,
                 QByteArray("tool 'files.read': the project already has a tool of that name; it is not renamed "
                            "(suggested: 'files.read_2'; on the command line: --rename files.read=files.read_2)\n"));
    }

    // OpenAI and Anthropic take ^[a-zA-Z0-9_-]{1,64}$: a '.' is mapped to '_' and the
    // mapping is printed; a mapped name another tool has is refused with the reason.
    void exportMapsADottedNameAndSaysSo()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(
            dir.filePath(QStringLiteral("toolstudio.json")),
            "{\"name\": \"dots\", \"tools\": [\n"
            " {\"name\": \"files.read\", \"description\": \"Reads\", \"handler\": {\"kind\": \"manual\"}},\n"
            " {\"name\": \"get-tiny-image\", \"description\": \"Tiny\", \"handler\": {\"kind\": \"manual\"}}]}\n"));
        const CommandResult result = toolstudio({QStringLiteral("tools"), QStringLiteral("export"), dir.path(),
                                                 QStringLiteral("--format"), QStringLiteral("openai")});
        QVERIFY2(result.exitCode == 0, result.err);
        QCOMPARE(result.err,
                 QByteArray("tool 'files.read' is exported as 'files_read' (the model APIs take only "
                            "letters, digits, '_' and '-' in a name)\n"));
        const nlohmann::json list = nlohmann::json::parse(result.out.toStdString());
        QCOMPARE(QByteArray::fromStdString(list[0]["function"]["name"].get<std::string>()), QByteArray("files_read"));
        QCOMPARE(QByteArray::fromStdString(list[1]["function"]["name"].get<std::string>()),
                 QByteArray("get-tiny-image"));

        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                          "{\"name\": \"dots\", \"tools\": [\n"
                          " {\"name\": \"files.read\", \"handler\": {\"kind\": \"manual\"}},\n"
                          " {\"name\": \"files_read\", \"handler\": {\"kind\": \"manual\"}}]}\n"));
        const CommandResult clash = toolstudio({QStringLiteral("tools"), QStringLiteral("export"), dir.path(),
                                                QStringLiteral("--format"), QStringLiteral("anthropic")});
        QCOMPARE(clash.exitCode, 1);
        QCOMPARE(clash.out, QByteArray());
        QCOMPARE(clash.err,
                 QByteArray("tool 'files.read': its name maps to 'files_read' for the model APIs (no '.'), the name of "
                            "another tool: rename one of them\n"
                            "nothing exported: 1 tool(s) cannot be exported as anthropic\n"));
    }
};

QTEST_GUILESS_MAIN(TestToolNames)
#include "tst_toolnames.moc"
