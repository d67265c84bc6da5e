// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The model step and the stock agent loop end to end (issue 19 items 2 and 3): a
// sandboxed Python script run headless (`toolstudio run --json`) asks a model of
// toolstudio.json through the bridge; the studio sends the request to a local fake
// server (tests/data/models/fakemodelserver.py on 127.0.0.1) and journals a step of kind
// `model`. Replay answers model steps from the journal without a request.

#include "clirunner.h"
#include "fakemodelserver.h"
#include "journal/journal.h"
#include "testfiles.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

constexpr int ExitCompleted = 0;
constexpr int ExitRunFailed = 1;

QByteArray scriptStdout(const QByteArray &out)
{
    QByteArray text;
    for (const json &event : jsonEvents(out, "output"))
        if (event.value("stream", "") == "stdout")
            text += QByteArray::fromStdString(event.value("text", ""));
    return text;
}

QString runIdOf(const QByteArray &out)
{
    const auto runs = jsonEvents(out, "run");
    return runs.empty() ? QString() : QString::fromStdString(runs.front().value("id", ""));
}

std::vector<Step> journalSteps(const QString &dir, const QString &runId)
{
    Journal journal;
    if (!journal.open(dir + QStringLiteral("/.toolstudio/journal.sqlite")))
        return {};
    return journal.steps(runId);
}

/// "model:local succeeded", "get_exchange_rate succeeded", … in sequence order.
QStringList stepLines(const std::vector<Step> &steps)
{
    QStringList lines;
    for (const Step &step : steps)
        lines << step.tool + QLatin1Char(' ') + stepStatusName(step.status);
    return lines;
}

} // namespace

class TestModelSteps : public QObject
{
    Q_OBJECT

private:
    FakeModelServer m_server;
    QString m_base; ///< http://127.0.0.1:PORT

    /// POST requests the fake server has received so far.
    int requestCount() { return m_server.get(QStringLiteral("/count")).value("count", -1); }

