// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// `toolstudio run` as a user runs it: the built binary, its exit status and output.

#include "cli/answerfile.h"
#include "clirunner.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// Compact JSON text, for comparing JSON values with QCOMPARE.
QByteArray dumped(const nlohmann::json &value)
{
    return QByteArray::fromStdString(value.dump());
}

QString example(const char *name)
{
    return qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/resources/examples/")
        + QString::fromLatin1(name);
}

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(data);
}

} // namespace

class TestRunCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exampleRunsComplete_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QByteArray>("tool");
        QTest::newRow("exchange-rate") << example("exchange-rate") << QStringList()
                                       << QByteArray("100 USD = 92.0 EUR\n") << QByteArray("get_exchange_rate");
        QTest::newRow("customer-seats") << example("customer-seats") << QStringList() << QByteArray("30\n")
                                        << QByteArray("getCustomer");
        QTest::newRow("render-report") << example("render-report")
                                       << QStringList{QStringLiteral("--answers"),
                                                      example("render-report") + QStringLiteral("/answers.json")}
                                       << QByteArray("Report ready: https://reports.example.com/q3-seat-growth\n")
                                       << QByteArray("render_report");
        // An MCP server of the project (server/weather.py, over stdio, confined): the
        // script binds weather__forecast; book asks back (an elicitation) and answers.json
        // answers it.
        QTest::newRow("mcp-weather") << example("mcp-weather") << QStringList{QStringLiteral("--trust")}
                                     << QByteArray("Lisbon, day 1: sunny, 24 °C\nLisbon, day 2: sunny, 25 °C\n")
                                     << QByteArray("weather__forecast");
        QTest::newRow("mcp-weather book")
            << example("mcp-weather")
            << QStringList{QStringLiteral("book"), QStringLiteral("--trust"), QStringLiteral("--answers"),
                           example("mcp-weather") + QStringLiteral("/answers.json")}
            << QByteArray("Booked Casa do Alentejo for 4 at 20:00 (by the window).\n")
            << QByteArray("weather__book_table");
    }

    void exampleRunsComplete()
    {
        QFETCH(QString, project);
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, output);
        QFETCH(QByteArray, tool);
        // Keep the examples' folders clean: the journal goes to a copy.
        QTemporaryDir copy;
        QVERIFY(
            QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), project + QStringLiteral("/."), copy.path()})
            == 0);
        const CommandResult result = toolstudio(QStringList{QStringLiteral("run"), copy.path()} + extra);
        QVERIFY2(result.exitCode == 0, result.out + result.err);
        QVERIFY2(result.out.contains(output), result.out.constData());
        QVERIFY2(result.out.contains("[step 1] " + tool + " succeeded (attempts 1/"), result.out.constData());
        QCOMPARE(result.out.count("[step "), 1);
        QVERIFY(result.out.contains(" completed in "));
    }

    // A script may bind SERVER__TOOL before the server runs; a name the server does not
    // list is said once it has listed its tools, and a call of it is unknown_tool.
    void mcpBindingTheServerDoesNotList()
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"), example("mcp-weather") + QStringLiteral("/."), copy.path()})
                == 0);
        QFile manifest(copy.filePath(QStringLiteral("toolstudio.json")));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QByteArray text = manifest.readAll();
        manifest.close();
        QVERIFY(text.contains("[\"weather__forecast\"]"));
        text.replace("[\"weather__forecast\"]", "[\"weather__forcast\"]");
        writeFile(manifest.fileName(), text);
        writeFile(copy.filePath(QStringLiteral("scripts/main.py")),
                  "from toolstudio import tools, ToolError\n"
                  "try:\n    tools['weather__forcast'](city='Oslo')\n"
                  "except ToolError as e:\n    print(e.code, e.message)\n");
        const CommandResult result = toolstudio({QStringLiteral("run"), copy.path(), QStringLiteral("--trust")});
        QVERIFY2(result.exitCode == 0, result.out + result.err);
        QVERIFY2(result.err.contains("script 'main' binds 'weather__forcast', which MCP server 'weather' does not "
                                     "list; calls of it fail as unknown_tool"),
                 result.err.constData());
        QVERIFY2(result.out.contains("unknown_tool "), result.out.constData());
    }

    void manualCallWithoutAnswerFails()
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"), example("render-report") + QStringLiteral("/."), copy.path()})
                == 0);
        const CommandResult result = toolstudio({QStringLiteral("run"), copy.path()});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("no answer for render_report (call #1): give one with --answers FILE"),
                 result.err.constData());
    }

    void answerBySequenceWithError()
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"), example("render-report") + QStringLiteral("/."), copy.path()})
                == 0);
        writeFile(copy.filePath(QStringLiteral("answers.json")),
                  "{\"#1\": {\"error\": \"printer on fire\", \"retryable\": false}}");
        const CommandResult result = toolstudio({QStringLiteral("run"), copy.path(), QStringLiteral("--answers"),
                                                 copy.filePath(QStringLiteral("answers.json"))});
        QCOMPARE(result.exitCode, 1); // the script does not catch the ToolError
        QVERIFY2(result.out.contains("[step 1] render_report failed"), result.out.constData());
        QVERIFY2(result.out.contains("printer on fire"), result.out.constData());
        // The script's own frame, then the error; none of the shim's frames.
        QVERIFY2(result.err.contains("/main.py\", line 4, in <module>\n"
                                     "    url = tools.render_report(topic=\"Q3 seat growth\")\n"),
                 result.err.constData());
        QVERIFY2(result.err.endsWith("\nToolError: tool_failed: printer on fire\n"), result.err.constData());
        QVERIFY2(!result.err.contains("toolstudio/__init__.py"), result.err.constData());
    }

    // An answer the output_schema refuses fails the call with the reason; the run used
    // to wait forever for an answer nobody else could give.
    void refusedAnswerFailsTheCall()
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"), example("render-report") + QStringLiteral("/."), copy.path()})
                == 0);
        writeFile(copy.filePath(QStringLiteral("answers.json")), "{\"render_report\": {\"result\": \"not a url\"}}");
        const CommandResult result = toolstudio({QStringLiteral("run"), copy.path(), QStringLiteral("--answers"),
                                                 copy.filePath(QStringLiteral("answers.json"))});
        QCOMPARE(result.exitCode, 1); // the script does not catch the ToolError
        const QByteArray reason
            = "the result does not match output_schema at (root): does not match the pattern ^https?://[^\\s]+$";
        QVERIFY2(result.err.contains("toolstudio run: answer refused: " + reason), result.err.constData());
        QVERIFY2(result.out.contains("[step 1] render_report failed"), result.out.constData());
        QVERIFY2(result.out.contains("the answer for render_report (call #1) in "), result.out.constData());
        QVERIFY2(result.out.contains("answers.json was refused: " + reason), result.out.constData());
    }

    void jsonLines()
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"), example("exchange-rate") + QStringLiteral("/."), copy.path()})
                == 0);
        const CommandResult result = toolstudio({QStringLiteral("run"), copy.path(), QStringLiteral("--json")});
        QCOMPARE(result.exitCode, 0);
        const QList<QByteArray> lines = result.out.trimmed().split('\n');
        QCOMPARE(dumped(nlohmann::json::parse(lines.first().toStdString())["event"]), QByteArray("\"run\""));
        const nlohmann::json end = nlohmann::json::parse(lines.last().toStdString());
        QCOMPARE(dumped(end["event"]), QByteArray("\"end\""));
        QCOMPARE(dumped(end["status"]), QByteArray("\"completed\""));
        bool sawStep = false;
        for (const QByteArray &line : lines) {
            const nlohmann::json event = nlohmann::json::parse(line.toStdString());
            if (event["event"] == "step") {
                sawStep = true;
                QCOMPARE(dumped(event["result"]), dumped(nlohmann::json(0.92)));
                QCOMPARE(dumped(event["status"]), QByteArray("\"succeeded\""));
            }
        }
        QVERIFY(sawStep);
    }

    void badInputExitsTwoAndWritesNothing_data()
    {
        QTest::addColumn<QByteArray>("manifest");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing folder") << QByteArray() << QStringLiteral("does-not-exist");
        QTest::newRow("malformed json") << QByteArray("{\n  \"name\": \"x\",\n  \"tools\": [,]\n}\n")
                                        << QStringLiteral("toolstudio.json:3:13: ");
        QTest::newRow("invalid tool name") << QByteArray(
            R"({"name":"x","tools":[{"name":"-lives","input_schema":{"type":"object"},"handler":{"kind":"manual"}}]})")
                                           << QStringLiteral("-lives");
    }

    void badInputExitsTwoAndWritesNothing()
    {
        QFETCH(QByteArray, manifest);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString project = dir.filePath(QStringLiteral("does-not-exist"));
        if (!manifest.isEmpty()) {
            project = dir.path();
            writeFile(dir.filePath(QStringLiteral("toolstudio.json")), manifest);
        }
        const CommandResult result = toolstudio({QStringLiteral("run"), project});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(expected.toUtf8()), result.err.constData());
        QCOMPARE(result.err.count('\n'), 1); // one line
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral(".toolstudio"))));
    }

    // SCRIPT may be a manifest script name as well as a path; a name that is neither
    // says where it looked and which names the manifest has (newcomer: `toolstudio run
    // . par` failed "script not found: /tmp/x/par").
    // Issue 17: a step line never splits a line of the script's output. The script
    // prints a partial line, calls a tool, then ends the line; its last line has no
    // newline. The step's lines wait for the end of the open line; the last line is
    // ended at the run's end. In --json every record is whole and no step record comes
    // while a line is open.
    void stepLinesGoBetweenWholeLines()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                  "from toolstudio import tools\n"
                  "print('A: before call 1', end='', flush=True)\n"
                  "tools.echo(n=1)\n"
                  "print(' after', flush=True)\n"
                  "print('B: last line', end='', flush=True)\n");
        writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                  R"({"name": "lines", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "tools": [{"name": "echo", "input_schema": {"type": "object"},
             "handler": {"kind": "mock", "sequence": [{"result": {"ok": true}}]}}]})");
        const CommandResult text = toolstudio({QStringLiteral("run"), dir.path()});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QString out = QString::fromUtf8(text.out);
        out.replace(QRegularExpression(QStringLiteral("run [0-9A-Za-z-]+")), QStringLiteral("run ID"));
        out.replace(QRegularExpression(QStringLiteral("\\(attempts 1/[0-9]+, [0-9]+ ms\\)")),
                    QStringLiteral("(attempts 1/N, T ms)"));
        out.replace(QRegularExpression(QStringLiteral("completed in [^(]*\\(")), QStringLiteral("completed ("));
        QCOMPARE(out,
                 QStringLiteral("run ID: main.py\n"
                                "A: before call 1 after\n"
                                "[step 1] echo succeeded (attempts 1/N, T ms)\n"
                                "         args:   {\"n\":1}\n"
                                "         result: {\"ok\":true}\n"
                                "B: last line\n"
                                "run ID completed (1 step)\n"));

        const CommandResult json = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        QStringList events;
        for (const QByteArray &record : json.out.trimmed().split('\n')) {
            const nlohmann::json event = nlohmann::json::parse(record.toStdString()); // each record whole
            const std::string kind = event["event"];
            events << QString::fromStdString(kind == "output"     ? "output " + event["text"].dump()
                                                 : kind == "step" ? "step " + event["status"].get<std::string>()
                                                                  : kind);
        }
        QCOMPARE(events.join(QLatin1Char('|')),
                 QStringLiteral("run|output \"A: before call 1\"|output \" after\\n\"|step succeeded|"
                                "output \"B: last line\"|end"));
    }

    void scriptByManifestName()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("scripts/main.py")), "print('main ran')\n");
        writeFile(dir.filePath(QStringLiteral("scripts/par.py")), "print('par ran')\n");
        writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                  "{\"name\": \"names\", \"default_script\": \"main\", \"tools\": [],\n"
                  " \"scripts\": [{\"name\": \"main\", \"path\": \"scripts/main.py\"},"
                  " {\"name\": \"par\", \"path\": \"scripts/par.py\"}]}\n");
        const CommandResult byName = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("par")});
        QCOMPARE(byName.exitCode, 0);
        QVERIFY2(byName.out.contains(": par.py\n"), byName.out.constData());
        QVERIFY2(byName.out.contains("par ran\n"), byName.out.constData());
        const CommandResult byPath = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("scripts/par.py")});
        QCOMPARE(byPath.exitCode, 0);
        QVERIFY2(byPath.out.contains("par ran\n"), byPath.out.constData());

        const CommandResult neither = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("parr")});
        QCOMPARE(neither.exitCode, 2);
        QCOMPARE(
            QString::fromUtf8(neither.err),
            QStringLiteral("toolstudio run: script not found: 'parr' is neither a file (looked for %1 and %2) "
                           "nor a script name of the manifest (scripts: main, par)\n")
                .arg(QDir::current().absoluteFilePath(QStringLiteral("parr")), dir.filePath(QStringLiteral("parr"))));
        QCOMPARE(neither.out, QByteArray());
    }

    void malformedAnswersFile()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("answers.json")), "{\"render_report\": }");
        QString error;
        QVERIFY(!AnswerFile::load(dir.filePath(QStringLiteral("answers.json")), &error));
        QVERIFY2(error.startsWith(dir.filePath(QStringLiteral("answers.json:1:19: "))), qPrintable(error));
    }

    void answerFileShapes()
    {
        QString error;
        auto answers = AnswerFile::parse(
            "{\"a\": 1, \"b\": {\"result\": {\"x\": 2}}, \"c\": {\"error\": \"no\", \"retryable\": true}, \"#3\": null}",
            QStringLiteral("answers.json"), &error);
        QVERIFY2(answers, qPrintable(error));
        QCOMPARE(dumped(answers->answerFor(1, QStringLiteral("a"))->result), dumped(nlohmann::json(1)));
        QCOMPARE(dumped(answers->answerFor(1, QStringLiteral("b"))->result), dumped(nlohmann::json{{"x", 2}}));
        const auto c = answers->answerFor(2, QStringLiteral("c"));
        QVERIFY(c->isError);
        QCOMPARE(c->message, QStringLiteral("no"));
        QVERIFY(c->retryable);
        QCOMPARE(dumped(answers->answerFor(3, QStringLiteral("a"))->result),
                 dumped(nlohmann::json(nullptr))); // #3 wins
        QVERIFY(!answers->answerFor(4, QStringLiteral("zzz")));
        QCOMPARE(answers->unusedKeys(), QStringList()); // "#3" and "a" were both used above
        auto fresh = AnswerFile::parse("{\"a\": 1, \"#2\": 2, \"b\": 3}", QStringLiteral("answers.json"), &error);
        QVERIFY(fresh->answerFor(2, QStringLiteral("a"))); // "#2" wins, "a" stays unused
        QCOMPARE(fresh->unusedKeys(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    }

    // Keys of --answers FILE that match no manual call are named on stderr after the
    // run; the exit status is the run's.
    void unusedAnswerKeysWarned()
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"), example("render-report") + QStringLiteral("/."), copy.path()})
                == 0);
        const QString answers = copy.filePath(QStringLiteral("answers.json"));
        writeFile(answers, "{\"render_report\": \"https://example.org/r\", \"render_reprot\": \"x\", \"#7\": 1}");
        const CommandResult result
            = toolstudio({QStringLiteral("run"), copy.path(), QStringLiteral("--answers"), answers});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("[step 1] render_report succeeded"), result.out.constData());
        const QByteArray prefix = "toolstudio run: warning: " + answers.toUtf8() + ": key ";
        const QByteArray tail = " matched no manual call of this run (keys are tool names, or #N for the N-th call)\n";
        QVERIFY2(result.err.contains(prefix + "\"#7\"" + tail), result.err.constData());
        QVERIFY2(result.err.contains(prefix + "\"render_reprot\"" + tail), result.err.constData());
        QCOMPARE(result.err.count("warning:"), 2); // the key that was used is not named

        // All keys used: no warning.
        writeFile(answers, "{\"render_report\": \"https://example.org/r\"}");
        const CommandResult clean
            = toolstudio({QStringLiteral("run"), copy.path(), QStringLiteral("--answers"), answers});
        QCOMPARE(clean.exitCode, 0);
        QVERIFY2(!clean.err.contains("warning"), clean.err.constData());
    }

    // Every command's usage line starts with "usage: toolstudio COMMAND", on bad usage
    // (stderr, exit 2) and on --help (stdout, exit 0).
    void usageNamesTheCommand_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("usage");
        QTest::newRow("run, no project") << QStringList{QStringLiteral("run")}
                                         << QByteArray("usage: toolstudio run [options] PROJECT [SCRIPT]\n");
        QTest::newRow("run, unknown option")
            << QStringList{QStringLiteral("run"), QStringLiteral("--bogus"), QStringLiteral("x")}
            << QByteArray("usage: toolstudio run [options] PROJECT [SCRIPT]\n");
        QTest::newRow("runs, two projects")
            << QStringList{QStringLiteral("runs"), QStringLiteral("a"), QStringLiteral("b")}
            << QByteArray("usage: toolstudio runs [options] PROJECT\n");
        QTest::newRow("resume, no run") << QStringList{QStringLiteral("resume"), QStringLiteral("a")}
                                        << QByteArray("usage: toolstudio resume [options] PROJECT RUN\n");
        QTest::newRow("trace, unknown command")
            << QStringList{QStringLiteral("trace"), QStringLiteral("frob"), QStringLiteral("r")}
            << QByteArray("usage: toolstudio trace [options] export PROJECT RUN\n");
        QTest::newRow("tools, nothing") << QStringList{QStringLiteral("tools")}
                                        << QByteArray("usage: toolstudio tools list PROJECT\n");
    }

    void usageNamesTheCommand()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, usage);
        const CommandResult result = toolstudio(arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(usage), result.err.constData());
        QVERIFY2(!result.err.contains("Usage:"), result.err.constData());
        QVERIFY2(result.out.isEmpty(), result.out.constData());
    }

    void helpNamesTheCommand()
    {
        const CommandResult result = toolstudio({QStringLiteral("run"), QStringLiteral("--help")});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.startsWith("usage: toolstudio run [options] PROJECT [SCRIPT]\n"), result.out.constData());
    }

    void unknownToolsCommand()
    {
        const CommandResult result
            = toolstudio({QStringLiteral("tools"), QStringLiteral("frobnicate"), example("exchange-rate")});
        QCOMPARE(result.exitCode, 2); // as every usage error
        QVERIFY2(result.err.startsWith("toolstudio tools: unknown tools command 'frobnicate'\n"
                                       "usage: toolstudio tools list PROJECT\n"),
                 result.err.constData());
        for (const char *command : {"export", "import", "secret", "bundle", "typings"})
            QVERIFY2(result.err.contains(QByteArray("       toolstudio tools ") + command + ' '), command);
        QVERIFY(result.out.isEmpty());
    }

    // `toolstudio runs` on a project never run says so and creates no journal.
    void runsOfAProjectNeverRun()
    {
        QTemporaryDir copy;
        QVERIFY(QProcess::execute(QStringLiteral("cp"),
                                  {QStringLiteral("-r"), example("exchange-rate") + QStringLiteral("/."), copy.path()})
                == 0);
        QDir(copy.filePath(QStringLiteral(".toolstudio"))).removeRecursively(); // in case the example was run in place
        const CommandResult result = toolstudio({QStringLiteral("runs"), copy.path()});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out,
                 QByteArray("no runs yet in " + copy.path().toUtf8() + " (run one with: toolstudio run "
                            + copy.path().toUtf8() + ")\n"));
        QVERIFY2(result.err.isEmpty(), result.err.constData());
        QVERIFY(!QFileInfo::exists(copy.filePath(QStringLiteral(".toolstudio"))));
        const CommandResult json = toolstudio({QStringLiteral("runs"), copy.path(), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(json.out, QByteArray()); // no runs = no lines
        QVERIFY(!QFileInfo::exists(copy.filePath(QStringLiteral(".toolstudio"))));
    }
};

QTEST_GUILESS_MAIN(TestRunCommand)
#include "tst_runcommand.moc"
