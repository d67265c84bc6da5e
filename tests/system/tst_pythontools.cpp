// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Python tools (issue 6): schema derivation rows, the tool worker and its handler,
// secrets, and tool definition export. Row data lives in tests/data/python-tools/.
#include "clirunner.h"
#include "engine/handlers/commandhandler.h"
#include "engine/handlers/pythonhandler.h"
#include "exchange/bundle.h"
#include "exchange/toolexport.h"
#include "exchange/toolimport.h"
#include "exchange/typings.h"
#include "handlerattempt.h"
#include "project/project.h"
#include "project/projectwriter.h"
#include "python/secrets.h"
#include "python/toolworker.h"
#include "python/valvestore.h"
#include "run/runcontroller.h"
#include "trustedproject.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

namespace {

using json = nlohmann::json;

QString dataDir()
{
    return qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/tests/data/python-tools");
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qWarning() << "cannot read" << path;
    return file.readAll();
}

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qWarning() << "cannot write" << path;
    file.write(data);
}

template<typename J>
J readJson(const QString &path)
{
    const QByteArray data = readAll(path);
    return J::parse(data.constBegin(), data.constEnd());
}

/// Copies tests/data/python-tools/worker into `target`.
void copyWorkerProject(const QString &target)
{
    const QString source = dataDir() + QStringLiteral("/worker");
    QDirIterator it(source, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        writeFile(target + file.mid(source.size()), readAll(file));
    }
}

/// Writes a zip with python3's zipfile (entry names as given, even hostile ones):
/// `entries` is [[name, text]] or [[name, size]] (that many 'x' bytes).
bool makeZip(const QString &path, const json &entries)
{
    QProcess python;
    python.start(QStringLiteral("python3"),
                 {QStringLiteral("-c"),
                  QStringLiteral("import json, sys, zipfile\n"
                                 "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                                 "    for name, body in json.loads(sys.argv[2]):\n"
                                 "        z.writestr(name, 'x' * body if isinstance(body, int) else body)\n"),
                  path, QString::fromStdString(entries.dump())});
    return python.waitForFinished(20000) && python.exitCode() == 0;
}

/// Every entry name of a zip, then every entry's bytes (python3's zipfile).
QByteArray zipContents(const QString &path)
{
    QProcess python;
    python.start(QStringLiteral("python3"),
                 {QStringLiteral("-c"),
                  QStringLiteral("import sys, zipfile\n"
                                 "z = zipfile.ZipFile(sys.argv[1])\n"
                                 "print(' '.join(z.namelist()), flush=True)\n"
                                 "for n in z.namelist(): sys.stdout.buffer.write(z.read(n))\n"),
                  path});
    python.waitForFinished(20000);
    return python.readAllStandardOutput();
}

const char *EmptyManifest = "{\"name\": \"t\"}";

} // namespace

class TestPythonTools : public QObject
{
    Q_OBJECT

