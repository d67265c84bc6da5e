// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// `toolstudio chat` (issue 19 item 4, docs/models.md "Chat"): one user turn of a chat run
// — the studio's chat script running the stock loop over the project's tools — printed
// as the model's reply; `--continue RUN` adds the next turn to the same run, with the
// conversation so far sent to the model. Mock models (no network) and the local fake
// model server (tests/data/models/fakemodelserver.py) answer.

#include "clirunner.h"
#include "fakemodelserver.h"
#include "journalsteps.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>

using json = nlohmann::json;

namespace {

constexpr int ExitCompleted = 0;
constexpr int ExitRunFailed = 1;
constexpr int ExitBadInput = 2;
/// The default endpoint of the model `local`: a port nobody listens on.
const QString NoServer = QStringLiteral("http://127.0.0.1:9/v1");

/// The run id of the last line on stderr ("chat run RUN waits for the next message: …").
QString chatRunId(const QByteArray &err)
{
    const QRegularExpression line(QStringLiteral("chat run (\\S+) waits for the next message"));
    const QRegularExpressionMatch match = line.match(QString::fromUtf8(err));
    return match.hasMatch() ? match.captured(1) : QString();
}

/// A project: the mock tool get_exchange_rate (1.08), the mock model `scripted` (a tool
/// call, then two answers), the mock model `broken` (an error turn, then an answer) and
/// `local` (openai-chat at `baseUrl`, one attempt); `models` replaces the models.
void writeProject(const QString &dir, const QString &baseUrl = NoServer, const json &models = nullptr)
{
    json manifest
        = {{"name", "chat"},
           {"tools",
            {{{"name", "get_exchange_rate"},
              {"description", "The exchange rate from base to quote"},
              {"input_schema",
               {{"type", "object"},
                {"properties", {{"base", {{"type", "string"}}}, {"quote", {{"type", "string"}}}}},
                {"required", {"base", "quote"}}}},
              {"handler", {{"kind", "mock"}, {"sequence", {{{"result", 1.08}}}}}}}}},
           {"models",
            {{{"name", "scripted"},
              {"provider", "mock"},
              {"turns",
               {{{"tool_calls", {{{"name", "get_exchange_rate"}, {"arguments", {{"base", "EUR"}, {"quote", "USD"}}}}}},
                 {"usage", {{"input_tokens", 52}, {"output_tokens", 18}}}},
                {{"content", "100 EUR is 108.00 USD."}, {"usage", {{"input_tokens", 71}, {"output_tokens", 12}}}},
                {{"content", "200 EUR is 216.00 USD."}}}}},
             {{"name", "broken"},
              {"provider", "mock"},
              {"turns", {{{"error", "the model is down"}, {"retryable", false}}, {{"content", "Back again."}}}}},
             {{"name", "local"},
              {"provider", "openai-chat"},
              {"base_url", baseUrl.toStdString()},
              {"model", "fake-1"},
              {"retry", {{"max_attempts", 1}}}}}}};
    if (!models.is_null())
        manifest["models"] = models;
    QVERIFY(writeFile(dir + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(manifest.dump(2))));
}

} // namespace

