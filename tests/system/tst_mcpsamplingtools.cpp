// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tools in sampling (MCP 2025-11-25, docs/mcp.md "Tools in sampling") end to end over
// stdio: tests/data/mcp/fakeserver.py in its `asks-1125` mode (a 2025-11-25 server) sends
// a sampling/createMessage with tools; a person's tool call reaches it as tool_use
// blocks, a model (the fake OpenAI-chat and Anthropic server of tests/data/models) is
// given the tools, the toolChoice and the tool_use / tool_result history in its
// provider's own shapes, and its tool call comes back as tool_use blocks with stopReason
// "toolUse". The same request to a 2025-06-18 server (`asks`) is refused.
#include "clirunner.h"
#include "fakemodelserver.h"
#include "mcp/mcpprojecttools.h"
#include "sampledcall.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "waitingrun.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

/// JSON written with single quotes, so moc can read this file: J("{'a': 1}").
json J(const char *text)
{
    return json::parse(QByteArray(text).replace('\'', '"').toStdString());
}

/// The tool the server offers: the fake model's "ok" scenario calls the first tool
/// offered with {"base": "EUR"}.
const char *const RateTool = "{'name': 'get_rate', 'description': 'Exchange rate to USD',"
                             " 'inputSchema': {'type': 'object', 'properties': {'base': {'type': 'string'}},"
                             " 'required': ['base']}}";

/// The sampling request's tools and toolChoice: RateTool, named `name`.
json withTools(const char *mode, const std::string &name = "get_rate")
{
    json tool = J(RateTool);
    tool["name"] = name;
    json extra = {{"tools", json::array({tool})}, {"toolChoice", {{"mode", mode}}}};
    return extra;
}

/// A conversation after a tool call: the question, the assistant's tool_use, its result.
json history()
{
    json extra = withTools("auto");
    extra["messages"] = J("[{'role': 'user', 'content': {'type': 'text', 'text': '100 EUR in USD?'}},"
                          " {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'call_7', 'name': 'get_rate',"
                          "  'input': {'base': 'EUR'}}]},"
                          " {'role': 'user', 'content': [{'type': 'tool_result', 'toolUseId': 'call_7',"
                          "  'content': [{'type': 'text', 'text': '1.08'}]}]}]");
    return extra;
}

} // namespace

class TestMcpSamplingTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void aPersonsToolCallReachesTheServer();
    void toolsNeedA2025_11_25Session();
    void aModelsToolCallReachesTheServer_data();
    void aModelsToolCallReachesTheServer();
    void theHistoryReachesTheModel();
    void answeredHeadless();

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    FakeModelServer m_models;
};

void TestMcpSamplingTools::initTestCase()
{
    qRegisterMetaType<SamplingModelCall::Outcome>();
    QVERIFY(m_dir.isValid());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "Sampling tools", "retry": {"max_attempts": 1, "attempt_timeout_seconds": 60},
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]},
                  "new": {"command": "python3", "args": ["srv/fakeserver.py", "asks-1125"]}}})"));
    ProjectError error;
    m_project = loadTrusted(m_dir.path(), &error);
    QVERIFY2(m_project, qPrintable(error.toString()));
    const QStringList problems = McpProjectTools::connectAndAdd(*m_project);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    const QString why = m_models.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestMcpSamplingTools::aPersonsToolCallReachesTheServer()
{
    SampledCall call(*m_project, withTools("required"), "new__ask");
    QVERIFY(call.waitForQuestion());
    QCOMPARE(call.question["tools"].dump(), json::array({J(RateTool)}).dump());
    QCOMPARE(call.question["tool_choice"].get<std::string>(), std::string("required"));
    QCOMPARE(call.asked["question"]["tools"].dump(), call.question["tools"].dump()); // journaled with it
    // toolChoice "required": text is refused, a tool call taken.
    QString reason;
    QVERIFY(!call.answer("by hand", &reason));
    QCOMPARE(reason,
             QStringLiteral("the server's toolChoice is \"required\": answer with a tool call ({\"content\": "
                            "[{\"type\": \"tool_use\", …}]})"));
    QVERIFY2(
        call.answer(J("{'content': [{'type': 'tool_use', 'name': 'get_rate', 'input': {'base': 'CHF'}}]}"), &reason),
        qPrintable(reason));
    const json said = call.toolSaid();
    json result = said["sample"]["result"];
    const QString id = QString::fromStdString(result["content"][0].value("id", std::string()));
    QVERIFY2(QRegularExpression(QStringLiteral("^call_[0-9a-f]{24}$")).match(id).hasMatch(), qPrintable(id));
    // Journaled as sent, its fresh id included.
    QCOMPARE(call.answered["answer"]["content"].dump(), result["content"].dump());
    result["content"][0].erase("id");
    QCOMPARE(result.dump(),
             J("{'role': 'assistant', 'content': [{'type': 'tool_use', 'name': 'get_rate',"
               " 'input': {'base': 'CHF'}}], 'model': 'person', 'stopReason': 'toolUse'}")
                 .dump());
    // The studio's initialize declared that it takes tools in sampling.
    QCOMPARE(said["capabilities"]["sampling"].dump(), std::string(R"({"tools":{}})"));
}

