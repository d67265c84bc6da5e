// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Issue 16, class 3: a number the JSON parser cannot hold (1e999, an integer of 400
// digits) wherever JSON enters the studio. nlohmann throws out_of_range for it, not
// parse_error, and every reader caught only parse_error: one such number in a command
// tool's stdout, a Python tool's result, a manifest, an answers file, a cassette or an
// imported run ended the studio (std::terminate). Found by tests/fuzz/fuzz_handleroutput.
// Each is now refused like any other invalid JSON, with the source named.

#include "cli/answerfile.h"
#include "engine/handlers/commandhandler.h"
#include "engine/handlers/handleroutput.h"
#include "engine/handlers/pythonhandler.h"
#include "engine/replaysource.h"
#include "exchange/traceexport.h"
#include "journal/journalrows.h"
#include "jsoninput.h"
#include "project/project.h"
#include "python/toolworker.h"

#include "handlerattempt.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestJsonNumbers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void handlerOutput()
    {
        const Result<nlohmann::json> result = parseHandlerOutput("{\"rate\": 1e999}", QStringLiteral("rate"));
        QVERIFY(!result);
        QCOMPARE(result.error(), QStringLiteral("command printed invalid JSON: number overflow parsing '1e999'"));
        const Result<nlohmann::json> fine = parseHandlerOutput("{\"rate\": 1e300}\n", QStringLiteral("rate"));
        QVERIFY(fine);
        QCOMPARE(fine->at("rate").get<double>(), 1e300);
    }

    void commandToolStdout()
    {
        QTemporaryDir dir;
        CommandHandler handler(
            {QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("print('[1, -3e1990]')")});
        const HandlerOutcome outcome = runHandlerAttempt(handler, dir.path(), QStringLiteral("lookup"));
        QVERIFY(!outcome.ok);
        QCOMPARE(QString::fromStdString(outcome.error.message),
                 QStringLiteral("command printed invalid JSON: number overflow parsing '-3e1990'"));
        QCOMPARE(outcome.error.retryable, false);
    }

    // Python's json.dumps writes 10**400 as its 401 digits; the call fails with the
    // reason (elided) instead of the studio ending, or the call waiting for its timeout.
    void pythonToolResult()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")), "{\"name\": \"t\"}"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("tools/big.py")),
                          "class Tools:\n"
                          "    def big(self) -> int:\n"
                          "        return 10**400\n"));
        PythonHandler handler;
        const HandlerOutcome outcome = runHandlerAttempt(handler, dir.path(), QStringLiteral("big"));
        QVERIFY(!outcome.ok);
        const QString message = QString::fromStdString(outcome.error.message);
        QVERIFY2(message.startsWith(QLatin1String("python tool big: the tool worker's reply is not valid JSON: "
                                                  "number overflow parsing '1000")),
                 qPrintable(message));
        QVERIFY2(message.endsWith(QStringLiteral("… (427 bytes) (byte offset 39)")), qPrintable(message));
        ToolWorker::forProject(dir.path())->stop();
    }

    void manifest()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                          "{\"name\": \"t\", \"tools\": [{\"name\": \"m\", \"input_schema\": {\"type\": \"object\", "
                          "\"properties\": {\"n\": {\"maximum\": 1e999}}},\n"
                          "  \"handler\": {\"kind\": \"mock\", \"sequence\": [{\"result\": 1}]}}]}\n"));
        ProjectError error;
        QVERIFY(!Project::load(dir.path(), &error));
        QCOMPARE(error.toString(),
                 dir.filePath(QStringLiteral("toolstudio.json")) + QStringLiteral(": number overflow parsing '1e999'"));
    }

    void answersFile()
    {
        QString error;
        QVERIFY(!AnswerFile::parse("{\"ask\": {\"result\": 1e999}}", QStringLiteral("answers.json"), &error));
        QCOMPARE(error, QStringLiteral("answers.json: number overflow parsing '1e999'"));
    }

    void cassette()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.cassette.json"));
        QVERIFY(writeFile(path,
                          "{\"format\": \"toolstudio-cassette\", \"steps\": [{\"sequence\": 1, \"tool\": \"t\", "
                          "\"result\": 1e999}]}"));
        QString error;
        QVERIFY(!loadCassette(path, &error));
        QCOMPARE(error,
                 path
                     + QStringLiteral(": not a Tool Studio cassette (expected {\"format\": "
                                      "\"toolstudio-cassette\", \"steps\": […]})"));
    }

    void importedRun()
    {
        QString error;
        QVERIFY(
            !TraceExport::readRunJson("{\"format\": \"toolstudio-run\", \"steps\": [{\"result\": 1e999}]}", &error));
        QCOMPARE(error, QStringLiteral("not valid JSON: number overflow parsing '1e999'"));
    }

    void jsonInput()
    {
        std::string problem;
        const nlohmann::json value = JsonInput::parse("[1e999]", "the answer", &problem);
        QVERIFY(value.is_discarded());
        QCOMPARE(QString::fromStdString(problem),
                 QStringLiteral("the answer is not valid JSON: number overflow parsing '1e999' (byte offset 1)"));
        QVERIFY(!JournalRows::parseJson(QStringLiteral("{\"v\": -1e400}")));
    }
};

QTEST_GUILESS_MAIN(TestJsonNumbers)
#include "tst_jsonnumbers.moc"
