// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Python tools, issue 17 §2: schema derivation that matches what people mean —
// Optional and strict-mode nulls, pydantic Field() defaults, warnings on the tool, the
// NonRetryableError chain, arguments the method does not take, and Open WebUI imports.
// The tool files are in tests/data/python-derive/ (written in the community's style).
#include "bridgemessage.h"
#include "clirunner.h"
#include "engine/handlers/pythonhandler.h"
#include "engine/stepengine.h"
#include "exchange/toolexport.h"
#include "handlerattempt.h"
#include "project/project.h"
#include "project/schemavalidator.h"
#include "python/toolworker.h"
#include "run/runcontroller.h"
#include "testfiles.h"
#include "trustedproject.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

using json = nlohmann::json;

QString dataDir()
{
    return qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/python-derive");
}

/// A copy of tests/data/python-derive in `target`.
void copyProject(const QString &target)
{
    QDirIterator it(dataDir(), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        writeFile(target + path.mid(dataDir().size()), file.readAll());
    }
}

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestPythonDerive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    /// One attempt through PythonHandler; waits for its outcome.
    HandlerOutcome attempt(const QString &tool, const json &args, const QString &projectDir = QString())
    {
        PythonHandler handler;
        return runHandlerAttempt(handler, projectDir.isEmpty() ? m_dir.path() : projectDir, tool, args);
    }

    std::optional<Project> load()
    {
        ProjectError error;
        auto project = loadTrusted(m_dir.path(), &error);
        if (!project)
            qWarning() << error.toString();
        return project;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!ToolWorker::pythonFor(QDir::tempPath()).isEmpty(), "python3 is needed");
        QVERIFY(m_dir.isValid());
        copyProject(m_dir.path());
    }

    void everyFileLoads()
    {
        const auto project = load();
        QVERIFY(project);
        QCOMPARE(project->problems().join(QLatin1Char('\n')), QString());
        QStringList names;
        for (const Tool &tool : project->tools)
            names << tool.name;
        QCOMPARE(
            names,
            QStringLiteral("add_note note_author search search_any ship tree upload cleanup").split(QLatin1Char(' ')));
    }

    /// `x: str = Field(..., description=…)` is required, `Field(default=3)` defaults to 3,
    /// `Field(default_factory=list)` to a new list; the method gets values, never a FieldInfo.
    void fieldDefaults()
    {
        const auto project = load();
        QVERIFY(project);
        QCOMPARE(QByteArray::fromStdString(project->tool(QStringLiteral("search"))->inputSchema.dump()),
                 QByteArray(R"({"additionalProperties":false,"properties":{"n":{"default":3,"description":)"
                            R"("How many results","type":"integer"},"q":{"description":"What to look for",)"
                            R"("type":"string"},"tags":{"items":{"type":"string"},"type":"array"}},)"
                            R"("required":["q"],"type":"object"})"));
        HandlerOutcome outcome = attempt(QStringLiteral("search"), json{{"q", "tea"}});
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()),
                 QByteArray(R"({"n":3,"q":"tea","tags":[],"types":["str","int","list"]})"));
        outcome = attempt(QStringLiteral("search"), json{{"q", "tea"}, {"n", nullptr}, {"tags", {"green"}}});
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()),
                 QByteArray(R"({"n":3,"q":"tea","tags":["green"],"types":["str","int","list"]})"));
        outcome = attempt(QStringLiteral("search"), json::object());
        QCOMPARE(outcome.error.code, ErrorCode::InvalidArguments);
        QCOMPARE(text(outcome.error.message), QStringLiteral("missing required argument 'q'"));
    }

    /// Optional[Model] takes null; OpenAI strict mode (every property required and
    /// nullable) round-trips: its nulls pass the input schema and the method gets its
    /// default (None where that is the default).
    void optionalModelAndStrictNulls()
    {
        const auto project = load();
        QVERIFY(project);
        const Tool *ship = project->tool(QStringLiteral("ship"));
        QVERIFY(ship);
        QCOMPARE(QByteArray::fromStdString(ship->inputSchema["properties"]["address"]["anyOf"][1].dump()),
                 QByteArray(R"({"type":"null"})"));
        QVERIFY(!ship->inputSchema.contains("required"));
        QString reason;
        const auto exported = ToolExport::exportTool(*ship, ToolExport::Format::OpenAIChat, true, &reason);
        QVERIFY2(exported, qPrintable(reason));
        QCOMPARE(QByteArray::fromStdString((*exported)["function"]["parameters"]["required"].dump()),
                 QByteArray(R"(["address","note"])"));
        // What a strict model sends for "left out":
        const json strictArgs{{"address", nullptr}, {"note", nullptr}};
        const auto validator = SchemaValidator::compile(ship->inputSchema);
        QVERIFY(validator);
        const auto failure = validator->validate(strictArgs);
        QVERIFY2(!failure, failure ? qPrintable(failure->pointer + QLatin1Char(' ') + failure->message) : "");
        HandlerOutcome outcome = attempt(QStringLiteral("ship"), strictArgs);
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"pickup (none)\""));
        outcome = attempt(QStringLiteral("ship"), json{{"address", {{"street", "Hauptstr. 1"}}}});
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"Hauptstr. 1, Berlin\""));
    }

    /// A strict-mode null for a defaulted parameter that is not Optional (`n: int =
    /// Field(default=3)`, `tags: list[str] = Field(default_factory=list)`) is left out at
    /// admission (docs/steps.md "A null for a parameter left out"): the method gets its
    /// defaults; a null for the required `q` is still refused, naming it.
    void strictNullForADefaultedParameter()
    {
        const auto project = load();
        QVERIFY(project);
        StepEngine engine(*project, QStringLiteral("run-1"), nullptr, {});
        std::map<std::string, json> replies;
        connect(&engine, &StepEngine::replyReady, this,
                [&](const std::string &id, const std::string &line) { replies[id] = json::parse(line); });
        BridgeCall call;
        call.id = "c1";
        call.tool = "search";
        call.args = json{{"q", "tea"}, {"n", nullptr}, {"tags", nullptr}};
        engine.submitCall(call);
        QTRY_VERIFY_WITH_TIMEOUT(replies.count("c1"), 20000);
        QCOMPARE(QByteArray::fromStdString(replies["c1"].dump()),
                 QByteArray(R"({"id":"c1","type":"result","value":{"n":3,"q":"tea","tags":[],)"
                            R"("types":["str","int","list"]}})"));
        call.id = "c2";
        call.args = json{{"q", nullptr}};
        engine.submitCall(call);
        QVERIFY(replies.count("c2"));
        QCOMPARE(text(replies["c2"]["error"].value("message", "")),
                 QStringLiteral("invalid arguments for 'search' at /q: expected string, got null"));
    }

    /// A recursive model cut off, untyped list/dict parameters and a missing docstring
    /// are warnings on the tool (Tool::warnings, `tools list`), which still loads.
    void warningsOnTheTool()
    {
        const auto project = load();
        QVERIFY(project);
        const QStringList expected{
            QStringLiteral("field 'folders' of Folder: the recursive model Folder is cut off here (schemas are "
                           "inlined without $ref): any object is accepted at that depth and nothing in it is checked"),
            QStringLiteral("parameter 'extra': an untyped list: its items can be any JSON value (write list[T] to "
                           "say which)"),
            QStringLiteral("parameter 'meta': an untyped dict: any JSON object is accepted (write dict[str, T] or a "
                           "model)"),
            QStringLiteral("no docstring: the model gets no description of this tool (write one; :param x: or "
                           "Args: lines describe the parameters)")};
        QCOMPARE(project->tool(QStringLiteral("tree"))->warnings, expected);
        QCOMPARE(project->tool(QStringLiteral("search"))->warnings, QStringList());

        if (toolstudioBinary().isEmpty() || !QFileInfo::exists(toolstudioBinary()))
            QSKIP("toolstudio is not built (TOOLSTUDIO_BINARY)");
        const CommandResult listed = toolstudio({QStringLiteral("tools"), QStringLiteral("list"), m_dir.path()});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.contains("tree\tpython\ttools/shapes.py\n"), listed.out.constData());
        QByteArray lines;
        for (const QString &warning : expected)
            lines += "warning: tool 'tree' (tools/shapes.py): " + warning.toUtf8() + '\n';
        QCOMPARE(listed.err, lines);
    }

    /// `raise X from NonRetryableError(..)`, or X raised while handling one: not
    /// retried, and the message and trace hold the whole chain.
    void nonRetryableAnywhereInTheChain()
    {
        HandlerOutcome outcome = attempt(QStringLiteral("upload"), json::object());
        QCOMPARE(text(outcome.error.message),
                 QStringLiteral("RuntimeError: upload failed; caused by NonRetryableError: quota exceeded"));
        QCOMPARE(outcome.error.retryable, false);
        QVERIFY2(outcome.output.contains("NonRetryableError: quota exceeded\n\nThe above exception was the direct "
                                         "cause of the following exception:\n\n"),
                 outcome.output.constData());
        outcome = attempt(QStringLiteral("cleanup"), json::object());
        QCOMPARE(text(outcome.error.message),
                 QStringLiteral("OSError: cannot remove the partial file; caused by NonRetryableError: disk full"));
        QCOMPARE(outcome.error.retryable, false);
    }

    /// A script's argument the method does not take, and an injected parameter it
    /// passes, are invalid_arguments naming it (the engine's input check, from the
    /// schema's additionalProperties: false; the worker's for a **kwargs method).
    void argumentsTheMethodDoesNotTake()
    {
        const auto project = load();
        QVERIFY(project);
        RunController controller;
        QByteArray out;
        connect(&controller, &RunController::outputReceived, this,
                [&out](int, const QByteArray &chunk) { out += chunk; });
        QSignalSpy finished(&controller, &RunController::finished);
        QString startError;
        QVERIFY2(controller.start(*project, QString(), &startError), qPrintable(startError));
        QVERIFY(finished.wait(60000));
        QCOMPARE(controller.record().status, RunStatus::Completed);
        const QByteArray expected(
            "extra invalid_arguments invalid arguments for 'search' at /colour: property is not "
            "allowed by the schema\n"
            "injected invalid_arguments invalid arguments for 'search' at /__user__: property is not "
            "allowed by the schema\n"
            "injected-kwargs invalid_arguments '__event_emitter__': set by the studio (an injected "
            "parameter, docs/python-tools.md); a call cannot pass it\n"
            "kwargs {'options': {'colour': 'red'}, 'q': 'x'}\n"
            "strict pickup (none)\n");
        QCOMPARE(out.split('\n'), expected.split('\n')); // line by line: a failure shows the line
    }

    /// A community file importing open_webui.* and fastapi loads; what does not use them
    /// runs; what does fails clearly, naming the feature, without retries.
    void openWebUIImports()
    {
        HandlerOutcome outcome = attempt(QStringLiteral("add_note"), json{{"text", "buy tea"}});
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"note: buy tea\""));
        QCOMPARE(outcome.output,
                 QByteArray(R"([event] {"type": "status", "data": {"description": "saving", "done": true}})"
                            "\n"));
        outcome = attempt(QStringLiteral("note_author"), json::object());
        QCOMPARE(text(outcome.error.message),
                 QStringLiteral("OpenWebUIMissing: open_webui.models.users.Users.get_user_by_id is part of Open "
                                "WebUI's user accounts, which Tool Studio does not provide (the tool file imports "
                                "it from open_webui); this method cannot run outside Open WebUI unless the real "
                                "package is installed into the project's venv"));
        QCOMPARE(outcome.error.retryable, false);
    }

    /// The stand-ins come last: a module the worker's Python can import (here from a
    /// folder the tool file puts on sys.path) wins over them.
    void installedModuleWinsOverStandIn()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), "{\"name\": \"t\"}");
        writeFile(dir.path() + QStringLiteral("/vendor/fastapi/__init__.py"), "WHO = 'the real one'\n");
        writeFile(dir.path() + QStringLiteral("/tools/v.py"),
                  "import os, sys\n"
                  "sys.path.append(os.path.join(os.path.dirname(__file__), '..', 'vendor'))\n"
                  "import fastapi\n"
                  "class Tools:\n"
                  "    def which(self) -> str:\n"
                  "        \"\"\"Which fastapi.\"\"\"\n"
                  "        return fastapi.WHO\n");
        trustProject(dir.path());
        const HandlerOutcome outcome = attempt(QStringLiteral("which"), json::object(), dir.path());
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"the real one\""));
    }

    /// What a tool hands back that the worker cannot turn into a reply — an Open WebUI
    /// stand-in, a list that holds itself, an exception whose message raises, a lone
    /// surrogate printed — fails that call at once; each left the call without a reply
    /// until its timeout.
    void outcomesWithoutAJsonFormFailTheCall()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), "{\"name\": \"t\"}");
        writeFile(dir.path() + QStringLiteral("/tools/odd.py"),
                  "from open_webui.models.users import Users\n"
                  "class Tools:\n"
                  "    def stand_in(self) -> str:\n"
                  "        \"\"\"A stand-in.\"\"\"\n"
                  "        return Users.get_user_by_id\n"
                  "    def holds_itself(self) -> list:\n"
                  "        \"\"\"A list in itself.\"\"\"\n"
                  "        a = []\n"
                  "        a.append(a)\n"
                  "        return a\n"
                  "    def bad_message(self) -> str:\n"
                  "        \"\"\"An exception without a text.\"\"\"\n"
                  "        class E(Exception):\n"
                  "            def __str__(self):\n"
                  "                raise ValueError('no text')\n"
                  "        raise E()\n"
                  "    def surrogate(self) -> str:\n"
                  "        \"\"\"Prints a lone surrogate.\"\"\"\n"
                  "        print('\\ud800')\n"
                  "        return 'ok'\n");
        trustProject(dir.path());
        HandlerOutcome outcome = attempt(QStringLiteral("stand_in"), json::object(), dir.path());
        QVERIFY2(text(outcome.error.message)
                     .startsWith(QStringLiteral("stand_in returned a value that has no JSON form (OpenWebUIMissing: "
                                                "open_webui.models.users.Users.get_user_by_id.model_dump is part of "
                                                "Open WebUI's user accounts")),
                 outcome.error.message.c_str());
        QCOMPARE(outcome.error.retryable, false);
        outcome = attempt(QStringLiteral("holds_itself"), json::object(), dir.path());
        QCOMPARE(text(outcome.error.message),
                 QStringLiteral("holds_itself returned a value that has no JSON form (RecursionError: maximum "
                                "recursion depth exceeded while calling a Python object); return str, int, float, "
                                "bool, None, a list or a dict"));
        outcome = attempt(QStringLiteral("bad_message"), json::object(), dir.path());
        QCOMPARE(text(outcome.error.message),
                 QStringLiteral("the tool worker could not report the call's outcome: ValueError"));
        QCOMPARE(outcome.error.retryable, false);
        outcome = attempt(QStringLiteral("surrogate"), json::object(), dir.path());
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(outcome.output, QByteArray("?\n"));
    }
};

QTEST_GUILESS_MAIN(TestPythonDerive)
#include "tst_pythonderive.moc"