void TestMcpSamplingTools::toolsNeedA2025_11_25Session()
{
    SampledCall call(*m_project, withTools("auto"), "fake__ask");
    QVERIFY(call.waitForQuestion());
    QVERIFY(!call.question.is_object()); // no person is asked
    QCOMPARE(call.serverGot().dump(),
             J("{'id': 'sample-1', 'error': {'code': -32602, 'message': 'tools and toolChoice in "
               "sampling/createMessage need MCP 2025-11-25 (the client capability sampling.tools); this "
               "server\\u0027s session speaks 2025-06-18'}}")
                 .dump());
}

void TestMcpSamplingTools::aModelsToolCallReachesTheServer_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("toolChoice"); // as the provider got it
    QTest::addColumn<QString>("id");         // the call's id as the provider named it
    QTest::addColumn<QString>("tool");       // the tool's name as the server gave it
    QTest::newRow("openai-chat") << QStringLiteral("openai-chat") << QStringLiteral("\"required\"")
                                 << QStringLiteral("call_1") << QStringLiteral("get_rate");
    QTest::newRow("anthropic") << QStringLiteral("anthropic") << QStringLiteral("{\"type\":\"any\"}")
                               << QStringLiteral("toolu_1") << QStringLiteral("get_rate");
    // The exporter names it rates_get for the provider; the server gets its own name back.
    QTest::newRow("a dotted name") << QStringLiteral("openai-chat") << QStringLiteral("\"required\"")
                                   << QStringLiteral("call_1") << QStringLiteral("rates.get");
}

void TestMcpSamplingTools::aModelsToolCallReachesTheServer()
{
    QFETCH(QString, provider);
    QFETCH(QString, toolChoice);
    QFETCH(QString, id);
    QFETCH(QString, tool);
    SampledCall call(*m_project, withTools("required", tool.toStdString()), "new__ask");
    QVERIFY(call.waitForQuestion());
    QVERIFY(call.modelRequest);
    const ModelConfig model = modelFrom({{"name", "m"},
                                         {"provider", provider.toStdString()},
                                         {"base_url", (m_models.base() + QStringLiteral("/ok")).toStdString()},
                                         {"model", "x-1"}});
    const SamplingModelCall::Outcome outcome = askModel(model, *call.modelRequest, 50);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    const json sent = json::parse(m_models.get(QStringLiteral("/last"))["body"].get<std::string>());
    QCOMPARE(QString::fromStdString(sent["tool_choice"].dump()), toolChoice);
    QCOMPARE(sent["tools"].size(), std::size_t(1));
    json expected = J("{'content': [{'type': 'tool_use', 'input': {'base': 'EUR'}}],"
                      " 'model': 'x-1', 'stopReason': 'toolUse'}");
    expected["content"][0]["id"] = id.toStdString();
    expected["content"][0]["name"] = tool.toStdString();
    QCOMPARE(outcome.answer.dump(), expected.dump());
    QString reason;
    QVERIFY2(call.answer(outcome.answer, &reason), qPrintable(reason));
    expected["role"] = "assistant";
    QCOMPARE(call.serverGot()["result"].dump(), expected.dump());
}