class TestChat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!toolstudioBinary().isEmpty(), "TOOLSTUDIO_BINARY is not set (run this suite through CTest)");
        if (FakeModelServer::python().isEmpty())
            QSKIP("python3 is not installed: the chat script and the fake model server need it");
    }

    void firstTurnPrintsTheReplyAndJournalsTheSteps()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        const CommandResult chat = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("--system"),
                                               QStringLiteral("Be brief."), QStringLiteral("100 EUR in USD?")});
        QVERIFY2(chat.exitCode == ExitCompleted, chat.err.constData());
        QCOMPARE(chat.out, QByteArray("100 EUR is 108.00 USD.\n"));
        const QString runId = chatRunId(chat.err);
        QVERIFY2(!runId.isEmpty(), chat.err.constData());
        QCOMPARE(chat.err,
                 QByteArray("[model:scripted] succeeded (52 + 18 tokens)\n"
                            "[tool] get_exchange_rate {\"base\":\"EUR\",\"quote\":\"USD\"} -> 1.08\n"
                            "[model:scripted] succeeded (71 + 12 tokens)\n"
                            "chat run ")
                     + runId.toUtf8() + " waits for the next message: toolstudio chat " + dir.path().toUtf8()
                     + " --continue " + runId.toUtf8() + " MESSAGE\n");

        // The run is a chat; once this process has exited it is suspended, its next
        // input waiting; every model turn and tool call is a step.
        const auto run = journalRun(dir.path(), runId);
        QVERIFY(run);
        QCOMPARE(run->kind, RunKind::Chat);
        QCOMPARE(run->status, RunStatus::Suspended);
        const std::vector<Step> steps = journalSteps(dir.path(), runId);
        QCOMPARE(stepLines(steps),
                 (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:scripted succeeded"),
                              QStringLiteral("get_exchange_rate succeeded"), QStringLiteral("model:scripted succeeded"),
                              QStringLiteral("chat:message waiting")}));
        QCOMPARE(QString::fromStdString(steps[0].args.dump()), QStringLiteral("{\"reply\":null,\"turn\":1}"));
        QCOMPARE(QString::fromStdString(steps[0].result->dump()),
                 QStringLiteral("{\"message\":\"100 EUR in USD?\",\"model\":\"scripted\",\"system\":\"Be brief.\"}"));
        QCOMPARE(QString::fromStdString(steps[1].args["messages"].dump()),
                 QStringLiteral("[{\"content\":\"Be brief.\",\"role\":\"system\"},"
                                "{\"content\":\"100 EUR in USD?\",\"role\":\"user\"}]"));
        // The model is offered the project's tools, not the chat's own input.
        QCOMPARE(steps[1].args["tools"].size(), std::size_t(1));
        QCOMPARE(steps[1].args["tools"][0].value("name", ""), std::string("get_exchange_rate"));
        QCOMPARE(QString::fromStdString(steps[4].args.dump()),
                 QStringLiteral("{\"reply\":\"100 EUR is 108.00 USD.\",\"turn\":2}"));
    }

    void continueAddsTheNextTurnToTheSameRun()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        const CommandResult first = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("--system"),
                                                QStringLiteral("Be brief."), QStringLiteral("100 EUR in USD?")});
        QVERIFY2(first.exitCode == ExitCompleted, first.err.constData());
        const QString runId = chatRunId(first.err);
        const CommandResult second = toolstudio(
            {QStringLiteral("chat"), dir.path(), QStringLiteral("--continue"), runId, QStringLiteral("And 200 EUR?")});
        QVERIFY2(second.exitCode == ExitCompleted, second.err.constData());
        QCOMPARE(second.out, QByteArray("200 EUR is 216.00 USD.\n"));
        QCOMPARE(chatRunId(second.err), runId);
        // Only this turn's model step is printed (the first turn's are memoized).
        QVERIFY2(second.err.startsWith("[model:scripted] succeeded (0 + 0 tokens)\nchat run "), second.err.constData());

        const std::vector<Step> steps = journalSteps(dir.path(), runId);
        QCOMPARE(stepLines(steps).mid(4),
                 (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:scripted succeeded"),
                              QStringLiteral("chat:message waiting")}));
        QCOMPARE(QString::fromStdString(steps[4].result->dump()), QStringLiteral("{\"message\":\"And 200 EUR?\"}"));
        // The model saw the whole conversation: the first turn, then the new message.
        QCOMPARE(QString::fromStdString(steps[5].args["messages"].dump()),
                 QStringLiteral("[{\"content\":\"Be brief.\",\"role\":\"system\"},"
                                "{\"content\":\"100 EUR in USD?\",\"role\":\"user\"},"
                                "{\"content\":null,\"role\":\"assistant\",\"tool_calls\":[{\"function\":{\"arguments\":"
                                "\"{\\\"base\\\":\\\"EUR\\\",\\\"quote\\\":\\\"USD\\\"}\",\"name\":"
                                "\"get_exchange_rate\"},\"id\":\"call_1_1\",\"type\":\"function\"}]},"
                                "{\"content\":\"1.08\",\"role\":\"tool\",\"tool_call_id\":\"call_1_1\"},"
                                "{\"content\":\"100 EUR is 108.00 USD.\",\"role\":\"assistant\"},"
                                "{\"content\":\"And 200 EUR?\",\"role\":\"user\"}]"));
        QCOMPARE(QString::fromStdString(steps[6].args.dump()),
                 QStringLiteral("{\"reply\":\"200 EUR is 216.00 USD.\",\"turn\":3}"));
    }

    void approveDecidesEachCallOnStdin_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("tool");  ///< the tool step: status, arguments → outcome
        QTest::addColumn<QString>("asked"); ///< stderr after the question, before the step lines
        QTest::newRow("y") << QByteArray("y\n")
                           << QStringLiteral("succeeded {\"base\":\"EUR\",\"quote\":\"USD\"} -> 1.08") << QString();
        QTest::newRow("an empty line") << QByteArray("\n")
                                       << QStringLiteral("succeeded {\"base\":\"EUR\",\"quote\":\"USD\"} -> 1.08")
                                       << QString();
        QTest::newRow("a typo, then e JSON")
            << QByteArray("maybe\ne {\"base\": \"EUR\", \"quote\": \"GBP\"}\n")
            << QStringLiteral("succeeded {\"base\":\"EUR\",\"quote\":\"GBP\"} -> 1.08")
            << QStringLiteral("toolstudio chat: answer y, n, e JSON or a JSON, not \"maybe\"; try again\n");
        QTest::newRow("arguments the schema refuses, then y")
            << QByteArray("e {\"base\": \"EUR\"}\ny\n")
            << QStringLiteral("succeeded {\"base\":\"EUR\",\"quote\":\"USD\"} -> 1.08") << QStringLiteral("REFUSED");
        QTest::newRow("a JSON") << QByteArray("a 2.5\n")
                                << QStringLiteral("succeeded {\"base\":\"EUR\",\"quote\":\"USD\"} -> 2.5") << QString();
        QTest::newRow("n") << QByteArray("n\n")
                           << QStringLiteral("failed {\"base\":\"EUR\",\"quote\":\"USD\"} -> the person rejected "
                                             "this call; the tool did not run")
                           << QString();
        QTest::newRow("the input ends")
            << QByteArray()
            << QStringLiteral("failed {\"base\":\"EUR\",\"quote\":\"USD\"} -> the person rejected "
                              "this call; the tool did not run")
            << QStringLiteral("toolstudio chat: the input ended: call c3 (get_exchange_rate) is rejected\n");
    }

    /// --approve: the model's tool call waits for a line on stdin, which runs, edits,
    /// answers or rejects it; the model is asked again with what came of it.
    void approveDecidesEachCallOnStdin()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, tool);
        QFETCH(QString, asked);
        QTemporaryDir dir;
        writeProject(dir.path());
        const CommandResult chat = toolstudio(
            {QStringLiteral("chat"), dir.path(), QStringLiteral("--approve"), QStringLiteral("100 EUR in USD?")},
            input);
        QVERIFY2(chat.exitCode == ExitCompleted, chat.err.constData());
        QCOMPARE(chat.out, QByteArray("100 EUR is 108.00 USD.\n"));
        const QByteArray question
            = "[model:scripted] succeeded (52 + 18 tokens)\n"
              "toolstudio chat: the model asks for get_exchange_rate {\"base\":\"EUR\",\"quote\":"
              "\"USD\"} \xe2\x80\x94 y: run it, n: reject it, e JSON: run it with these arguments, "
              "a JSON: answer instead with this result\n";
        QVERIFY2(chat.err.startsWith(question), chat.err.constData());
        const QByteArray after = chat.err.mid(question.size());
        if (asked == QLatin1String("REFUSED")) {
            // Refused by the schema: said, and the same question again.
            QVERIFY2(
                after.startsWith(
                    "toolstudio chat: the decision on call c3 was not taken: the edited arguments do not match input_schema at /quote: required property is missing"),
                after.constData());
            QVERIFY2(after.contains(question.mid(question.indexOf("toolstudio chat: the model asks"))),
                     after.constData());
        } else {
            QVERIFY2(after.startsWith(asked.toUtf8() + "[tool] get_exchange_rate"), after.constData());
        }

        const std::vector<Step> steps = journalSteps(dir.path(), chatRunId(chat.err));
        QCOMPARE(stepLines(steps),
                 (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:scripted succeeded"),
                              QStringLiteral("get_exchange_rate ") + tool.section(u' ', 0, 0),
                              QStringLiteral("model:scripted succeeded"), QStringLiteral("chat:message waiting")}));
        const Step &call = steps[2];
        const QString outcome = call.result ? QString::fromStdString(call.result->dump())
                                            : QString::fromStdString(call.error ? call.error->message : std::string());
        QCOMPARE(stepStatusName(call.status) + u' ' + QString::fromStdString(call.args.dump()) + QStringLiteral(" -> ")
                     + outcome,
                 tool);
        // The model's next request holds what came of the call.
        const json &sent = steps[3].args["messages"].back();
        QCOMPARE(QString::fromStdString(sent.value("role", "")), QStringLiteral("tool"));
        QCOMPARE(QString::fromStdString(sent.value("tool_call_id", "")), QStringLiteral("call_1_1"));
    }

    void continueSendsTheTranscriptToARealEndpoint()
    {
        FakeModelServer server; // only this test asks a model over HTTP
        const QString why = server.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QTemporaryDir dir;
        writeProject(dir.path(), server.base() + QStringLiteral("/ok"));
        const CommandResult first = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("--model"),
                                                QStringLiteral("local"), QStringLiteral("1 EUR?")});
        QVERIFY2(first.exitCode == ExitCompleted, first.err.constData());
        QCOMPARE(first.out, QByteArray("1 EUR is 1.08 USD.\n"));
        // The fake model called the tool with bad arguments; the error went back to it.
        QVERIFY2(first.err.contains("[tool] get_exchange_rate {\"base\":\"EUR\"} -> invalid_arguments: "),
                 first.err.constData());
        const CommandResult second = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("--continue"),
                                                 chatRunId(first.err), QStringLiteral("And 2 EUR?")});
        QVERIFY2(second.exitCode == ExitCompleted, second.err.constData());
        QCOMPARE(second.out, QByteArray("1 EUR is 1.08 USD.\n"));
        // What the server received last: the first turn whole, then the second message.
        const json body = json::parse(server.get(QStringLiteral("/last")).value("body", ""), nullptr, false);
        QVERIFY(body.is_object());
        QStringList roles;
        for (const json &message : body["messages"])
            roles << QString::fromStdString(message.value("role", "")) + QLatin1Char(':')
                    + QString::fromStdString(message["content"].is_string() ? message["content"].get<std::string>()
                                                                            : std::string("-"))
                          .left(20);
        QCOMPARE(roles,
                 (QStringList{QStringLiteral("user:1 EUR?"), QStringLiteral("assistant:-"),
                              QStringLiteral("tool:invalid_arguments: i"),
                              QStringLiteral("assistant:1 EUR is 1.08 USD."), QStringLiteral("user:And 2 EUR?")}));
        QCOMPARE(body["tools"][0]["function"].value("name", ""), std::string("get_exchange_rate"));
    }

    void aFailedTurnKeepsTheChat()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        const CommandResult first
            = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("--model"), QStringLiteral("broken"),
                          QStringLiteral("Hi"), QStringLiteral("--json")});
        QCOMPARE(first.exitCode, ExitRunFailed);
        const auto replies = jsonEvents(first.out, "reply");
        QCOMPARE(replies.size(), std::size_t(1));
        QCOMPARE(replies[0].value("error", ""), std::string("model_failed: model 'broken': the model is down"));
        QCOMPARE(replies[0].value("turn", 0), 1);
        QVERIFY(!replies[0].contains("text"));
        QVERIFY2(
            first.err.contains("toolstudio chat: the turn failed: model_failed: model 'broken': the model is down\n"),
            first.err.constData());
        // The message can be sent again: the conversation did not keep the failed one.
        const QString runId = QString::fromStdString(jsonEvents(first.out, "run").at(0).value("id", ""));
        const CommandResult second = toolstudio(
            {QStringLiteral("chat"), dir.path(), QStringLiteral("--continue"), runId, QStringLiteral("Hi again")});
        QVERIFY2(second.exitCode == ExitCompleted, second.err.constData());
        QCOMPARE(second.out, QByteArray("Back again.\n"));
        const std::vector<Step> steps = journalSteps(dir.path(), runId);
        QCOMPARE(QString::fromStdString(steps.at(3).args["messages"].dump()),
                 QStringLiteral("[{\"content\":\"Hi again\",\"role\":\"user\"}]"));
    }

    void agentContinuesATranscript_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QByteArray>("code");
        QTest::newRow("python") << QStringLiteral("main.py")
                                << QByteArray("import toolstudio\n"
                                              "first = toolstudio.agent('100 EUR in USD?', model='scripted', "
                                              "system='Be brief.')\n"
                                              "second = toolstudio.agent('And 200?', model='scripted', "
                                              "transcript=first.transcript)\n"
                                              "print(len(first.transcript), len(second.transcript), second.text)\n"
                                              "try:\n"
                                              "    toolstudio.agent('x', model='scripted', system='s', "
                                              "transcript=first.transcript)\n"
                                              "except ValueError as e:\n"
                                              "    print(e)\n");
        QTest::newRow("node") << QStringLiteral("main.js")
                              << QByteArray("const { agent } = require('toolstudio');\n"
                                            "(async () => {\n"
                                            "  const first = await agent('100 EUR in USD?', "
                                            "{model: 'scripted', system: 'Be brief.'});\n"
                                            "  const second = await agent('And 200?', "
                                            "{model: 'scripted', transcript: first.transcript});\n"
                                            "  console.log(first.transcript.length, second.transcript.length, "
                                            "second.text);\n"
                                            "  try { await agent('x', {model: 'scripted', system: 's', "
                                            "transcript: first.transcript}); }\n"
                                            "  catch (e) { console.log(e.message); }\n"
                                            "})();\n");
    }

    void agentContinuesATranscript()
    {
        QFETCH(QString, script);
        QFETCH(QByteArray, code);
        if (script.endsWith(QLatin1String(".js")) && QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
            QSKIP("node is not installed");
        QTemporaryDir dir;
        writeProject(dir.path());
        QVERIFY(writeFile(dir.path() + QLatin1Char('/') + script, code));
        const CommandResult run = toolstudio({QStringLiteral("run"), dir.path(), script, QStringLiteral("--json")});
        QVERIFY2(run.exitCode == ExitCompleted, run.err.constData());
        // system, user, assistant (a tool call), tool, assistant; then a user and an assistant more.
        QCOMPARE(scriptStdout(run.out),
                 QByteArray("5 7 200 EUR is 216.00 USD.\n"
                            "agent(): give system only for a new conversation, not with a transcript\n"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("arguments"); ///< after `chat DIR`
        QTest::addColumn<QByteArray>("models");     ///< JSON; empty: the default ones
        QTest::addColumn<QString>("error");         ///< stderr's first line
        QTest::newRow("empty message") << QStringList{QStringLiteral("  ")} << QByteArray()
                                       << QStringLiteral("toolstudio chat: the message is empty");
        QTest::newRow("unknown model")
            << QStringList{QStringLiteral("--model"), QStringLiteral("nope"), QStringLiteral("Hi")} << QByteArray()
            << QStringLiteral("toolstudio chat: no model named 'nope' in this project (toolstudio.json 'models' has: "
                              "scripted, broken, local)");
        QTest::newRow("no models") << QStringList{QStringLiteral("Hi")} << QByteArray("[]")
                                   << QStringLiteral("toolstudio chat: the project declares no models: add one "
                                                     "under \"models\" in toolstudio.json (docs/models.md)");
        QTest::newRow("unknown run")
            << QStringList{QStringLiteral("--continue"), QStringLiteral("nope"), QStringLiteral("Hi")} << QByteArray()
            << QStringLiteral("toolstudio chat: no run 'nope' in this project (toolstudio runs DIR lists them)");
        QTest::newRow("system with continue")
            << QStringList{QStringLiteral("--continue"), QStringLiteral("nope"), QStringLiteral("--system"),
                           QStringLiteral("x"), QStringLiteral("Hi")}
            << QByteArray()
            << QStringLiteral("toolstudio chat: --system is for a new chat; a chat keeps the system prompt it "
                              "started with");
        QTest::newRow("no message") << QStringList{} << QByteArray()
                                    << QStringLiteral("toolstudio chat: wrong number of "
                                                      "arguments");
    }

    void badInput()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, models);
        QFETCH(QString, error);
        QTemporaryDir dir;
        writeProject(dir.path(), NoServer, models.isEmpty() ? json() : json::parse(models.toStdString()));
        const CommandResult chat = toolstudio(QStringList{QStringLiteral("chat"), dir.path()} + arguments);
        QCOMPARE(chat.exitCode, ExitBadInput);
        QCOMPARE(chat.out, QByteArray());
        QCOMPARE(QString::fromUtf8(chat.err.left(chat.err.indexOf('\n'))),
                 QString(error).replace(QStringLiteral("DIR"), dir.path()));
        QVERIFY(!QFileInfo::exists(dir.path() + QStringLiteral("/.toolstudio/chat/chat.py")));
    }

    void continueRefusesRunsThatAreNotWaitingChats()
    {
        QTemporaryDir dir;
        writeProject(dir.path());
        QVERIFY(writeFile(dir.path() + QStringLiteral("/main.py"), "print(get_exchange_rate('EUR', 'USD'))\n"));
        const CommandResult script
            = toolstudio({QStringLiteral("run"), dir.path(), QStringLiteral("main.py"), QStringLiteral("--json")});
        QCOMPARE(script.exitCode, ExitCompleted);
        const QString scriptRun = QString::fromStdString(jsonEvents(script.out, "run").at(0).value("id", ""));
        CommandResult chat = toolstudio(
            {QStringLiteral("chat"), dir.path(), QStringLiteral("--continue"), scriptRun, QStringLiteral("Hi")});
        QCOMPARE(chat.exitCode, ExitBadInput);
        QCOMPARE(
            chat.err,
            QStringLiteral("toolstudio chat: run %1 is not a chat run (it ran main.py)\n").arg(scriptRun).toUtf8());

        // A chat ended by an error for an answer (the person ended it) has completed.
        const CommandResult first = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("Hi")});
        QCOMPARE(first.exitCode, ExitCompleted);
        const QString runId = chatRunId(first.err);
        const std::vector<Step> steps = journalSteps(dir.path(), runId);
        const CommandResult answer = toolstudio({QStringLiteral("answer"), dir.path(), runId, steps.back().callId,
                                                 QStringLiteral("--error"), QStringLiteral("bye")});
        QVERIFY2(answer.exitCode == ExitCompleted, answer.err.constData());
        const CommandResult resume = toolstudio({QStringLiteral("resume"), dir.path(), runId});
        QVERIFY2(resume.exitCode == ExitCompleted, resume.err.constData());
        QCOMPARE(journalRun(dir.path(), runId)->status, RunStatus::Completed);
        chat = toolstudio(
            {QStringLiteral("chat"), dir.path(), QStringLiteral("--continue"), runId, QStringLiteral("Hi")});
        QCOMPARE(chat.exitCode, ExitBadInput);
        QCOMPARE(chat.err,
                 QStringLiteral("toolstudio chat: chat run %1 is completed; nothing waits for a message: start a new "
                                "chat with toolstudio chat %2 MESSAGE\n")
                     .arg(runId, dir.path())
                     .toUtf8());
    }

    /// A project (a cloned repository) may hold a symlink where the studio writes its
    /// chat script: the chat.py link, or a linked .toolstudio/chat folder. The studio
    /// replaces a link named chat.py and refuses a linked folder; it never writes
    /// through either to the file or folder outside the project.
    void theChatScriptIsNeverWrittenThroughASymlink()
    {
        QTemporaryDir outside;
        const QString victim = outside.path() + QStringLiteral("/victim.py");
        QVERIFY(writeFile(victim, "precious\n"));
        QTemporaryDir dir;
        writeProject(dir.path());
        const QString chatDir = dir.path() + QStringLiteral("/.toolstudio/chat");
        QVERIFY(QDir().mkpath(chatDir));
        QVERIFY(QFile::link(victim, chatDir + QStringLiteral("/chat.py")));
        const CommandResult chat = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("100 EUR in USD?")});
        QVERIFY2(chat.exitCode == ExitCompleted, chat.err.constData());
        QCOMPARE(chat.out, QByteArray("100 EUR is 108.00 USD.\n"));
        QCOMPARE(fileBytes(victim), QByteArray("precious\n"));
        QVERIFY(!QFileInfo(chatDir + QStringLiteral("/chat.py")).isSymLink());
        QVERIFY(fileBytes(chatDir + QStringLiteral("/chat.py")).startsWith("# SPDX"));
        QCOMPARE(QDir(chatDir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("chat.py")});

        QTemporaryDir linked;
        writeProject(linked.path());
        QVERIFY(QDir().mkpath(linked.path() + QStringLiteral("/.toolstudio")));
        QVERIFY(QFile::link(outside.path(), linked.path() + QStringLiteral("/.toolstudio/chat")));
        const CommandResult refused
            = toolstudio({QStringLiteral("chat"), linked.path(), QStringLiteral("100 EUR in USD?")});
        QCOMPARE(refused.exitCode, ExitBadInput);
        QCOMPARE(refused.out, QByteArray());
        QCOMPARE(QString::fromUtf8(refused.err),
                 QStringLiteral("toolstudio chat: cannot write the chat script %1/.toolstudio/chat/chat.py: %2 (a "
                                "symlink on the way is not followed)\n")
                     .arg(linked.path(), QString::fromLocal8Bit(std::strerror(ENOTDIR))));
        QCOMPARE(QDir(outside.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("victim.py")});
    }

    /// A model's reply over limits.request_bytes cannot ride on the chat's next input
    /// call (the engine refuses it as request_too_large): the turn fails with that said
    /// and the chat goes on; it used to end as if the person had ended it (completed).
    /// A refusal for another reason (the run's call budget) fails the run, not completes it.
    void aReplyOverTheRequestLimitKeepsTheChat()
    {
        QTemporaryDir dir;
        const json models = {{{"name", "huge"},
                              {"provider", "mock"},
                              {"turns", {{{"content", std::string(300000, 'x')}}, {{"content", "Short now."}}}}}};
        writeProject(dir.path(), NoServer, models);
        const CommandResult first = toolstudio({QStringLiteral("chat"), dir.path(), QStringLiteral("Write a lot")});
        QCOMPARE(first.exitCode, ExitRunFailed);
        QCOMPARE(first.out, QByteArray());
        const QString runId = chatRunId(first.err);
        QVERIFY2(!runId.isEmpty(), first.err.constData());
        QVERIFY2(first.err.contains("toolstudio chat: the turn failed: the model's reply is 300000 characters, more "
                                    "than a call may carry (limits.request_bytes)"),
                 first.err.constData());
        QCOMPARE(journalRun(dir.path(), runId)->status, RunStatus::Suspended);

        const CommandResult next = toolstudio(
            {QStringLiteral("chat"), dir.path(), QStringLiteral("--continue"), runId, QStringLiteral("Shorter")});
        QVERIFY2(next.exitCode == ExitCompleted, next.err.constData());
        QCOMPARE(next.out, QByteArray("Short now.\n"));
        const std::vector<Step> steps = journalSteps(dir.path(), runId);
        // (The refused call is not a step: the engine refused it before it was one.)
        QCOMPARE(stepLines(steps),
                 (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:huge succeeded"),
                              QStringLiteral("chat:message succeeded"), QStringLiteral("model:huge succeeded"),
                              QStringLiteral("chat:message waiting")}));
        QCOMPARE(steps[2].args.value("turn", 0), 2);
        QCOMPARE(steps[4].args.value("turn", 0), 3);
        // The conversation kept the long reply: the model saw it on the next turn.
        QCOMPARE(steps[3].args["messages"].size(), std::size_t(3));
        QCOMPARE(steps[3].args["messages"][1].value("content", "").size(), std::size_t(300000));

        // The run's call budget spent: the chat fails instead of ending as completed.
        QTemporaryDir spent;
        writeProject(spent.path());
        json manifest = json::parse(fileBytes(spent.path() + QStringLiteral("/toolstudio.json")).toStdString());
        manifest["limits"] = {{"max_calls", 1}};
        QVERIFY(
            writeFile(spent.path() + QStringLiteral("/toolstudio.json"), QByteArray::fromStdString(manifest.dump())));
        const CommandResult ended = toolstudio({QStringLiteral("chat"), spent.path(), QStringLiteral("Hi")});
        QCOMPARE(ended.exitCode, ExitRunFailed);
        const QRegularExpressionMatch endedRun
            = QRegularExpression(QStringLiteral("chat: run (\\S+) failed before it asked for the next message"))
                  .match(QString::fromUtf8(ended.err));
        QVERIFY2(endedRun.hasMatch(), ended.err.constData());
        QCOMPARE(journalRun(spent.path(), endedRun.captured(1))->status, RunStatus::Failed);
    }

    /// `toolstudio chat` killed mid-turn (SIGKILL, a crash): the chat is suspended with
    /// no input call open. --continue used to refuse it for good ("a turn is still going
    /// on"); it resumes the run, which finishes the cut-off turn (its reply printed),
    /// then sends the message.
    void continueFinishesATurnCutOffByAKill()
    {
        FakeModelServer server;
        const QString why = server.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QTemporaryDir dir;
        const json stalling = {{{"name", "slow"},
                                {"provider", "openai-chat"},
                                {"base_url", (server.base() + QStringLiteral("/stall")).toStdString()},
                                {"model", "fake-1"},
                                {"retry", {{"max_attempts", 1}}}}};
        writeProject(dir.path(), NoServer, stalling);
        QProcess chat;
        chat.setProgram(toolstudioBinary());
        chat.setArguments(withTrust({QStringLiteral("chat"), dir.path(), QStringLiteral("Hi")}));
        chat.setStandardInputFile(QProcess::nullDevice());
        chat.start();
        QVERIFY(chat.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(server.get(QStringLiteral("/count")).value("count", 0) == 1, 20000);
        QVERIFY2(chat.state() == QProcess::Running, chat.readAllStandardError().constData());
        chat.kill();
        chat.waitForFinished(10000);
        QCOMPARE(chat.state(), QProcess::NotRunning);
        const CommandResult runs = toolstudio({QStringLiteral("runs"), dir.path()});
        const QString runId = QString::fromUtf8(runs.out.left(runs.out.indexOf(' ')));
        QVERIFY2(!runId.isEmpty(), runs.out.constData());
        QCOMPARE(journalRun(dir.path(), runId)->status, RunStatus::Suspended);

        // The model answers now (the same name, a mock): the cut-off turn is asked again.
        const json answering = {{{"name", "slow"},
                                 {"provider", "mock"},
                                 {"turns", {{{"content", "Finished late."}}, {{"content", "Again, done."}}}}}};
        writeProject(dir.path(), NoServer, answering);
        const CommandResult next = toolstudio(
            {QStringLiteral("chat"), dir.path(), QStringLiteral("--continue"), runId, QStringLiteral("Again")});
        QVERIFY2(next.exitCode == ExitCompleted, next.err.constData());
        QCOMPARE(next.out, QByteArray("Finished late.\nAgain, done.\n"));
        QCOMPARE(stepLines(journalSteps(dir.path(), runId)),
                 (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:slow succeeded"),
                              QStringLiteral("chat:message succeeded"), QStringLiteral("model:slow succeeded"),
                              QStringLiteral("chat:message waiting")}));
        QCOMPARE(journalRun(dir.path(), runId)->status, RunStatus::Suspended);
    }
};

QTEST_GUILESS_MAIN(TestChat)
#include "tst_chat.moc"
