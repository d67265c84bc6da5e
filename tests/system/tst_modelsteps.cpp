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
#include "journalsteps.h"
#include "testfiles.h"
#include "waitingrun.h"

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
constexpr int ExitBadInput = 2;

QString runIdOf(const QByteArray &out)
{
    const auto runs = jsonEvents(out, "run");
    return runs.empty() ? QString() : QString::fromStdString(runs.front().value("id", ""));
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

    /// The model-agent example's cassette (issue 19 item 7) is what its `local` script
    /// records against the fake server: recording it again here gives the same steps.
    /// Replayed from `init`'s copy with no server at the model's address, it sends no
    /// request and prints the recorded answer.
    void exampleCassetteIsTheFakeServersRunAndReplaysOffline()
    {
        QTemporaryDir scratch;
        const QString dir = scratch.filePath(QStringLiteral("demo"));
        const CommandResult init = toolstudioAsGiven(
            {QStringLiteral("init"), dir, QStringLiteral("--template"), QStringLiteral("model-agent")});
        QVERIFY2(init.exitCode == 0, init.err.constData());
        const QString cassette = dir + QStringLiteral("/cassettes/local.cassette.json");
        const json shipped = json::parse(fileBytes(cassette).toStdString());
        QCOMPARE(shipped.value("script", ""), "scripts/local.py");

        const int before = requestCount();
        const CommandResult replay = toolstudio({QStringLiteral("replay"), dir, QStringLiteral("-"),
                                                 QStringLiteral("--cassette"), cassette, QStringLiteral("--json")});
        QVERIFY2(replay.exitCode == ExitCompleted, replay.err.constData());
        QCOMPARE(requestCount(), before);
        QCOMPARE(scriptStdout(replay.out),
                 QByteArray("100 EUR is 108.00 USD (rate 1.08).\n2 model turns, 40 + 14 tokens\n"));
        QCOMPARE(stepLines(journalSteps(dir, runIdOf(replay.out))),
                 (QStringList{QStringLiteral("model:local memoized"), QStringLiteral("get_exchange_rate memoized"),
                              QStringLiteral("model:local memoized")}));

        // Recorded again from the fake server: the same steps, arguments and results.
        QByteArray manifest = fileBytes(dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.contains("http://127.0.0.1:11434/v1"));
        manifest.replace("http://127.0.0.1:11434/v1", (m_base + QStringLiteral("/convert")).toUtf8());
        QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), manifest));
        const CommandResult live
            = toolstudio({QStringLiteral("run"), dir, QStringLiteral("local"), QStringLiteral("--json")});
        QVERIFY2(live.exitCode == ExitCompleted, live.err.constData());
        QCOMPARE(requestCount(), before + 2);
        const QString recorded = scratch.filePath(QStringLiteral("again.cassette.json"));
        const CommandResult save = toolstudio(
            {QStringLiteral("replay"), dir, runIdOf(live.out), QStringLiteral("--save-cassette"), recorded});
        QVERIFY2(save.exitCode == 0, save.err.constData());
        json again = json::parse(fileBytes(recorded).toStdString());
        QCOMPARE(again.at("steps").size(), std::size_t(3));
        again["run"] = shipped.at("run");
        QVERIFY2(again == shipped, again.dump(1).c_str());
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

    /// A server that stops in the middle of a streamed reply (issue 19's "a timeout
    /// mid-stream"): the attempt ends with a retryable timeout naming the URL, and the
    /// model's retry policy asks again; the journal has both attempts.
    void aStreamStalledMidReplyIsRetried()
    {
        QTemporaryDir dir;
        const QString url = m_base + QStringLiteral("/streamstall");
        writeProject(
            dir.path(), url,
            "from toolstudio import models, ToolError\n"
            "try:\n"
            "    models.local.chat([{'role': 'user', 'content': 'Hi'}], tools='none')\n"
            "except ToolError as e:\n"
            "    print(e.code, e.retryable, e.message)\n",
            QByteArray::fromStdString(json{{"models",
                                            {{{"name", "local"},
                                              {"provider", "openai-chat"},
                                              {"base_url", url.toStdString()},
                                              {"model", "fake-1"},
                                              {"timeout_seconds", 1},
                                              {"retry", {{"max_attempts", 2}, {"initial_backoff_seconds", 0}}}}}}}
                                          .dump()));
        const int before = requestCount();
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        const QByteArray message = QStringLiteral("model 'local': no complete answer from %1/chat/completions within "
                                                  "1 s (timeout_seconds)")
                                       .arg(url)
                                       .toUtf8();
        QCOMPARE(scriptStdout(run.out), QByteArray("timeout True ") + message + '\n');
        QCOMPARE(requestCount() - before, 2);
        const std::vector<Step> steps = journalSteps(dir.path(), runIdOf(run.out));
        QCOMPARE(stepLines(steps), QStringList{QStringLiteral("model:local failed")});
        QCOMPARE(steps.front().attempts.size(), std::size_t(2));
        for (const Attempt &attempt : steps.front().attempts) {
            QVERIFY(attempt.error);
            QCOMPARE(QByteArray::fromStdString(attempt.error->message), message);
            QVERIFY(attempt.streamed.isEmpty()); // live only: never journaled
        }
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
    // A model frame over the bridge's line bound (a script past the shim's own check)
    // fails only that call, request_too_large, as a tool call's does; the run goes on.
    void oversizedModelFrameFailsOnlyThatCall()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QStringLiteral("/ok"),
                     "import toolstudio\n"
                     "from toolstudio import models, ToolError\n"
                     "toolstudio._MODEL_REQUEST_BYTES = None  # past the shim's own check\n"
                     "try:\n"
                     "    models.local.chat([{'role': 'user', 'content': 'x' * 400000}], tools='none')\n"
                     "except ToolError as e:\n"
                     "    print(e.code, e.message)\n"
                     "print(models.local.chat([{'role': 'user', 'content': '1 EUR?'}], tools='none').content)\n",
                     R"({"limits": {"model_request_bytes": 1000}})");
        const int before = requestCount();
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        const QByteArray out = scriptStdout(run.out);
        const QList<QByteArray> lines = out.split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith("request_too_large the request to model local is 400111 bytes"), out.constData());
        QVERIFY2(lines[0].endsWith(" bytes on the bridge; the limit is 1000 bytes (limits.model_request_bytes), so "
                                   "it was not read"),
                 out.constData());
        QCOMPARE(lines[1], QByteArray("1 EUR is 1.08 USD."));
        QCOMPARE(stepLines(journalSteps(dir.path(), runIdOf(run.out))),
                 (QStringList{QStringLiteral("model:local failed"), QStringLiteral("model:local succeeded")}));
        QCOMPARE(requestCount(), before + 1); // the oversized request never left the studio
    }

    // Rerun from a mock model's second turn: the memoized first turn moved the mock's
    // turn counter on, so the rerun step gets turn 2 (the answer), as the recorded run did.
    void memoizedModelStepsAdvanceAMockModel()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base, agentScript("toolstudio.agent('100 EUR in USD?', model='scripted')"),
                     R"({"models": [{"name": "scripted", "provider": "mock", "turns": [
                           {"tool_calls": [{"name": "get_exchange_rate", "arguments": {"base": "EUR", "quote": "USD"}}]},
                           {"content": "1 EUR is 1.08 USD."}]}]})");
        const CommandResult first = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(first.exitCode == ExitCompleted, first.err.constData());
        const QByteArray answer("1 EUR is 1.08 USD.\n4 2 {'input_tokens': 0, 'output_tokens': 0}\n");
        QCOMPARE(scriptStdout(first.out), answer);
        const QString model = QStringLiteral("model:scripted");
        QCOMPARE(stepLines(journalSteps(dir.path(), runIdOf(first.out))),
                 (QStringList{model + QStringLiteral(" succeeded"), QStringLiteral("get_exchange_rate succeeded"),
                              model + QStringLiteral(" succeeded")}));

        const CommandResult rerun
            = toolstudio({QStringLiteral("replay"), dir.path(), runIdOf(first.out), QStringLiteral("--from"),
                          QStringLiteral("3"), QStringLiteral("--json")});
        QVERIFY2(rerun.exitCode == ExitCompleted, rerun.err.constData());
        QCOMPARE(scriptStdout(rerun.out), answer);
        QCOMPARE(stepLines(journalSteps(dir.path(), runIdOf(rerun.out))),
                 (QStringList{model + QStringLiteral(" memoized"), QStringLiteral("get_exchange_rate memoized"),
                              model + QStringLiteral(" succeeded")}));
    }

    // `run --step`: `a JSON` on a held model step is a reply as a `manual` model takes
    // it, checked as that turn is (refused: asked again), and becomes the step's result.
    void stepModeAnswersAModelStepInstead()
    {
        QTemporaryDir dir;
        writeProject(
            dir.path(), m_base, agentScript("toolstudio.agent('100 EUR in USD?', model='scripted', tools='none')"),
            R"({"models": [{"name": "scripted", "provider": "mock", "turns": [{"content": "from the mock"}]}]})");
        const CommandResult run
            = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--step"), QStringLiteral("--json")},
                         QByteArray("a {\"tool_calls\": [{\"name\": \"get_exchange_rate\", \"arguments\": {}}]}\n"
                                    "a {\"content\": \"108 USD, by hand.\"}\n"));
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        QVERIFY2(run.err.contains("the model reply: tool_calls[0] calls \"get_exchange_rate\", which the model was "
                                  "not offered (offered: no tools)"),
                 run.err.constData());
        QCOMPARE(scriptStdout(run.out), QByteArray("108 USD, by hand.\n2 1 {'input_tokens': 0, 'output_tokens': 0}\n"));
        const std::vector<Step> steps = journalSteps(dir.path(), runIdOf(run.out));
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps[0].result->dump(),
                 std::string("{\"message\":{\"content\":\"108 USD, by hand.\",\"role\":"
                             "\"assistant\"},\"stop_reason\":\"stop\",\"usage\":{"
                             "\"input_tokens\":0,\"output_tokens\":0}}"));
    }

    // Rerun from a model step with an edited request: checked as a script's request is
    // (the messages' shape, the request cap) before a run is made; nothing is journaled
    // and nothing is sent.
    void rerunRefusesAnEditedRequestThatCannotBeSent_data()
    {
        QTest::addColumn<QByteArray>("messages");
        QTest::addColumn<QByteArray>("reason");
        QTest::newRow("no messages") << QByteArray("[]")
                                     << QByteArray("request to model scripted: 'messages' is empty; give at least one "
                                                   "user message");
        QTest::newRow("tool message without its call id")
            << QByteArray(R"([{"role": "tool", "content": "1.08"}])")
            << QByteArray("request to model scripted: messages[0]: a 'tool' message needs 'tool_call_id' (the id of "
                          "the call it answers)");
        const QByteArray big = QByteArray(R"([{"role": "user", "content": ")") + QByteArray(1000, 'x') + "\"}]";
        QTest::newRow("over the request cap") << big
                                              << QByteArray("the edited request to model scripted is %1 bytes; "
                                                            "the limit is 1000 bytes (limits.model_request_bytes)");
    }

    void rerunRefusesAnEditedRequestThatCannotBeSent()
    {
        QFETCH(QByteArray, messages);
        QFETCH(QByteArray, reason);
        QTemporaryDir dir;
        writeProject(dir.path(), m_base, agentScript("toolstudio.agent('100 EUR in USD?', model='scripted')"),
                     R"({"limits": {"model_request_bytes": 1000},
                         "models": [{"name": "scripted", "provider": "mock", "turns": [{"content": "1 EUR is 1.08 USD."}]}]})");
        const CommandResult first = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(first.exitCode == ExitCompleted, first.err.constData());
        const QString runId = runIdOf(first.out);
        json request = journalSteps(dir.path(), runId).at(0).args;
        request["messages"] = json::parse(messages.toStdString());
        const QString edited = QString::fromStdString(request.dump());
        const QString why
            = reason.contains("%1") ? QString::fromUtf8(reason).arg(edited.toUtf8().size()) : QString::fromUtf8(reason);

        const CommandResult rerun
            = toolstudio({QStringLiteral("replay"), dir.path(), runId, QStringLiteral("--from"), QStringLiteral("1"),
                          QStringLiteral("--args"), edited, QStringLiteral("--json")});
        QCOMPARE(rerun.exitCode, ExitBadInput);
        QCOMPARE(QString::fromUtf8(rerun.err),
                 QStringLiteral("toolstudio replay: step 1 cannot be rerun with this request: %1\n").arg(why));
        Journal journal;
        QVERIFY(journal.open(dir.path() + QStringLiteral("/.toolstudio/journal.sqlite")));
        QCOMPARE(journal.runs().size(), std::size_t(1)); // no run was made
    }

    // The Node shim's models.NAME.chat and agent, as the Python shim's (the same fake
    // server scenarios, the same steps in the journal).
    void nodeAgentMirrorsPython_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QByteArray>("call");
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QStringList>("steps");
        const QString model = QStringLiteral("model:local succeeded");
        const QString rate = QStringLiteral("get_exchange_rate succeeded");
        QTest::newRow("concurrent tool calls")
            << QStringLiteral("agent") << QByteArray("agent('Rates to USD?', {model: 'local', system: 'Be brief.'})")
            << QByteArray("answer: 1.08 | 1.27\n6 2 {\"input_tokens\":40,\"output_tokens\":14}\n")
            << QStringList{model, rate, rate, model};
        QTest::newRow("unknown tool") << QStringLiteral("unknowntool") << QByteArray("agent('Rates?')")
                                      << QByteArray("answer: unknown_tool: no tool named 'no_such_tool' in this "
                                                    "project\n4 2 {\"input_tokens\":40,\"output_tokens\":14}\n")
                                      << QStringList{model, QStringLiteral("no_such_tool failed"), model};
        QTest::newRow("max turns")
            << QStringLiteral("loop") << QByteArray("agent('Go', {maxTurns: 2})")
            << QByteArray("error max_turns_exceeded the model local was still calling tools after 2 turns "
                          "(agent(..., {maxTurns: 2})); no final answer 5\n")
            << QStringList{model, rate, model, rate};
        QTest::newRow("unknown model")
            << QStringLiteral("ok") << QByteArray("models.nope.chat([{role: 'user', content: 'Hi'}])")
            << QByteArray("error unknown_model no model named 'nope' in this project (toolstudio.json 'models' "
                          "has: local) 0\n")
            << QStringList{QStringLiteral("model:nope failed")};
        QTest::newRow("one chat") << QStringLiteral(
            "ok") << QByteArray("models.local.chat([{role: 'user', content: '1 EUR?'}], {tools: 'none'})")
                                  << QByteArray("1 EUR is 1.08 USD. 11 5 stop\n") << QStringList{model};
    }

    void nodeAgentMirrorsPython()
    {
        QFETCH(QString, scenario);
        QFETCH(QByteArray, call);
        QFETCH(QByteArray, output);
        QFETCH(QStringList, steps);
        if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
            QSKIP("node is not installed: the Node shim cannot run");
        QTemporaryDir dir;
        writeProject(dir.path(), m_base + QLatin1Char('/') + scenario, "",
                     R"({"scripts": [{"name": "main", "path": "scripts/main.js"}]})");
        QVERIFY(
            writeFile(dir.path() + QStringLiteral("/scripts/main.js"),
                      "const { models, agent, ToolError } = require('toolstudio');\n"
                      "(async () => {\n"
                      "  try {\n"
                      "    const result = await "
                          + call
                          + ";\n"
                            "    if (result.stop_reason) { console.log(result.content, result.usage.input_tokens, "
                            "result.usage.output_tokens, result.stop_reason); return; }\n"
                            "    console.log(result.text);\n"
                            "    console.log(result.transcript.length, result.turns, JSON.stringify(result.usage));\n"
                            "  } catch (e) {\n"
                            "    if (!(e instanceof ToolError)) throw e;\n"
                            "    console.log('error', e.code, e.message, (e.details.transcript || []).length);\n"
                            "  }\n"
                            "})();\n"));
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        QCOMPARE(scriptStdout(run.out), output);
        QCOMPARE(stepLines(journalSteps(dir.path(), runIdOf(run.out))), steps);
    }

    // A person plays a `manual` model headless: `toolstudio answer` takes the reply in a
    // mock turn's shape; a call of a tool the model was not offered is refused (the
    // person corrects it); the loop goes on exactly as with a real model.
    void manualModelIsAnsweredHeadless()
    {
        QTemporaryDir dir;
        writeProject(dir.path(), m_base, agentScript("toolstudio.agent('100 EUR in USD?', model='teacher')"),
                     R"({"models": [{"name": "teacher", "provider": "manual"}]})");
        WaitingRun run;
        QVERIFY2(run.start(dir.path(), QStringLiteral("model:teacher")), run.err.constData());
        const QString firstTurn = run.callId;
        const auto answer = [&](const QString &call, const char *reply) {
            return toolstudio({QStringLiteral("answer"), dir.path(), run.runId, call, QStringLiteral("--result"),
                               QString::fromUtf8(reply)});
        };

        const CommandResult refused = answer(firstTurn, R"({"tool_calls": [{"name": "nope", "arguments": {}}]})");
        QCOMPARE(refused.exitCode, ExitRunFailed);
        QCOMPARE(refused.err,
                 QByteArray("toolstudio answer: refused: the model reply: tool_calls[0] calls \"nope\", "
                            "which the model was not offered (offered: get_exchange_rate)\n"));
        const CommandResult notAReply = answer(firstTurn, R"("1.08")");
        QCOMPARE(notAReply.exitCode, ExitRunFailed);
        QVERIFY2(notAReply.err.startsWith("toolstudio answer: refused: the model reply: must be an object, not a "
                                          "string (a reply is {\"content\": \"text\"}"),
                 notAReply.err.constData());

        const CommandResult called = answer(
            firstTurn,
            R"({"tool_calls": [{"name": "get_exchange_rate", "arguments": {"base": "EUR", "quote": "USD"}}]})");
        QVERIFY2(called.exitCode == ExitCompleted, called.err.constData());
        QVERIFY2(run.waitFor(QStringLiteral("model:teacher")), run.err.constData());
        QVERIFY(run.callId != firstTurn);
        const CommandResult final = answer(run.callId, R"({"content": "1 EUR is 1.08 USD."})");
        QVERIFY2(final.exitCode == ExitCompleted, final.err.constData());
        run.finish();
        QCOMPARE(run.process.exitCode(), ExitCompleted);
        QCOMPARE(scriptStdout(run.out),
                 QByteArray("1 EUR is 1.08 USD.\n4 2 {'input_tokens': 0, 'output_tokens': 0}\n"));
        const std::vector<Step> steps = journalSteps(dir.path(), run.runId);
        QCOMPARE(stepLines(steps),
                 (QStringList{QStringLiteral("model:teacher succeeded"), QStringLiteral("get_exchange_rate succeeded"),
                              QStringLiteral("model:teacher succeeded")}));
        QVERIFY(steps[0].result);
        // moc cannot read raw string literals inside a macro's arguments: a plain one.
        const QString expected
            = QStringLiteral("{\"message\":{\"content\":null,\"role\":\"assistant\",\"tool_calls\":[{\"function\":"
                             "{\"arguments\":\"{\\\"base\\\":\\\"EUR\\\",\\\"quote\\\":\\\"USD\\\"}\",\"name\":"
                             "\"get_exchange_rate\"},\"id\":\"call_1_1\",\"type\":\"function\"}]},\"stop_reason\":"
                             "\"tool_calls\",\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}");
        QCOMPARE(QString::fromStdString(steps[0].result->dump()), expected);
    }
};

QTEST_GUILESS_MAIN(TestModelSteps)
#include "tst_modelsteps.moc"