    /// One attempt through PythonHandler; waits for its outcome.
    HandlerOutcome attempt(const QString &projectDir, const QString &tool, const json &args,
                           const QString &key = QStringLiteral("run-1:1"), int number = 1)
    {
        PythonHandler handler;
        return runHandlerAttempt(handler, projectDir, tool, args, number, key);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!ToolWorker::pythonFor(QDir::tempPath()).isEmpty(), "python3 is needed");
    }

    // --- schema derivation: one row per rule, exact JSON -----------------------------

    void derivation_data()
    {
        QTest::addColumn<QByteArray>("code");
        QTest::addColumn<QByteArray>("expected");
        QTest::addColumn<bool>("withWarnings"); // rows about a warning compare Tool::warnings too
        const json rows = readJson<json>(dataDir() + QStringLiteral("/derivation.json"));
        for (const json &row : rows)
            QTest::newRow(row["name"].get<std::string>().c_str())
                << QByteArray::fromStdString(row["code"].get<std::string>())
                << QByteArray::fromStdString(row["expected"].dump()) << row["expected"].contains("warnings");
    }

    void derivation()
    {
        QFETCH(QByteArray, code);
        QFETCH(QByteArray, expected);
        QFETCH(bool, withWarnings);
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/t.py"),
                  readAll(dataDir() + QStringLiteral("/header.py")) + code + '\n');
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QVERIFY2(project->problems().isEmpty(), qPrintable(project->problems().join(QLatin1Char('\n'))));
        const Tool *tool = project->tool(QStringLiteral("t"));
        QVERIFY(tool);
        QCOMPARE(tool->handler, HandlerKind::Python);
        json got{{"description", tool->description.toStdString()}, {"input_schema", tool->inputSchema}};
        if (withWarnings) {
            got["warnings"] = json::array();
            for (const QString &warning : tool->warnings)
                got["warnings"].push_back(warning.toStdString());
        }
        QCOMPARE(QByteArray::fromStdString(got.dump()), expected);
    }

    void onlyPublicMethodsAreTools()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/a.py"),
                  "from pydantic import BaseModel\n"
                  "class Tools:\n"
                  "    class Valves(BaseModel):\n"
                  "        limit: int = 3\n"
                  "    def __init__(self):\n        self.valves = self.Valves()\n"
                  "    def _helper(self):\n        pass\n"
                  "    def second(self, x: int):\n        pass\n"
                  "    def first(self):\n        pass\n");
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QStringList names;
        for (const Tool &tool : project->tools)
            names << tool.name;
        QCOMPARE(names, QStringList({QStringLiteral("second"), QStringLiteral("first")}));
        QCOMPARE(project->tool(QStringLiteral("second"))->parameterOrder, QStringList{QStringLiteral("x")});
        QCOMPARE(QByteArray::fromStdString(project->pythonFiles.at(0).valves.dump()),
                 QByteArray("{\"defaults\":{\"limit\":3},\"schema\":{\"properties\":{\"limit\":{\"default\":3,"
                            "\"type\":\"integer\"}},\"type\":\"object\"}}"));
    }

    void unsupportedAnnotationFailsOnlyThatTool()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/a.py"),
                  "class Tools:\n"
                  "    def bad(self, items: set[int]):\n        pass\n"
                  "    def good(self, q: str):\n        pass\n");
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QVERIFY(project->tool(QStringLiteral("good")));
        QVERIFY(!project->tool(QStringLiteral("bad")));
        QCOMPARE(project->problems(),
                 QStringList{QStringLiteral(
                     "tools/a.py: tool 'bad' not loaded: parameter 'items': unsupported type annotation 'set[int]' "
                     "(supported: str, int, float, bool, list[T], dict[str, T], Optional[T], Union[...], Literal[...], "
                     "Enum, pydantic models, TypedDict, dataclasses, Any)")});
    }

    void missingModuleNamesModuleAndRequirements()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/a.py"),
                  "\"\"\"\ntitle: Needs a module\nrequirements: nosuchmodule-xyz>=2, requests\n\"\"\"\n"
                  "import nosuchmodule_xyz\n"
                  "class Tools:\n    def a(self):\n        pass\n");
        writeFile(dir.path() + QStringLiteral("/tools/b.py"), "class Tools:\n    def b(self):\n        pass\n");
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QVERIFY(project->tool(QStringLiteral("b")));
        QCOMPARE(project->pythonFiles.size(), std::size_t(2));
        const PythonToolFile &a = project->pythonFiles.at(0);
        QCOMPARE(QString::fromStdString(a.frontmatter.value("title", std::string())), QStringLiteral("Needs a module"));
        QVERIFY2(a.error.startsWith(
                     QStringLiteral("the module 'nosuchmodule_xyz' is not installed for the tool worker's Python")),
                 qPrintable(a.error));
        QVERIFY2(a.error.endsWith(QStringLiteral("the file's requirements: line says: nosuchmodule-xyz>=2, requests")),
                 qPrintable(a.error));
        QCOMPARE(a.missingModule, QStringLiteral("nosuchmodule_xyz"));
    }

    /// The worker names the missing module in its own field ("missing_module"), which
    /// the studio reads instead of the error text; any other load problem has none.
    void missingModuleIsAField()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/a.py"),
                  "import nosuchmodule_xyz.sub\nclass Tools:\n    def a(self):\n        pass\n");
        writeFile(dir.path() + QStringLiteral("/tools/b.py"),
                  "class Tools:\n    def b(self) -> int\n        return 1\n");
        writeFile(dir.path() + QStringLiteral("/tools/c.py"),
                  "raise ImportError(\"the module 'fake' is not installed\")\nclass Tools:\n    pass\n");
        QString reason;
        const auto files = ToolWorker::describeSync(dir.path(), 20000, &reason);
        QVERIFY2(files, qPrintable(reason));
        QCOMPARE(files->size(), std::size_t(3));
        QCOMPARE(files->at(0).value("file", std::string()), std::string("tools/a.py"));
        QCOMPARE(files->at(0).value("missing_module", std::string("(absent)")), std::string("nosuchmodule_xyz"));
        QCOMPARE(files->at(1).value("error", std::string()), std::string("syntax error at line 2: expected ':'"));
        QVERIFY(!files->at(1).contains("missing_module"));
        QVERIFY(!files->at(2).contains("missing_module"));

        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->pythonFiles.at(0).missingModule, QStringLiteral("nosuchmodule_xyz"));
        QCOMPARE(project->pythonFiles.at(1).missingModule, QString());
        QVERIFY(project->pythonFiles.at(2).error.contains(QStringLiteral("the module 'fake' is not installed")));
        QCOMPARE(project->pythonFiles.at(2).missingModule, QString());
    }

    void duplicateNamesAreAnErrorAtLoad()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                  "{\"tools\": [{\"name\": \"lookup\", \"handler\": {\"kind\": \"manual\"}}]}");
        writeFile(dir.path() + QStringLiteral("/tools/a.py"), "class Tools:\n    def lookup(self):\n        pass\n");
        ProjectError error;
        QVERIFY(!loadTrusted(dir.path(), &error));
        QCOMPARE(error.message,
                 QStringLiteral("tool 'lookup': declared twice (toolstudio.json and tools/a.py; "
                                "tool names must be unique)"));
    }

    /// Project::loadManifest (the window's two-phase load): Python files listed as
    /// loading, then the description of describePython(), reused while they do not change.
    void twoPhaseLoadingReusesTheDescription()
    {
        QTemporaryDir dir;
        const QString manifest = dir.path() + QStringLiteral("/toolstudio.json");
        writeFile(manifest,
                  "{\"name\": \"one\", \"scripts\": [{\"path\": \"scripts/main.py\", "
                  "\"tools\": [\"lookup\"]}], \"python_tools\": {\"lookup\": {\"tags\": [\"x\"]}}}");
        writeFile(dir.path() + QStringLiteral("/scripts/main.py"), "pass\n");
        writeFile(dir.path() + QStringLiteral("/tools/a.py"), "class Tools:\n    def lookup(self):\n        pass\n");
        trustProject(dir.path());
        ProjectError error;
        const auto loading = Project::loadManifest(dir.path(), &error, nullptr);
        QVERIFY2(loading, qPrintable(error.toString()));
        QVERIFY(loading->pythonLoading);
        QVERIFY(!loading->tool(QStringLiteral("lookup")));
        // Listed as loading, which is not a load problem (the Project dock says it apart).
        QCOMPARE(loading->pythonFiles.size(), std::size_t(1));
        QCOMPARE(loading->pythonFiles.front().error, QStringLiteral("loading\u2026"));
        QCOMPARE(loading->problems(), QStringList());

        const PythonDescription described = Project::describePython(dir.path());
        QVERIFY2(described.files, qPrintable(described.error));
        const auto loaded = Project::loadManifest(dir.path(), &error, &described);
        QVERIFY2(loaded, qPrintable(error.toString()));
        QVERIFY(!loaded->pythonLoading);
        QVERIFY(loaded->tool(QStringLiteral("lookup")));
        QCOMPARE(loaded->tool(QStringLiteral("lookup"))->tags, QStringList{QStringLiteral("x")});
        QCOMPARE(loaded->problems(), QStringList());

        // A manifest edit keeps the description: no "loading" again.
        writeFile(manifest, "{\"name\": \"two\"}");
        const auto edited = Project::loadManifest(dir.path(), &error, &described);
        QVERIFY2(edited, qPrintable(error.toString()));
        QCOMPARE(edited->name, QStringLiteral("two"));
        QVERIFY(!edited->pythonLoading);
        QVERIFY(edited->tool(QStringLiteral("lookup")));

        // A changed tool file does not fit it any more.
        writeFile(dir.path() + QStringLiteral("/tools/a.py"), "class Tools:\n    def other(self):\n        pass\n");
        const auto changed = Project::loadManifest(dir.path(), &error, &described);
        QVERIFY2(changed, qPrintable(error.toString()));
        QVERIFY(changed->pythonLoading);
        QVERIFY(!changed->tool(QStringLiteral("lookup")));
    }

    // --- the worker ----------------------------------------------------------------

    void asyncMethodAndPrintedOutput()
    {
        QTemporaryDir dir;
        copyWorkerProject(dir.path());
        const HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("slow_add"), json{{"a", 2}, {"b", 40}});
        QVERIFY(outcome.ok);
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("42"));
        QCOMPARE(outcome.output, QByteArray("async add 2 40\n"));
    }

    // A tool that writes to stdout past print(): sys.stdout.buffer is its output too, and
    // bytes on fd 1 itself (os.write, a subprocess) go to the worker's stderr, never into
    // the protocol channel (a line without a newline there would swallow the reply).
    void toolWritingToStdoutKeepsTheChannel()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/noisy.py"),
                  "import os, subprocess, sys\n\n"
                  "class Tools:\n"
                  "    def shout(self, text: str) -> str:\n"
                  "        \"\"\"Writes to stdout in every way.\"\"\"\n"
                  "        print(\"printed\", text)\n"
                  "        sys.stdout.buffer.write(b\"raw \\xc3\\xa9\\n\")\n"
                  "        os.write(1, b\"fd one, no newline\")\n"
                  "        subprocess.run([\"echo\", \"from a subprocess\"])\n"
                  "        return text.upper()\n");
        QTest::failOnWarning(QRegularExpression(QStringLiteral("tool worker")));
        for (int round = 1; round <= 2; ++round) {
            const HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("shout"), json{{"text", "hi"}});
            QVERIFY2(outcome.ok, outcome.error.message.c_str());
            QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"HI\""));
            QCOMPARE(outcome.output, QByteArray("printed hi\nraw \xc3\xa9\n"));
        }
    }

    // Issue 16: a tool's own code can find the worker's protocol channel (a pipe among
    // its descriptors) and write any JSON there. A number where the worker writes a
    // string made the studio abort (nlohmann type_error); now a line in another shape
    // fails the call it names, or is dropped with a warning, and the studio goes on.
    void linesAToolWritesToTheChannelFailOnlyItsCall()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/forger.py"),
                  "import os, stat\n\n"
                  "class Tools:\n"
                  "    def forge(self, line: str) -> str:\n"
                  "        \"\"\"Writes `line` (ID replaced by 1..20) to every pipe past stderr.\"\"\"\n"
                  "        for fd in range(3, 64):\n"
                  "            try:\n"
                  "                if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
                  "                    for n in range(1, 21 if 'ID' in line else 2):\n"
                  "                        os.write(fd, line.replace('ID', str(n)).encode() + b'\\n')\n"
                  "            except OSError:\n"
                  "                pass\n"
                  "        return 'not forged'\n");
        const HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("forge"),
                                               json{{"line", R"({"type": "result", "id": "ID", "output": 7})"}});
        QVERIFY(!outcome.ok);
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral("python tool forge: the tool worker's reply is malformed ('output' is a number "
                                "(expected a string)); a tool must not write to the worker's protocol channel"));
        QCOMPARE(outcome.error.retryable, false);
        // Lines without a call's string id are dropped with a warning; the call ends as the
        // worker says.
        const char *dropped[] = {R"({"type": "result", "id": 5})", R"({"type": "cancelled", "id": [1]})",
                                 R"({"type": "described", "files": [{"tools": [{"parameter_order": [1]}]}]})",
                                 R"({"type": 7})", R"([1, 2])"};
        for (const char *line : dropped) {
            QTest::ignoreMessage(QtWarningMsg,
                                 QRegularExpression(QStringLiteral("^tool worker: a line on its "
                                                                   "protocol channel is not a reply")));
            const HandlerOutcome kept = attempt(dir.path(), QStringLiteral("forge"), json{{"line", line}});
            QVERIFY2(kept.ok,
                     qPrintable(QStringLiteral("%1: %2").arg(QString::fromUtf8(line),
                                                             QString::fromStdString(kept.error.message))));
            QCOMPARE(QByteArray::fromStdString(kept.result.dump()), QByteArray("\"not forged\""));
        }
    }

    // attack7: a tool writing 5000 lines that are not replies to the channel made 5000
    // warnings (each built and printed on the GUI thread; a million newlines, a million).
    // Now ten, then one notice, between two replies; the call still ends as the worker says.
    void aFloodOfStrayLinesIsWarnedOfTenTimes()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/flooder.py"),
                  "import os, stat\n\n"
                  "class Tools:\n"
                  "    def flood(self) -> str:\n"
                  "        \"\"\"Writes 5000 lines [1] to every pipe past stderr.\"\"\"\n"
                  "        for fd in range(3, 64):\n"
                  "            try:\n"
                  "                if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
                  "                    os.write(fd, b'[1]\\n' * 5000)\n"
                  "            except OSError:\n"
                  "                pass\n"
                  "        return 'flooded'\n");
        const QRegularExpression stray(QStringLiteral("^tool worker: a line on its protocol channel is not a reply"));
        for (int i = 0; i < ToolWorker::MaxStrayWarnings; ++i)
            QTest::ignoreMessage(QtWarningMsg, stray);
        QTest::ignoreMessage(QtWarningMsg,
                             "tool worker: more lines on its protocol channel are not replies; they are "
                             "dropped without a warning until the next reply");
        QTest::failOnWarning(stray);
        const HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("flood"), json::object());
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"flooded\""));
    }

    // The same at load: a tool file that writes a last line of its own after the worker's
    // description (atexit, through a descriptor it kept) gets a load problem, not an abort.
    void aForgedDescriptionIsALoadProblem()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/forger.py"),
                  "import atexit, os, stat\n\n"
                  "pipes = []\n"
                  "for fd in range(3, 64):  # kept: the worker closes its channel before exit\n"
                  "    try:\n"
                  "        if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
                  "            pipes.append(os.dup(fd))\n"
                  "    except OSError:\n"
                  "        pass\n\n"
                  "def forge():\n"
                  "    for fd in pipes:\n"
                  "        os.write(fd, b'{\"files\": [{\"file\": 5, \"tools\": []}]}\\n')\n\n"
                  "atexit.register(forge)\n\n"
                  "class Tools:\n"
                  "    def honest(self) -> str:\n"
                  "        return 'x'\n");
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.message));
        QCOMPARE(project->pythonError,
                 QStringLiteral("the tool worker's description of tools/*.py is malformed (files[0].'file' is a "
                                "number (expected a string)); a tool file must not write to the worker's protocol "
                                "channel while it loads"));
    }

    void exceptionsAndRetryability()
    {
        QTemporaryDir dir;
        copyWorkerProject(dir.path());
        HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("refuse"), json{{"why", "bad input"}});
        QVERIFY(!outcome.ok);
        QCOMPARE(QString::fromStdString(outcome.error.message), QStringLiteral("NonRetryableError: bad input"));
        QCOMPARE(outcome.error.retryable, false);
        QVERIFY2(outcome.output.contains("tools/behaviour.py\", line") && outcome.output.contains("in refuse"),
                 outcome.output.constData());
        outcome = attempt(dir.path(), QStringLiteral("flaky"), json::object());
        QCOMPARE(QString::fromStdString(outcome.error.message), QStringLiteral("RuntimeError: flaky service"));
        QCOMPARE(outcome.error.retryable, true);
        outcome = attempt(dir.path(), QStringLiteral("slow_add"), json{{"a", 1}, {"c", 2}});
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral("unexpected argument(s) 'c' (slow_add takes a, b)"));
        QCOMPARE(outcome.error.code, ErrorCode::InvalidArguments);
        QCOMPARE(outcome.error.retryable, false);
    }

    void crashFailsRetryableAndRestarts()
    {
        QTemporaryDir dir;
        copyWorkerProject(dir.path());
        ToolWorker *worker = ToolWorker::forProject(dir.path());
        // The worker is confined (docs/sandbox.md "Trusted code"): its scratch dir is HOME.
        const json args{{"marker", "~/crashed"}};
        HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("crash_once"), args);
        QVERIFY(!outcome.ok);
        QCOMPARE(outcome.error.retryable, true);
        QVERIFY2(
            QString::fromStdString(outcome.error.message)
                .startsWith(QStringLiteral("the tool worker exited with status 3 during this call; it is restarted")),
            outcome.error.message.c_str());
        const int starts = worker->starts();
        outcome = attempt(dir.path(), QStringLiteral("crash_once"), args, QStringLiteral("run-1:1"), 2);
        QVERIFY(outcome.ok);
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"survived\""));
        QCOMPARE(worker->starts(), starts + 1);
    }

    void reloadOnSave()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        const QString file = dir.path() + QStringLiteral("/tools/v.py");
        writeFile(file, "class Tools:\n    def version(self) -> int:\n        return 1\n");
        ToolWorker *worker = ToolWorker::forProject(dir.path());
        QCOMPARE(
            QByteArray::fromStdString(attempt(dir.path(), QStringLiteral("version"), json::object()).result.dump()),
            QByteArray("1"));
        QSignalSpy changed(worker, &ToolWorker::toolFilesChanged);
        QSignalSpy described(worker, &ToolWorker::described);
        QTest::qWait(20); // a different modification time
        writeFile(file,
                  "class Tools:\n    def version(self) -> int:\n        return 2\n"
                  "    def added(self, x: int) -> int:\n        return x\n");
        QVERIFY(changed.wait(3000));
        QCOMPARE(changed.last().first().toStringList(), QStringList{QStringLiteral("tools/v.py")});
        QVERIFY(described.wait(5000));
        QVERIFY(described.last().first().toByteArray().contains("\"added\""));
        QCOMPARE(
            QByteArray::fromStdString(attempt(dir.path(), QStringLiteral("version"), json::object()).result.dump()),
            QByteArray("2"));
    }

    void injectedParametersCannotBeOverridden()
    {
        QTemporaryDir dir;
        copyWorkerProject(dir.path());
        // Passed by a call: refused naming them (issue 17), never dropped silently.
        HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("whoami"),
                                         json{{"__idempotency_key__", "forged"}, {"__user__", {{"id", "mallory"}}}},
                                         QStringLiteral("run-9:4"), 2);
        QVERIFY(!outcome.ok);
        QCOMPARE(outcome.error.code, ErrorCode::InvalidArguments);
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral("'__idempotency_key__', '__user__': set by the studio (an injected parameter, "
                                "docs/python-tools.md); a call cannot pass it"));
        outcome = attempt(dir.path(), QStringLiteral("whoami"), json::object(), QStringLiteral("run-9:4"), 2);
        QVERIFY(outcome.ok);
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()),
                 QByteArray("{\"attempt\":2,\"key\":\"run-9:4\",\"user\":\"toolstudio\"}"));
    }

    // --- valves --------------------------------------------------------------------

    void valveStoreRoundTrip()
    {
        QTemporaryDir dir;
        ValveStore store = ValveStore::load(dir.path());
        QCOMPARE(QByteArray::fromStdString(store.values(QStringLiteral("tools/w.py")).dump()), QByteArray("{}"));
        store.setValues(QStringLiteral("tools/w.py"), QStringLiteral("Valves"), json{{"unit", "fahrenheit"}});
        store.setValues(QStringLiteral("tools/w.py"), QStringLiteral("UserValves"), json{{"nickname", "ada"}});
        store.setValues(QStringLiteral("tools/x.py"), QStringLiteral("Valves"), json("not an object"));
        QString error;
        QVERIFY2(store.save(&error), qPrintable(error));
        QCOMPARE(ValveStore::filePath(dir.path()), dir.path() + QStringLiteral("/.toolstudio/valves.json"));
        const ValveStore loaded = ValveStore::load(dir.path(), &error);
        QVERIFY(error.isEmpty());
        QCOMPARE(
            QByteArray::fromStdString(loaded.all().dump()),
            QByteArray("{\"tools/w.py\":{\"UserValves\":{\"nickname\":\"ada\"},\"Valves\":{\"unit\":\"fahrenheit\"}},"
                       "\"tools/x.py\":{\"Valves\":{}}}"));
        QCOMPARE(
            QByteArray::fromStdString(loaded.values(QStringLiteral("tools/w.py"), QStringLiteral("UserValves")).dump()),
            QByteArray("{\"nickname\":\"ada\"}"));
        ValveStore merged = ValveStore::load(dir.path());
        merged.merge(
            json{{"tools/w.py", {{"Valves", {{"unit", "kelvin"}}}}}, {"tools/y.py", {{"Valves", {{"n", 1}}}}}});
        QCOMPARE(QByteArray::fromStdString(merged.values(QStringLiteral("tools/w.py")).dump()),
                 QByteArray("{\"unit\":\"kelvin\"}"));
        QCOMPARE(
            QByteArray::fromStdString(merged.values(QStringLiteral("tools/w.py"), QStringLiteral("UserValves")).dump()),
            QByteArray("{\"nickname\":\"ada\"}"));
        QCOMPARE(QByteArray::fromStdString(merged.values(QStringLiteral("tools/y.py")).dump()),
                 QByteArray("{\"n\":1}"));

        writeFile(ValveStore::filePath(dir.path()), "[1]");
        QVERIFY(ValveStore::load(dir.path(), &error).all().empty());
        QCOMPARE(error,
                 ValveStore::filePath(dir.path())
                     + QStringLiteral(": not a JSON object; the valves take their defaults"));
    }

    /// Valve values set with ValveStore reach the worker as `self.valves` and
    /// `__user__["valves"]`; describe shows the defaults; invalid values fail the call.
    void valvesReachTheWorker()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        writeFile(dir.path() + QStringLiteral("/tools/settings.py"),
                  "from pydantic import BaseModel, Field\n"
                  "class Tools:\n"
                  "    class Valves(BaseModel):\n"
                  "        unit: str = Field(\"celsius\", description=\"Unit used when none is named\")\n"
                  "        limit: int = 3\n"
                  "    class UserValves(BaseModel):\n"
                  "        nickname: str = \"anon\"\n"
                  "    def __init__(self):\n        self.valves = self.Valves()\n"
                  "    def settings(self, __user__: dict = None) -> dict:\n"
                  "        return {\"unit\": self.valves.unit, \"limit\": self.valves.limit,\n"
                  "                \"nickname\": __user__[\"valves\"].nickname}\n");
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(QByteArray::fromStdString(project->pythonFiles.at(0).valves.dump()),
                 QByteArray("{\"defaults\":{\"limit\":3,\"unit\":\"celsius\"},\"schema\":{\"properties\":{\"limit\":"
                            "{\"default\":3,\"type\":\"integer\"},\"unit\":{\"default\":\"celsius\",\"description\":"
                            "\"Unit used when none is named\",\"type\":\"string\"}},\"type\":\"object\"}}"));
        QCOMPARE(QByteArray::fromStdString(project->pythonFiles.at(0).userValves.dump()),
                 QByteArray("{\"defaults\":{\"nickname\":\"anon\"},\"schema\":{\"properties\":{\"nickname\":"
                            "{\"default\":\"anon\",\"type\":\"string\"}},\"type\":\"object\"}}"));

        HandlerOutcome outcome = attempt(dir.path(), QStringLiteral("settings"), json::object());
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()),
                 QByteArray("{\"limit\":3,\"nickname\":\"anon\",\"unit\":\"celsius\"}"));

        ValveStore store = ValveStore::load(dir.path());
        store.setValues(QStringLiteral("tools/settings.py"), QStringLiteral("Valves"), json{{"unit", "fahrenheit"}});
        store.setValues(QStringLiteral("tools/settings.py"), QStringLiteral("UserValves"), json{{"nickname", "ada"}});
        store.setValues(QStringLiteral("tools/other.py"), QStringLiteral("Valves"), json{{"unit", "kelvin"}});
        QVERIFY(store.save());
        outcome = attempt(dir.path(), QStringLiteral("settings"), json::object());
        QVERIFY2(outcome.ok, outcome.error.message.c_str());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()),
                 QByteArray("{\"limit\":3,\"nickname\":\"ada\",\"unit\":\"fahrenheit\"}"));

        store.setValues(QStringLiteral("tools/settings.py"), QStringLiteral("Valves"), json{{"limit", "many"}});
        QVERIFY(store.save());
        outcome = attempt(dir.path(), QStringLiteral("settings"), json::object());
        QVERIFY(!outcome.ok);
        QCOMPARE(outcome.error.retryable, false);
        QVERIFY2(QString::fromStdString(outcome.error.message)
                     .startsWith(QStringLiteral("the valves of tools/settings.py are invalid: ValidationError: ")),
                 outcome.error.message.c_str());
    }

    // --- bundles -------------------------------------------------------------------

    void bundleRoundTripWithoutSecrets()
    {
        QTemporaryDir source, target;
        writeFile(source.path() + QStringLiteral("/toolstudio.json"),
                  "{\"name\": \"src\", \"tools\": [{\"name\": \"lookup\", \"description\": \"Looks up\", "
                  "\"handler\": {\"kind\": \"manual\"}}], \"python_tools\": {\"unit\": {\"tags\": [\"weather\"]}}}");
        writeFile(source.path() + QStringLiteral("/tools/settings.py"),
                  "from pydantic import BaseModel\n"
                  "class Tools:\n"
                  "    class Valves(BaseModel):\n        unit: str = \"celsius\"\n        api_key: str = \"\"\n"
                  "    def __init__(self):\n        self.valves = self.Valves()\n"
                  "    def unit(self) -> str:\n        return self.valves.unit\n");
        const QString secret = QStringLiteral("sk-bundle-0d9e8f7a6b");
        Secrets secrets = Secrets::load(source.path());
        secrets.set(QStringLiteral("BUNDLE_KEY"), secret);
        QVERIFY(secrets.save());
        ValveStore valves = ValveStore::load(source.path());
        // A person pasted the secret into a valve: the bundle must not carry it.
        valves.setValues(QStringLiteral("tools/settings.py"), QStringLiteral("Valves"),
                         json{{"unit", "fahrenheit"}, {"api_key", secret.toStdString()}});
        QVERIFY(valves.save());

        const QString zip = source.path() + QStringLiteral("/out.zip");
        QStringList exported;
        QString error;
        QVERIFY2(Bundle::exportBundle(source.path(), zip, &exported, &error), qPrintable(error));
        QCOMPARE(exported,
                 QStringList({QStringLiteral("tool 'lookup'"), QStringLiteral("tools/settings.py"),
                              QStringLiteral("valves of tools/settings.py")}));
        const QByteArray contents = zipContents(zip);
        QVERIFY2(contents.startsWith("bundle.json tools/settings.py\n"), contents.constData());
        QVERIFY2(!contents.contains(secret.toUtf8()), "the bundle holds a secret");
        QVERIFY(contents.contains("\"api_key\": \"********\""));
        QFile::remove(Secrets::filePath(source.path()));

        writeFile(target.path() + QStringLiteral("/toolstudio.json"), EmptyManifest);
        QStringList imported, errors;
        // Describing the bundle's tool file runs it: refused while the project is not trusted.
        QVERIFY(!Bundle::importBundle(target.path(), zip, &imported, &errors));
        QCOMPARE(errors,
                 QStringList{QStringLiteral("the bundle has Python tool files, and reading their tools runs "
                                            "their code: %1")
                                 .arg(ProjectTrust::untrustedReason(target.path()))});
        QVERIFY(!QFileInfo::exists(target.path() + QStringLiteral("/tools/settings.py")));
        errors.clear();
        trustProject(target.path());
        QVERIFY2(Bundle::importBundle(target.path(), zip, &imported, &errors),
                 qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(imported, QStringList({QStringLiteral("lookup"), QStringLiteral("unit")}));
        ProjectError loadError;
        const auto project = loadTrusted(target.path(), &loadError);
        QVERIFY2(project, qPrintable(loadError.toString()));
        QCOMPARE(project->tool(QStringLiteral("lookup"))->handler, HandlerKind::Manual);
        QCOMPARE(project->tool(QStringLiteral("unit"))->handler, HandlerKind::Python);
        QCOMPARE(project->tool(QStringLiteral("unit"))->tags, QStringList{QStringLiteral("weather")});
        QCOMPARE(QByteArray::fromStdString(
                     ValveStore::load(target.path()).values(QStringLiteral("tools/settings.py")).dump()),
                 QByteArray("{\"api_key\":\"********\",\"unit\":\"fahrenheit\"}"));
        const HandlerOutcome outcome = attempt(target.path(), QStringLiteral("unit"), json::object());
        QCOMPARE(QByteArray::fromStdString(outcome.result.dump()), QByteArray("\"fahrenheit\""));

        // Again: every name collides; refused with each reason, nothing changes.
        const QByteArray manifestBefore = readAll(target.path() + QStringLiteral("/toolstudio.json"));
        imported.clear();
        QVERIFY(!Bundle::importBundle(target.path(), zip, &imported, &errors));
        QCOMPARE(
            errors,
            QStringList({QStringLiteral("tool 'lookup' (bundle.json): the project already has a tool of that name"),
                         QStringLiteral("tools/settings.py: the project already has a file of that name"),
                         QStringLiteral("tool 'unit' (tools/settings.py): the project already has a tool of "
                                        "that name (in tools/settings.py)")}));
        QVERIFY(imported.isEmpty());
        QCOMPARE(readAll(target.path() + QStringLiteral("/toolstudio.json")), manifestBefore);
    }

    void bundleHostileZip_data()
    {
        QTest::addColumn<QByteArray>("entries");
        QTest::addColumn<QString>("reason");
        const QByteArray manifest(
            "[\"bundle.json\", \"{\\\"format\\\": \\\"toolstudio-bundle\\\", \\\"version\\\": 1}\"]");
        QTest::newRow("zip-slip ..")
            << "[[\"../evil.py\", \"print(1)\"], " + manifest + "]"
            << QStringLiteral("entry '../evil.py': a path outside the project (absolute or with '..') is refused");
        QTest::newRow("zip-slip nested ..") << "[[\"tools/../../evil.py\", \"x\"], " + manifest + "]"
                                            << QStringLiteral("entry 'tools/../../evil.py': a path outside the project "
                                                              "(absolute or with '..') is refused");
        QTest::newRow("absolute") << "[[\"/tmp/toolstudio-evil.py\", \"x\"], " + manifest + "]"
                                  << QStringLiteral("entry '/tmp/toolstudio-evil.py': a path outside the project "
                                                    "(absolute or with '..') is refused");
        QTest::newRow("not a bundle entry") << "[[\"scripts/run.sh\", \"rm -rf ~\"], " + manifest + "]"
                                            << QStringLiteral("entry 'scripts/run.sh': not part of a bundle (only "
                                                              "bundle.json and tools/NAME.py)");
        QTest::newRow("oversized") << "[[\"tools/big.py\", 5000000], " + manifest + "]"
                                   << QStringLiteral(
                                          "entry 'tools/big.py': 5000000 bytes, more than the 4194304 bytes a "
                                          "bundle entry may hold");
        // Issue 16: each entry under the limit, 1000 of them took 4 GiB (a 4 MB zip).
        QTest::newRow("unpacks too large")
            << "[[\"tools/a.py\", 4000000], [\"tools/b.py\", 4000000], [\"tools/c.py\", 4000000], "
               "[\"tools/d.py\", 4000000], [\"tools/e.py\", 4000000], "
                + manifest + "]"
            << QStringLiteral(
                   "entry 'tools/e.py': the entries unpack to more than the 16777216 bytes a bundle may hold");
        // Issue 16: bundle.json was parsed without the depth bound; copying it crashed.
        QTest::newRow("manifest nested too deep")
            << "[[\"bundle.json\", \"{\\\"format\\\": \\\"toolstudio-bundle\\\", \\\"version\\\": "
                + QByteArray(1000, '[') + QByteArray(1000, ']') + "}\"]]"
            << QStringLiteral("$ZIP: bundle.json is not valid JSON: line 1, column 171: nested deeper than 128 levels");
        QTest::newRow("no manifest") << QByteArray("[[\"tools/a.py\", \"x\"]]") << QString();
        QTest::newRow("colliding names inside")
            << QByteArray("[[\"bundle.json\", \"{\\\"format\\\": \\\"toolstudio-bundle\\\", "
                          "\\\"version\\\": 1, \\\"tools\\\": [{\\\"name\\\": \\\"a\\\", "
                          "\\\"handler\\\": {\\\"kind\\\": \\\"manual\\\"}}, {\\\"name\\\": "
                          "\\\"a\\\", \\\"handler\\\": {\\\"kind\\\": \\\"manual\\\"}}]}\"]]")
            << QStringLiteral("tool 'a': defined twice in the bundle (bundle.json and bundle.json)");
    }

    void bundleHostileZip()
    {
        QFETCH(QByteArray, entries);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/project/toolstudio.json"), EmptyManifest);
        const QString project = dir.path() + QStringLiteral("/project");
        const QString zip = dir.path() + QStringLiteral("/hostile.zip");
        QVERIFY(makeZip(zip, json::parse(entries.constBegin(), entries.constEnd())));
        QStringList imported, errors;
        QVERIFY(!Bundle::importBundle(project, zip, &imported, &errors));
        QVERIFY(!errors.isEmpty());
        QCOMPARE(errors.first(),
                 reason.isEmpty() ? zip + QStringLiteral(": no bundle.json: not a Tool Studio bundle")
                                  : QString(reason).replace(QLatin1String("$ZIP"), zip));
        QCOMPARE(readAll(project + QStringLiteral("/toolstudio.json")), QByteArray(EmptyManifest));
        QVERIFY(!QFileInfo::exists(dir.path() + QStringLiteral("/evil.py")));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/toolstudio-evil.py")));
        QVERIFY(!QFileInfo::exists(project + QStringLiteral("/tools")));
    }

    // --- secrets -------------------------------------------------------------------

    void secretsFileOutsideProjectMode0600()
    {
        QTemporaryDir dir;
        Secrets secrets = Secrets::load(dir.path());
        QVERIFY(secrets.set(QStringLiteral("TEST_API_KEY"), QStringLiteral("sk-test-0123456789")));
        QString error;
        QVERIFY(!secrets.set(QStringLiteral("bad-name"), QStringLiteral("x"), &error));
        QVERIFY(error.startsWith(QStringLiteral("invalid secret name 'bad-name'")));
        // An empty value is refused and does not replace the one already set.
        QVERIFY(!secrets.set(QStringLiteral("TEST_API_KEY"), QString(), &error));
        QCOMPARE(
            error,
            QStringLiteral("empty value for secret 'TEST_API_KEY': a secret needs a value (to delete it, remove it)"));
        QCOMPARE(secrets.value(QStringLiteral("TEST_API_KEY")), QStringLiteral("sk-test-0123456789"));
        QVERIFY2(secrets.save(&error), qPrintable(error));
        const QString path = Secrets::filePath(dir.path());
        QVERIFY(!path.startsWith(dir.path()));
        QVERIFY(path.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)));
        struct stat info
        {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
        QCOMPARE(Secrets::load(dir.path()).value(QStringLiteral("TEST_API_KEY")), QStringLiteral("sk-test-0123456789"));
        QCOMPARE(secrets.mask(QStringLiteral("key=sk-test-0123456789.")), QStringLiteral("key=********."));
        QFile::remove(path);
    }

    /// The script dumps its environment and every file of its work dir; the secret is
    /// in none of them, nor in the journal; the tool did get it; injected parameters
    /// passed by the script were refused (invalid_arguments naming one).
    void secretNeverReachesSandboxOrJournal()
    {
        QTemporaryDir dir;
        copyWorkerProject(dir.path());
        const QString secret = QStringLiteral("sk-live-7f3a9c1e55d0");
        Secrets secrets = Secrets::load(dir.path());
        secrets.set(QStringLiteral("TEST_API_KEY"), secret);
        QVERIFY(secrets.save());
        ProjectError error;
        const auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));

        RunController controller;
        QByteArray out;
        connect(&controller, &RunController::outputReceived, this,
                [&out](int, const QByteArray &chunk) { out += chunk; });
        QSignalSpy finished(&controller, &RunController::finished);
        QString startError;
        QVERIFY2(controller.start(*project, QString(), &startError), qPrintable(startError));
        // The run wrote the typings of its bound tools beside the shims (read while the
        // run is on: its folder is removed when it ends).
        const QString runDir
            = QDir::tempPath() + QStringLiteral("/toolstudio-%1/runs/").arg(::getuid()) + controller.record().id;
        const QByteArray pyi = readAll(runDir + QStringLiteral("/runtime/python/toolstudio/__init__.pyi"));
        const QByteArray dts = readAll(runDir + QStringLiteral("/runtime/node/toolstudio/index.d.ts"));
        QVERIFY(finished.wait(60000));
        QCOMPARE(controller.record().status, RunStatus::Completed);
        QVERIFY2(out.contains("whoami True toolstudio\n"), out.constData());
        QVERIFY2(out.contains("forged invalid_arguments invalid arguments for 'whoami' at /__idempotency_key__: "
                              "property is not allowed by the schema\n"),
                 out.constData());
        QVERIFY2(out.contains(QByteArray("secret length ") + QByteArray::number(secret.size())), out.constData());
        QVERIFY(out.contains("ENV {"));
        QVERIFY2(!out.contains(secret.toUtf8()), "the sandbox saw the secret");
        QByteArray journal;
        for (const QString &suffix : {QString(), QStringLiteral("-wal")})
            journal += readAll(project->journalPath() + suffix);
        QVERIFY(!journal.isEmpty());
        QVERIFY2(!journal.contains(secret.toUtf8()), "the journal holds the secret");
        QVERIFY(journal.contains("the key is ********"));
        QVERIFY2(
            pyi.contains("    def whoami(self) -> dict[str, Any]:\n        \"\"\"Returns what was injected.\"\"\"\n"),
            pyi.constData());
        QVERIFY(pyi.contains("    def slow_add(self, a: int, b: int) -> int:\n"));
        QVERIFY2(dts.contains("  whoami(): Promise<{ [key: string]: unknown }>;\n"), dts.constData());
        QVERIFY(dts.contains("  secret_length(): Promise<number>;\n"));
        QVERIFY(!QFileInfo::exists(runDir)); // nothing of the run is left in /tmp
        QFile::remove(Secrets::filePath(dir.path()));
    }

    /// A command handler that prints a secret on stderr: the attempt's output and its
    /// error message show ******** instead.
    void secretsMaskedInCommandStderr()
    {
        QTemporaryDir dir;
        const QString secret = QStringLiteral("sk-cmd-5e4d3c2b1a");
        Secrets secrets = Secrets::load(dir.path());
        secrets.set(QStringLiteral("CMD_API_KEY"), secret);
        QVERIFY(secrets.save());
        CommandHandler handler(
            {QStringLiteral("sh"), QStringLiteral("-c"),
             QStringLiteral(
                 "echo \"calling with $CMD_API_KEY\" >&2; echo \"rejected key $CMD_API_KEY\" >&2; exit 65")});
        HandlerOutcome outcome;
        bool done = false;
        connect(&handler, &ToolHandler::finished, this, [&](const HandlerOutcome &o) {
            outcome = o;
            done = true;
        });
        HandlerRequest request;
        request.tool = QStringLiteral("cmd");
        request.projectDir = dir.path();
        handler.start(request);
        QVERIFY(QTest::qWaitFor([&] { return done; }, 10000));
        QFile::remove(Secrets::filePath(dir.path()));
        QVERIFY(!outcome.ok);
        QCOMPARE(outcome.output, QByteArray("calling with ********\nrejected key ********\n"));
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral("calling with ********\nrejected key ******** (exit status 65)"));
    }

    // --- python_tools overrides (active, tags), clone -----------------------------

    void pythonToolOverrides()
    {
        QTemporaryDir dir;
        writeFile(
            dir.path() + QStringLiteral("/toolstudio.json"),
            "{\"name\": \"t\", \"tools\": [{\"name\": \"lookup\", \"handler\": {\"kind\": \"manual\"}}],\n"
            " \"python_tools\": {\"first\": {\"active\": false, \"tags\": [\"beta\"], \"retry\": {\"max_attempts\": 1}},"
            " \"gone\": {\"active\": false}}}");
        writeFile(dir.path() + QStringLiteral("/tools/a.py"),
                  "class Tools:\n    def first(self):\n        pass\n    def second(self):\n        pass\n");
        ProjectError error;
        auto project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->tool(QStringLiteral("first"))->active, false);
        QCOMPARE(project->tool(QStringLiteral("first"))->tags, QStringList{QStringLiteral("beta")});
        QCOMPARE(project->tool(QStringLiteral("first"))->retry.maxAttempts, 1);
        QCOMPARE(project->tool(QStringLiteral("second"))->active, true);
        QCOMPARE(
            project->problems(),
            QStringList{QStringLiteral("toolstudio.json: python_tools 'gone': no Python tool of that name is loaded")});
        QCOMPARE(project->boundTools(QString()).contains(QStringLiteral("first")), false);

        auto manifest = ProjectWriter::readManifest(dir.path());
        QVERIFY(manifest);
        QString reason;
        QVERIFY(ProjectWriter::setPythonToolActive(*manifest, QStringLiteral("second"), false, &reason));
        QVERIFY(ProjectWriter::setPythonToolActive(*manifest, QStringLiteral("first"), true, &reason));
        QVERIFY(
            ProjectWriter::setPythonToolTags(*manifest, QStringLiteral("second"), {QStringLiteral("web")}, &reason));
        QVERIFY(!ProjectWriter::setPythonToolActive(*manifest, QStringLiteral("lookup"), false, &reason));
        QCOMPARE(reason, QStringLiteral("lookup is declared in toolstudio.json's tools, not in tools/*.py"));
        QCOMPARE(
            QByteArray::fromStdString((*manifest)["python_tools"].dump()),
            QByteArray("{\"first\":{\"tags\":[\"beta\"],\"retry\":{\"max_attempts\":1}},\"gone\":{\"active\":false},"
                       "\"second\":{\"active\":false,\"tags\":[\"web\"]}}"));
        QVERIFY(ProjectWriter::writeManifest(dir.path(), *manifest));
        project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->tool(QStringLiteral("first"))->active, true);
        QCOMPARE(project->tool(QStringLiteral("second"))->active, false);
        QCOMPARE(project->tool(QStringLiteral("second"))->tags, QStringList{QStringLiteral("web")});

        QCOMPARE(
            ProjectWriter::pythonCloneRefusal(QStringLiteral("first"), QStringLiteral("tools/a.py")),
            QStringLiteral("first is a Python tool (tools/a.py): its definition is the method's code, so it cannot "
                           "be cloned by name; copy the method under a new name in the file instead"));

        writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                  "{\"python_tools\": {\"first\": {\"activ\": false}}}");
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.message, QStringLiteral("python_tools 'first': unknown key 'activ' (did you mean 'active'?)"));
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                  "{\"tools\": [{\"name\": \"lookup\", \"handler\": {\"kind\": \"manual\"}}],"
                  " \"python_tools\": {\"lookup\": {\"active\": false}}}");
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.message,
                 QStringLiteral("python_tools 'lookup': 'lookup' is declared in 'tools'; set its keys there"));
    }

    // --- typings -------------------------------------------------------------------

    void typingsExactText()
    {
        ProjectError error;
        const auto project = loadTrusted(dataDir() + QStringLiteral("/typings/project"), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        if (qEnvironmentVariableIsSet("TOOLSTUDIO_UPDATE_GOLDEN")) { // regenerate, then review the diff
            writeFile(dataDir() + QStringLiteral("/typings/toolstudio.pyi"),
                      Typings::python(project->tools, project->name).toUtf8());
            writeFile(dataDir() + QStringLiteral("/typings/toolstudio.d.ts"),
                      Typings::typescript(project->tools, project->name).toUtf8());
        }
        QCOMPARE(Typings::python(project->tools, project->name),
                 QString::fromUtf8(readAll(dataDir() + QStringLiteral("/typings/toolstudio.pyi"))));
        QCOMPARE(Typings::typescript(project->tools, project->name),
                 QString::fromUtf8(readAll(dataDir() + QStringLiteral("/typings/toolstudio.d.ts"))));
        QTemporaryDir out;
        QStringList written;
        QString reason;
        QVERIFY2(Typings::write(*project, out.path() + QStringLiteral("/types"), &written, &reason),
                 qPrintable(reason));
        QCOMPARE(written,
                 QStringList({out.path() + QStringLiteral("/types/toolstudio.pyi"),
                              out.path() + QStringLiteral("/types/toolstudio.d.ts")}));
        QCOMPARE(readAll(written.at(0)), readAll(dataDir() + QStringLiteral("/typings/toolstudio.pyi")));
    }

    /// The stub is valid Python a type checker can read: python3 compiles it.
    void typingsPythonCompiles()
    {
        QProcess python;
        python.start(QStringLiteral("python3"),
                     {QStringLiteral("-c"), QStringLiteral("import ast, sys; ast.parse(open(sys.argv[1]).read())"),
                      dataDir() + QStringLiteral("/typings/toolstudio.pyi")});
        QVERIFY(python.waitForFinished(20000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    }

    // --- headless commands ---------------------------------------------------------

    /// `toolstudio run` warns about what did not load; `tools typings` and `tools
    /// bundle export|import` end to end. Needs the built toolstudio (TOOLSTUDIO_BINARY).
    void headlessTypingsBundleAndRunWarnings()
    {
        const QString binary = qEnvironmentVariable("TOOLSTUDIO_BINARY");
        if (binary.isEmpty() || !QFileInfo::exists(binary))
            QSKIP("toolstudio is not built (TOOLSTUDIO_BINARY)");
        QTemporaryDir dir;
        const QString project = dir.path() + QStringLiteral("/p");
        writeFile(project + QStringLiteral("/toolstudio.json"),
                  "{\"name\": \"p\", \"scripts\": [{\"path\": \"scripts/main.py\"}],"
                  " \"tools\": [{\"name\": \"lookup\", \"handler\": {\"kind\": \"manual\"}}]}");
        writeFile(project + QStringLiteral("/scripts/main.py"), "print('hi')\n");
        writeFile(project + QStringLiteral("/tools/a.py"),
                  "class Tools:\n"
                  "    def bad(self, items: set[int]):\n        pass\n"
                  "    def good(self, q: str):\n        \"\"\"Finds q.\"\"\"\n        return q\n");
        const auto toolstudio = [&](const QStringList &args, QByteArray *out, QByteArray *err) {
            QProcess process;
            process.start(binary, withTrust(args));
            process.waitForFinished(60000);
            *out = process.readAllStandardOutput();
            *err = process.readAllStandardError();
            return process.exitCode();
        };
        QByteArray out, err;
        QCOMPARE(toolstudio({QStringLiteral("run"), project}, &out, &err), 0);
        QVERIFY2(err.startsWith("toolstudio run: warning: tools/a.py: tool 'bad' not loaded: parameter 'items': "
                                "unsupported type annotation 'set[int]'"),
                 err.constData());
        QVERIFY2(out.contains("hi\n"), out.constData());

        QCOMPARE(toolstudio({QStringLiteral("tools"), QStringLiteral("typings"), project, QStringLiteral("--out"),
                             dir.path() + QStringLiteral("/types")},
                            &out, &err),
                 0);
        QCOMPARE(out,
                 (dir.path() + QStringLiteral("/types/toolstudio.pyi\n") + dir.path()
                  + QStringLiteral("/types/toolstudio.d.ts\n"))
                     .toUtf8());
        QVERIFY(readAll(dir.path() + QStringLiteral("/types/toolstudio.pyi"))
                    .contains("    def good(self, q: str) -> Any:\n        \"\"\"Finds q.\"\"\"\n"));
        QVERIFY(readAll(dir.path() + QStringLiteral("/types/toolstudio.d.ts"))
                    .contains("  good(q: GoodArgs[\"q\"]): Promise<unknown>;\n"));

        const QString zip = dir.path() + QStringLiteral("/tools.zip");
        QCOMPARE(toolstudio({QStringLiteral("tools"), QStringLiteral("bundle"), QStringLiteral("export"), project, zip},
                            &out, &err),
                 0);
        QCOMPARE(out, QByteArray("tool 'lookup'\ntools/a.py\n"));
        QCOMPARE(toolstudio({QStringLiteral("tools"), QStringLiteral("bundle"), QStringLiteral("import"), project, zip},
                            &out, &err),
                 1);
        QVERIFY2(err.contains("tool 'lookup' (bundle.json): the project already has a tool of that name\n"),
                 err.constData());
        QVERIFY(err.endsWith("nothing imported\n"));
        const QString other = dir.path() + QStringLiteral("/other");
        writeFile(other + QStringLiteral("/toolstudio.json"), EmptyManifest);
        QCOMPARE(toolstudio({QStringLiteral("tools"), QStringLiteral("bundle"), QStringLiteral("import"), other, zip},
                            &out, &err),
                 0);
        QCOMPARE(out, QByteArray("imported 2 tool(s): lookup, good\n"));
    }

    /// `tools secret`: an empty line on stdin (an unset variable piped in) is refused
    /// and keeps the saved value; `--delete` deletes. Needs the built toolstudio.
    void headlessSecretRefusesEmptyValue()
    {
        const QString binary = qEnvironmentVariable("TOOLSTUDIO_BINARY");
        if (binary.isEmpty() || !QFileInfo::exists(binary))
            QSKIP("toolstudio is not built (TOOLSTUDIO_BINARY)");
        QTemporaryDir dir;
        const QString project = dir.path() + QStringLiteral("/p");
        writeFile(project + QStringLiteral("/toolstudio.json"), EmptyManifest);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path() + QStringLiteral("/config"));
        const auto secret = [&](const QStringList &extra, const QByteArray &stdinText, QByteArray *err) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(
                binary,
                QStringList{QStringLiteral("tools"), QStringLiteral("secret"), project, QStringLiteral("CLI_KEY")}
                    + extra);
            process.write(stdinText);
            process.closeWriteChannel();
            process.waitForFinished(60000);
            *err = process.readAllStandardError();
            return process.exitCode();
        };
        const auto secretsFile = [&] {
            QDirIterator it(dir.path() + QStringLiteral("/config"), {QStringLiteral("*.json")}, QDir::Files,
                            QDirIterator::Subdirectories);
            return it.hasNext() ? readAll(it.next()) : QByteArray();
        };
        QByteArray err;
        QCOMPARE(secret({}, "sk-cli-5e6f7a8b\n", &err), 0);
        QVERIFY2(secretsFile().contains("\"CLI_KEY\": \"sk-cli-5e6f7a8b\""), secretsFile().constData());
        QCOMPARE(secret({}, "\n", &err), 2);
        QCOMPARE(err,
                 QByteArray("secret CLI_KEY: empty value on stdin, nothing saved (pipe the value in; "
                            "to delete the secret, use --delete)\n"));
        QVERIFY(secretsFile().contains("sk-cli-5e6f7a8b"));
        QCOMPARE(secret({QStringLiteral("--delete")}, QByteArray(), &err), 0);
        QCOMPARE(err, QByteArray("secret CLI_KEY deleted\n"));
        QVERIFY(!secretsFile().contains("CLI_KEY"));

        // --host binds the key to the hosts it may be sent to (issue 16); with no value
        // on stdin it adds hosts to the key already set, and a bare host list is refused.
        const QStringList host = {QStringLiteral("--host"), QStringLiteral("API.example.com")};
        QCOMPARE(secret(host, "sk-cli-host-1\n", &err), 0);
        QVERIFY2(err.endsWith("secret CLI_KEY goes only to api.example.com\n"), err.constData());
        QCOMPARE(secret({QStringLiteral("--host"), QStringLiteral("localhost:11434")}, QByteArray(), &err), 0);
        QVERIFY2(err.endsWith("secret CLI_KEY goes only to api.example.com, localhost:11434\n"), err.constData());
        QVERIFY2(secretsFile().contains("\"sk-cli-host-1\""), secretsFile().constData());
        QCOMPARE(secret({QStringLiteral("--host")}, QByteArray(), &err), 2);
    }

    // --- export --------------------------------------------------------------------

    void exportShapes_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("strict");
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("expected");
        const auto data = readJson<nlohmann::ordered_json>(dataDir() + QStringLiteral("/export.json"));
        for (const auto &row : data["rows"])
            QTest::newRow(row["name"].get<std::string>().c_str())
                << QString::fromStdString(row["format"].get<std::string>()) << row["strict"].get<bool>()
                << QByteArray::fromStdString(row["input_schema"].dump())
                << QByteArray::fromStdString(row["expected"].dump());
    }

    void exportShapes()
    {
        QFETCH(QString, format);
        QFETCH(bool, strict);
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, expected);
        const auto ordered = nlohmann::ordered_json::parse(schema.constBegin(), schema.constEnd());
        Tool tool;
        tool.name = QStringLiteral("get_weather");
        tool.description = QStringLiteral("Weather for a city.");
        tool.inputSchema = json::parse(schema.constBegin(), schema.constEnd());
        for (auto it = ordered["properties"].begin(); it != ordered["properties"].end(); ++it)
            tool.parameterOrder << QString::fromStdString(it.key());
        QString reason;
        const auto exported = ToolExport::exportTool(tool, *ToolExport::parseFormat(format), strict, &reason);
        QVERIFY2(exported, qPrintable(reason));
        QCOMPARE(QByteArray::fromStdString(exported->dump()), expected);
    }

    void exportRefusals_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("strict");
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("reason");
        const auto data = readJson<json>(dataDir() + QStringLiteral("/export.json"));
        for (const auto &row : data["refusals"])
            QTest::newRow(row["name"].get<std::string>().c_str())
                << QString::fromStdString(row["format"].get<std::string>()) << row["strict"].get<bool>()
                << QByteArray::fromStdString(row["input_schema"].dump())
                << QString::fromStdString(row["reason"].get<std::string>());
    }

    void exportRefusals()
    {
        QFETCH(QString, format);
        QFETCH(bool, strict);
        QFETCH(QByteArray, schema);
        QFETCH(QString, reason);
        Tool tool;
        tool.name = QStringLiteral("get_weather");
        tool.inputSchema = json::parse(schema.constBegin(), schema.constEnd());
        QString got;
        QVERIFY(!ToolExport::exportTool(tool, *ToolExport::parseFormat(format), strict, &got));
        QCOMPARE(got, reason);
        QStringList refused;
        QCOMPARE(ToolExport::exportTools({tool}, *ToolExport::parseFormat(format), strict, &refused).size(),
                 std::size_t(0));
        QCOMPARE(refused, QStringList{QStringLiteral("tool 'get_weather': ") + reason});
    }
    // --- import --------------------------------------------------------------------

    void importMcpAndRefusals()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + QStringLiteral("/toolstudio.json"),
                  "{\"tools\": [{\"name\": \"lookup\", \"handler\": {\"kind\": \"manual\"}}]}");
        const QString mcp = dir.path() + QStringLiteral("/mcp.json");
        writeFile(mcp,
                  "{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": [{\"name\": \"get_weather\", "
                  "\"description\": \"Weather\", \"inputSchema\": {\"$schema\": \"x\", \"type\": \"object\", "
                  "\"properties\": {\"city\": {\"type\": \"string\"}}}}]}}");
        const ToolImport::Outcome first = ToolImport::importFile(dir.path(), mcp, ToolImport::As::Mock);
        QVERIFY2(first.ok(), qPrintable(first.errors.join(QLatin1Char('\n'))));
        QCOMPARE(first.imported, QStringList{QStringLiteral("get_weather")});
        ProjectError error;
        auto project = loadTrusted(dir.path(), &error);
        QVERIFY(project);
        QCOMPARE(project->tool(QStringLiteral("get_weather"))->handler, HandlerKind::Mock);
        QCOMPARE(QByteArray::fromStdString(project->tool(QStringLiteral("get_weather"))->inputSchema.dump()),
                 QByteArray("{\"properties\":{\"city\":{\"type\":\"string\"}},\"type\":\"object\"}"));

        const QString bad = dir.path() + QStringLiteral("/anthropic.json");
        writeFile(bad,
                  "[{\"name\": \"get forecast\", \"input_schema\": {\"type\": \"object\"}},"
                  " {\"name\": \"lookup\", \"input_schema\": {\"type\": \"object\"}},"
                  " {\"name\": \"fine\", \"input_schema\": {\"type\": \"object\"}}]");
        // Partial: the valid one is imported, each other one refused with a suggested name.
        const ToolImport::Outcome partial = ToolImport::importFile(dir.path(), bad, ToolImport::As::Manual);
        QCOMPARE(partial.errors, QStringList());
        QCOMPARE(partial.imported, QStringList{QStringLiteral("fine")});
        QCOMPARE(partial.total, 3);
        QStringList refused;
        for (const ToolImport::Refusal &refusal : partial.refused)
            refused << ToolImport::Outcome::describe(refusal);
        QCOMPARE(
            refused,
            QStringList({QStringLiteral("tool 'get forecast': invalid name (1 to 128 letters, digits, '_', '-' or "
                                        "'.', starting with a letter, digit or '_'); it is not renamed (suggested: "
                                        "'get_forecast'; on the command line: --rename 'get forecast=get_forecast')"),
                         QStringLiteral("tool 'lookup': the project already has a tool of that name; it is not "
                                        "renamed (suggested: 'lookup_2'; on the command line: --rename "
                                        "lookup=lookup_2)")}));
        project = loadTrusted(dir.path(), &error);
        QVERIFY(project->tool(QStringLiteral("fine")));
    }
};

QTEST_GUILESS_MAIN(TestPythonTools)
#include "tst_pythontools.moc"
