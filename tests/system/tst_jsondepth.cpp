// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Issue 16, class 3 "JSON depth": JSON nested 100 000 deep, wherever it enters the
// studio, is refused with the source named, never built (copying it crashed the
// studio). One bound, JsonInput::MaxDepth (the bridge's 128).

#include "cli/answerfile.h"
#include "engine/handlers/commandhandler.h"
#include "engine/handlers/pythonhandler.h"
#include "engine/replaysource.h"
#include "exchange/toolimport.h"
#include "exchange/traceexport.h"
#include "journal/journalrows.h"
#include "jsoninput.h"
#include "project/project.h"
#include "project/projectwriter.h"
#include "python/toolworker.h"
#include "python/valvestore.h"

#include "handlerattempt.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr int Deep = 100000;

QByteArray nested(int depth, const QByteArray &inner = "1")
{
    return QByteArray(depth, '[') + inner + QByteArray(depth, ']');
}

} // namespace

class TestJsonDepth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void overLimit_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("offset");
        QTest::newRow("128 arrays") << nested(128) << qint64(-1);
        QTest::newRow("129 arrays") << nested(129) << qint64(128);
        QTest::newRow("objects") << QByteArray("{\"a\":").repeated(129) + "1" + QByteArray(129, '}') << qint64(128 * 5);
        QTest::newRow("brackets in strings")
            << QByteArray("[\"") + QByteArray(500, '[') + "\\\"" + QByteArray(500, '{') + "\"]" << qint64(-1);
        QTest::newRow("siblings") << nested(100).repeated(3) << qint64(-1);
        QTest::newRow("100 000") << nested(Deep) << qint64(128);
    }

    void overLimit()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, offset);
        const JsonInput::Problem bound
            = JsonInput::overLimit(std::string_view(text.constData(), std::size_t(text.size())));
        QCOMPARE(bound.limit ? qint64(bound.byte) : qint64(-1), offset);
        QCOMPARE(QString::fromStdString(bound.reason),
                 bound.limit ? QStringLiteral("nested deeper than 128 levels") : QString());
    }

    void parseNamesTheSource()
    {
        std::string problem;
        const QByteArray text = nested(Deep);
        const nlohmann::json value
            = JsonInput::parse(std::string_view(text.constData(), std::size_t(text.size())), "the answer", &problem);
        QVERIFY(value.is_discarded());
        QCOMPARE(QString::fromStdString(problem),
                 QStringLiteral("the answer is nested deeper than 128 levels (byte offset 128)"));
        const nlohmann::json ok = JsonInput::parse("[[1]]", "the answer", &problem);
        QCOMPARE(QByteArray::fromStdString(ok.dump()), QByteArray("[[1]]"));
        QVERIFY(problem.empty());
    }

    void commandToolStdout()
    {
        QTemporaryDir dir;
        CommandHandler handler({QStringLiteral("python3"), QStringLiteral("-c"),
                                QStringLiteral("import sys; sys.stdout.write('[' * %1 + ']' * %1)").arg(Deep)});
        const HandlerOutcome outcome = runHandlerAttempt(handler, dir.path(), QStringLiteral("lookup"));
        QVERIFY(!outcome.ok);
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral("command tool lookup: stdout is nested deeper than 128 levels (byte offset 128)"));
        QCOMPARE(outcome.error.retryable, false);
    }

    // A Python tool that writes its own reply, 100 000 deep, on the worker's protocol
    // channel (found through the interpreter's frames) for its own call id.
    void pythonWorkerReply()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"t\"}"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("tools/deep.py")),
                          "import inspect\n"
                          "class Tools:\n"
                          "    async def deep(self) -> int:\n"
                          "        call_id = channel = None\n"
                          "        for info in inspect.stack():\n"
                          "            local = info.frame.f_locals\n"
                          "            if call_id is None and isinstance(local.get('message'), dict):\n"
                          "                call_id = local['message'].get('id')\n"
                          "            if channel is None and 'protocol' in local:\n"
                          "                channel = local['protocol']\n"
                          "        channel.write('{\"id\": \"%s\", \"type\": \"result\", \"value\": %s}\\n'\n"
                          "                      % (call_id, '[' * 100000 + ']' * 100000))\n"
                          "        channel.flush()\n"
                          "        return 1\n"));
        PythonHandler handler;
        const HandlerOutcome outcome = runHandlerAttempt(handler, dir.path(), QStringLiteral("deep"));
        QVERIFY(!outcome.ok);
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral(
                     "python tool deep: the tool worker's reply is nested deeper than 128 levels (byte offset 166)"));
        ToolWorker::forProject(dir.path())->stop();
    }

    // Not depth but size, on the same channel (issue 16, found by attack): the studio
    // buffered a reply line whole, up to the worker's 2 GiB, before parsing it.
    void pythonWorkerReplyTooLong()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"t\"}"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("tools/long.py")),
                          "class Tools:\n"
                          "    def long(self) -> str:\n"
                          "        return 'x' * (64 * 1024 * 1024 + 1)\n"));
        PythonHandler handler;
        const HandlerOutcome outcome = runHandlerAttempt(handler, dir.path(), QStringLiteral("long"));
        QVERIFY(!outcome.ok);
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral("the tool worker's reply is longer than 67108864 bytes (a Python tool's result must "
                                "fit in that as JSON); the worker is restarted for the next call"));
        QCOMPARE(outcome.error.retryable, false);
        ToolWorker::forProject(dir.path())->stop();
    }

    void mockSequenceInTheManifest()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                          "{\"name\": \"t\", \"tools\": [{\"name\": \"m\", \"input_schema\": {\"type\": \"object\"},\n"
                          "  \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": "
                              + nested(Deep) + "}]}}]}\n"));
        ProjectError error;
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.toString(),
                 dir.filePath(QStringLiteral("toolstudio.json"))
                     + QStringLiteral(":2:177: the manifest is nested deeper than 128 levels"));
    }

    void answersFile()
    {
        QString error;
        QVERIFY(!AnswerFile::parse("{\"ask\": {\"result\": " + nested(Deep) + "}}", QStringLiteral("answers.json"),
                                   &error));
        QCOMPARE(error, QStringLiteral("answers.json:1:146: the answers file is nested deeper than 128 levels"));
    }

    void cassette()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.cassette.json"));
        QVERIFY(
            writeFile(path, "{\"format\": \"toolstudio-cassette\", \"steps\": [{\"result\": " + nested(Deep) + "}]}"));
        QString error;
        QVERIFY(!loadCassette(path, &error));
        QCOMPARE(error, path + QStringLiteral(": the cassette is nested deeper than 128 levels (byte offset 180)"));
    }

    void importedRun()
    {
        QString error;
        QVERIFY(!TraceExport::readRunJson("{\"steps\": [{\"result\": " + nested(Deep) + "}]}", &error));
        QCOMPARE(error, QStringLiteral("line 1, column 148: the run is nested deeper than 128 levels"));
    }

    // Found by attack (issue 16): these read outside JSON with nlohmann::json::parse of
    // their own, without the bound, and crashed the studio (`tools import`, `tools bundle
    // export`, a Python tool call, an edit of the manifest). All read JsonInput::read now.
    void importedToolList()
    {
        QString error;
        const QByteArray list
            = "[{\"name\": \"x\", \"input_schema\": {\"type\": \"object\", \"default\": " + nested(Deep) + "}}]";
        QVERIFY(!ToolImport::parseDefinitions(list, ToolImport::As::Manual, &error));
        QCOMPARE(error, QStringLiteral("not valid JSON: line 1, column 187: nested deeper than 128 levels"));
    }

    void valvesInTheProject()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral(".toolstudio/valves.json")),
                          "{\"tools/w.py\": {\"Valves\": {\"k\": " + nested(Deep) + "}}}"));
        QString error;
        const ValveStore store = ValveStore::load(dir.path(), &error);
        QCOMPARE(error,
                 dir.filePath(QStringLiteral(".toolstudio/valves.json"))
                     + QStringLiteral(": not a JSON object; the valves take their defaults"));
        QCOMPARE(QByteArray::fromStdString(store.all().dump()), QByteArray("{}"));
    }

    void manifestReadForAnEdit()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": " + nested(Deep) + "}"));
        QString error;
        QVERIFY(!ProjectWriter::readManifest(dir.path(), &error));
        QCOMPARE(error, QStringLiteral("toolstudio.json: line 1, column 137: nested deeper than 128 levels"));
    }

    void journalValue()
    {
        QVERIFY(!JournalRows::parseJson(QString::fromLatin1(nested(Deep))));
        QCOMPARE(QByteArray::fromStdString(JournalRows::parseJson(QStringLiteral("[[2]]"))->dump()),
                 QByteArray("[[2]]"));
    }
};

QTEST_GUILESS_MAIN(TestJsonDepth)
#include "tst_jsondepth.moc"