void TestMcpSamplingTools::theHistoryReachesTheModel()
{
    // The assistant's tool_use and the user's tool_result, each in its provider's shape.
    SampledCall call(*m_project, history(), "new__ask");
    QVERIFY(call.waitForQuestion());
    QCOMPARE(call.question["message"].get<std::string>(),
             std::string("user: 100 EUR in USD?\nassistant: → get_rate({\"base\":\"EUR\"})  [call_7]\n"
                         "user: ← [call_7] 1.08"));
    QVERIFY(call.modelRequest);
    const QString chat = m_models.base() + QStringLiteral("/ok");
    const SamplingModelCall::Outcome openai = askModel(
        modelFrom({{"name", "o"}, {"provider", "openai-chat"}, {"base_url", chat.toStdString()}, {"model", "gpt"}}),
        *call.modelRequest, 50);
    QVERIFY2(openai.error.isEmpty(), qPrintable(openai.error));
    QCOMPARE(json::parse(m_models.get(QStringLiteral("/last"))["body"].get<std::string>())["messages"].dump(),
             J("[{'role': 'system', 'content': 'Be brief'}, {'role': 'user', 'content': '100 EUR in USD?'},"
               " {'role': 'assistant', 'content': null, 'tool_calls': [{'id': 'call_7', 'type': 'function',"
               "  'function': {'name': 'get_rate', 'arguments': '{\\'base\\':\\'EUR\\'}'}}]},"
               " {'role': 'tool', 'tool_call_id': 'call_7', 'content': '1.08'}]")
                 .dump());
    // Its reply after the tool's result is text: the server gets it as ever.
    QCOMPARE(openai.answer.dump(), J("{'text': '1 EUR is 1.08 USD.', 'model': 'gpt', 'stopReason': 'endTurn'}").dump());
    const SamplingModelCall::Outcome anthropic = askModel(
        modelFrom({{"name", "a"}, {"provider", "anthropic"}, {"base_url", chat.toStdString()}, {"model", "claude"}}),
        *call.modelRequest, 50);
    QVERIFY2(anthropic.error.isEmpty(), qPrintable(anthropic.error));
    QCOMPARE(json::parse(m_models.get(QStringLiteral("/last"))["body"].get<std::string>())["messages"].dump(),
             J("[{'role': 'user', 'content': [{'type': 'text', 'text': '100 EUR in USD?'}]},"
               " {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'call_7', 'name': 'get_rate',"
               "  'input': {'base': 'EUR'}}]},"
               " {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'call_7', 'content': '1.08'}]}]")
                 .dump());
    QVERIFY(call.answer(openai.answer));
    QCOMPARE(call.serverGot()["result"].dump(),
             J("{'role': 'assistant', 'content': {'type': 'text', 'text': '1 EUR is 1.08 USD.'}, 'model': 'gpt',"
               " 'stopReason': 'endTurn'}")
                 .dump());
}

void TestMcpSamplingTools::answeredHeadless()
{
    // `toolstudio run` prints the tools with the question; `toolstudio answer --model`
    // sends a mock model's tool call, as the server gets it.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    json script = {{"only", {"sample"}}, {"sample_extra", withTools("auto")}};
    QVERIFY(writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                      "import json\nfrom toolstudio import tools\n"
                      "print(tools['new__ask'](**json.loads('"
                          + QByteArray::fromStdString(script.dump()) + "'))['content'][0]['text'])\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "cli", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "models": [{"name": "scripted", "provider": "mock", "turns": [
    {"tool_calls": [{"id": "call_m", "name": "get_rate", "arguments": {"base": "GBP"}}]}]}],
  "mcp_servers": {"new": {"command": "python3", "args": ["srv/fakeserver.py", "asks-1125"]}}})"));
    WaitingRun run;
    QVERIFY2(run.start(dir.path(), QStringLiteral("new__ask")), run.err.constData());
    QVERIFY2(run.err.contains("\n  tools (toolChoice auto):\n    get_rate — \"Exchange rate to USD\" — inputSchema "
                              "{\"properties\":{\"base\":{\"type\":\"string\"}},\"required\":[\"base\"],"
                              "\"type\":\"object\"}\n  answer: the model's reply as a JSON string, \"text\", or a "
                              "tool call {\"content\": [{\"type\": \"tool_use\", \"name\": …, \"input\": {…}}]}"),
             run.err.constData());
    const CommandResult answered = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                               QStringLiteral("--model"), QStringLiteral("scripted")});
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    QVERIFY2(answered.out.startsWith(
                 R"(model scripted answered (toolUse): [{"id":"call_m","input":{"base":"GBP"},"name":"get_rate",)"
                 R"("type":"tool_use"}])"
                 "\n"),
             answered.out.constData());
    run.finish();
    const QByteArray printed = scriptStdout(run.out);
    QVERIFY2(json::accept(printed.toStdString()), printed.constData());
    QCOMPARE(json::parse(printed.toStdString())["sample"]["result"].dump(),
             J("{'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'call_m', 'name': 'get_rate',"
               " 'input': {'base': 'GBP'}}], 'model': 'scripted', 'stopReason': 'toolUse'}")
                 .dump());
}

QTEST_MAIN(TestMcpSamplingTools)
#include "tst_mcpsamplingtools.moc"