    /// A project: the mock tool get_exchange_rate (300 ms per call, "1.08" then "1.27"),
    /// the model `local` at `baseUrl` (openai-chat, one attempt), scripts/main.py = `script`.
    static void writeProject(const QString &dir, const QString &baseUrl, const QByteArray &script,
                             const QByteArray &extra = {})
    {
        QVERIFY(writeFile(dir + QStringLiteral("/scripts/main.py"), script));
        const json manifest
            = {{"name", "models"},
               {"default_script", "main"},
               {"scripts", {{{"name", "main"}, {"path", "scripts/main.py"}}}},
               {"retry", {{"max_attempts", 1}}},
               {"tools",
                {{{"name", "get_exchange_rate"},
                  {"description", "The exchange rate from base to quote"},
                  {"input_schema",
                   {{"type", "object"},
                    {"properties", {{"base", {{"type", "string"}}}, {"quote", {{"type", "string"}}}}},
                    {"required", {"base", "quote"}}}},
                  {"handler",
                   {{"kind", "mock"},
                    {"sequence",
                     {{{"result", "1.08"}, {"delay_seconds", 0.3}}, {{"result", "1.27"}, {"delay_seconds", 0.3}}}}}}}}},
               {"models",
                {{{"name", "local"},
                  {"provider", "openai-chat"},
                  {"base_url", baseUrl.toStdString()},
                  {"model", "fake-1"},
                  {"retry", {{"max_attempts", 1}}}}}}};
        json withExtra = manifest;
        if (!extra.isEmpty())
            withExtra.update(json::parse(extra.toStdString()));
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(withExtra.dump(2))));
    }

    static QByteArray agentScript(const char *call)
    {
        return QByteArray("import toolstudio\nfrom toolstudio import ToolError\ntry:\n    result = ") + call
            + "\n    print(result.text)\n    print(len(result.transcript), result.turns, result.usage)\n"
              "except ToolError as e:\n    print('error', e.code, e.message)\n";
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (toolstudioBinary().isEmpty())
            QSKIP("TOOLSTUDIO_BINARY is not set (run this suite through CTest)");
        if (FakeModelServer::python().isEmpty())
            QSKIP("python3 is not installed: the fake model server and the scripts need it");
        const QString why = m_server.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        m_base = m_server.base();
    }

    void cleanupTestCase() { m_server.stop(); }

    void oneModelStepIsJournaledWithUsage()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QStringLiteral("/ok"),
                     "from toolstudio import models\n"
                     "reply = models.local.chat([{'role': 'user', 'content': '1 EUR?'}], tools='none')\n"
                     "print(reply.content, reply.usage['input_tokens'], reply.usage['output_tokens'], "
                     "reply.stop_reason)\n");
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        QCOMPARE(scriptStdout(run.out), QByteArray("1 EUR is 1.08 USD. 11 5 stop\n"));

        const std::vector<Step> steps = journalSteps(dir.path(), runIdOf(run.out));
        QCOMPARE(stepLines(steps), QStringList{QStringLiteral("model:local succeeded")});
        const Step &step = steps.front();
        QCOMPARE(QString::fromStdString(step.args.dump()),
                 QStringLiteral("{\"messages\":[{\"content\":\"1 EUR?\",\"role\":\"user\"}],\"model\":\"local\","
                                "\"tools\":[]}"));
        QVERIFY(step.result);
        QCOMPARE(QString::fromStdString((*step.result)["usage"].dump()),
                 QStringLiteral("{\"input_tokens\":11,\"output_tokens\":5}"));
        QCOMPARE(QString::fromStdString((*step.result)["message"].dump()),
                 QStringLiteral("{\"content\":\"1 EUR is 1.08 USD.\",\"role\":\"assistant\"}"));
        QCOMPARE(step.attempts.size(), std::size_t(1));
        QVERIFY(step.attempts.front().succeeded);
        // The trace line of --json shows the step's request and response JSON too.
        const auto events = jsonEvents(run.out, "step");
        QVERIFY(!events.empty());
        QCOMPARE(events.back().value("tool", ""), std::string("model:local"));
        QCOMPARE(events.back()["result"]["stop_reason"].get<std::string>(), std::string("stop"));
    }

    void agentRunsOneTurnsToolCallsConcurrently()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QStringLiteral("/agent"),
                     agentScript("toolstudio.agent('Rates to USD?', model='local', system='Be brief.')"));
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        // system, user, assistant (2 calls), 2 tool messages, the final assistant: 6.
        QCOMPARE(scriptStdout(run.out),
                 QByteArray("answer: 1.08 | 1.27\n6 2 {'input_tokens': 40, 'output_tokens': 14}\n"));
        const std::vector<Step> steps = journalSteps(dir.path(), runIdOf(run.out));
        QCOMPARE(stepLines(steps),
                 (QStringList{QStringLiteral("model:local succeeded"), QStringLiteral("get_exchange_rate succeeded"),
                              QStringLiteral("get_exchange_rate succeeded"), QStringLiteral("model:local succeeded")}));
        QCOMPARE(QString::fromStdString(steps[1].args.dump()), QStringLiteral("{\"base\":\"EUR\",\"quote\":\"USD\"}"));
        QCOMPARE(QString::fromStdString(steps[2].args.dump()), QStringLiteral("{\"base\":\"GBP\",\"quote\":\"USD\"}"));
        // Both calls of the turn were in flight together: the second started before the
        // first ended (one after the other, it could only start after 300 ms of the first).
        QVERIFY2(steps[2].startedAt < steps[1].endedAt,
                 qPrintable(QStringLiteral("%1 >= %2").arg(steps[2].startedAt).arg(steps[1].endedAt)));
        // The model was asked again only after both had ended, with both results.
        QVERIFY(steps[3].queuedAt >= std::max(steps[1].endedAt, steps[2].endedAt));
        const json &second = steps[3].args["messages"];
        QCOMPARE(QString::fromStdString(second.back().dump()),
                 QStringLiteral("{\"content\":\"1.27\",\"role\":\"tool\",\"tool_call_id\":\"call_gbp\"}"));
        QCOMPARE(QString::fromStdString(steps[0].args["tools"][0]["name"].dump()),
                 QStringLiteral("\"get_exchange_rate\""));
    }

    void badToolCallsGoBackToTheModel_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QByteArray>("answer"); ///< the start of the script's output
        QTest::addColumn<QStringList>("steps");
        QTest::newRow("unknown tool") << QStringLiteral(
            "unknowntool") << QByteArray("answer: unknown_tool: no tool named 'no_such_tool' in this project\n")
                                      << QStringList{QStringLiteral("model:local succeeded"),
                                                     QStringLiteral("no_such_tool failed"),
                                                     QStringLiteral("model:local succeeded")};
        QTest::newRow("invalid JSON arguments")
            << QStringLiteral("badargs") << QByteArray("answer: arguments are not valid JSON: ")
            << QStringList{QStringLiteral("model:local succeeded"), QStringLiteral("model:local succeeded")};
    }

    void badToolCallsGoBackToTheModel()
    {
        QFETCH(QString, scenario);
        QFETCH(QByteArray, answer);
        QFETCH(QStringList, steps);
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QLatin1Char('/') + scenario,
                     agentScript("toolstudio.agent('Rates?', model='local')"));
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        const QByteArray out = scriptStdout(run.out);
        // The first line of the output is the model's answer, quoting the error it was given.
        QVERIFY2(out.startsWith(answer), out.constData());
        if (scenario == QLatin1String("badargs"))
            QVERIFY2(out.left(out.indexOf('\n') + 1).endsWith("; they were: {not json\n"), out.constData());
        const std::vector<Step> recorded = journalSteps(dir.path(), runIdOf(run.out));
        QCOMPARE(stepLines(recorded), steps);
        // The error went back as a tool message marked is_error.
        const json &last = recorded.back().args["messages"].back();
        QCOMPARE(last.value("role", ""), std::string("tool"));
        QCOMPARE(last.value("is_error", false), true);
    }

    void maxTurnsEndsTheLoop()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QStringLiteral("/loop"),
                     agentScript("toolstudio.agent('Go', model='local', max_turns=2)"));
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        QCOMPARE(scriptStdout(run.out),
                 QByteArray("error max_turns_exceeded the model local was still calling tools after 2 turns "
                            "(agent(..., max_turns=2)); no final answer\n"));
        QCOMPARE(stepLines(journalSteps(dir.path(), runIdOf(run.out))),
                 (QStringList{QStringLiteral("model:local succeeded"), QStringLiteral("get_exchange_rate succeeded"),
                              QStringLiteral("model:local succeeded"), QStringLiteral("get_exchange_rate succeeded")}));
    }

    void unknownModel()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QStringLiteral("/ok"),
                     "from toolstudio import models, ToolError\n"
                     "try:\n"
                     "    models.nope.chat([{'role': 'user', 'content': 'Hi'}])\n"
                     "except ToolError as e:\n"
                     "    print(e.code, e.message)\n");
        const int before = requestCount();
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        QCOMPARE(scriptStdout(run.out),
                 QByteArray("unknown_model no model named 'nope' in this project (toolstudio.json 'models' has: "
                            "local)\n"));
        QCOMPARE(stepLines(journalSteps(dir.path(), runIdOf(run.out))),
                 QStringList{QStringLiteral("model:nope failed")});
        QCOMPARE(requestCount(), before);
    }

    void replaySendsNoRequest()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QStringLiteral("/agent"),
                     agentScript("toolstudio.agent('Rates to USD?', model='local')"));
        const int before = requestCount();
        const CommandResult first = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(first.exitCode == ExitCompleted, first.err.constData());
        QCOMPARE(requestCount(), before + 2); // two model turns
        const QString runId = runIdOf(first.out);

        const CommandResult replay
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--json")});
        QVERIFY2(replay.exitCode == ExitCompleted, replay.err.constData());
        QCOMPARE(scriptStdout(replay.out), scriptStdout(first.out));
        QCOMPARE(requestCount(), before + 2); // the replay asked the model nothing
        QCOMPARE(stepLines(journalSteps(dir.path(), runIdOf(replay.out))),
                 (QStringList{QStringLiteral("model:local memoized"), QStringLiteral("get_exchange_rate memoized"),
                              QStringLiteral("get_exchange_rate memoized"), QStringLiteral("model:local memoized")}));
    }

    void endpointDownNamesTheUrl()
    {
        QTcpServer probe; // a port nothing listens on once the probe is closed
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        QTemporaryDir dir;
        writeProject(dir.path(), QStringLiteral("http://127.0.0.1:%1/v1").arg(port),
                     "from toolstudio import models, ToolError\n"
                     "try:\n"
                     "    models.local.chat([{'role': 'user', 'content': 'Hi'}])\n"
                     "except ToolError as e:\n"
                     "    print(e.code, e.retryable, e.message)\n");
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        QCOMPARE(scriptStdout(run.out),
                 QStringLiteral("model_unreachable True model 'local': cannot reach "
                                "http://127.0.0.1:%1/v1/chat/completions: connection refused; is the server running?\n")
                     .arg(port)
                     .toUtf8());
    }

    void modelCallBudget()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QStringLiteral("/ok"),
                     "from toolstudio import models, ToolError\n"
                     "for i in range(3):\n"
                     "    try:\n"
                     "        print(models.local.chat([{'role': 'user', 'content': 'Hi'}], tools='none').content)\n"
                     "    except ToolError as e:\n"
                     "        print(e.code, e.message)\n",
                     R"({"limits": {"max_model_calls": 5, "max_tokens": 20}})");
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        // 16 tokens after the first call, 32 after the second: the third is refused.
        QCOMPARE(scriptStdout(run.out),
                 QByteArray("1 EUR is 1.08 USD.\n1 EUR is 1.08 USD.\nmax_tokens_exceeded the run has used 32 tokens; "
                            "the limit is 20 tokens per run (limits.max_tokens)\n"));
    }
};

QTEST_GUILESS_MAIN(TestModelSteps)
#include "tst_modelsteps.moc"
