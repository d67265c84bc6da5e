// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A model writes the reply to an MCP server's sampling/createMessage (docs/mcp.md "A
// model writes the reply"): the question carries the request a model is given; a
// SamplingModelCall asks a configured model (a mock's scripted turns, the fake
// OpenAI-chat server of tests/data/models) and its reply, answered through
// StepEngine::answer, reaches the server with "model" and "stopReason"; a failing model
// leaves the question open; answers of the new shape with bad values are refused; and
// `toolstudio answer --model NAME` does it headless. Against tests/data/mcp/fakeserver.py
// in its `asks` mode (its sampling request: "Say hi", system prompt "Be brief",
// maxTokens 50).
#include "bridgemessage.h"
#include "clirunner.h"
#include "engine/personquestion.h"
#include "engine/stepengine.h"
#include "fakemodelserver.h"
#include "llm/samplingmodel.h"
#include "mcp/mcppersonquestion.h"
#include "mcp/mcpprojecttools.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "waitingrun.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

Q_DECLARE_METATYPE(SamplingModelCall::Outcome)

namespace {

/// The fake server's sampling request through a fresh engine: the step's question and
/// the request a model is given, the server's response to the answer.
class SampledCall : public QObject
{
public:
    explicit SampledCall(const Project &project)
        : engine(project, QStringLiteral("run1"), nullptr, {})
    {
        connect(&engine, &StepEngine::pendingCallOpened, this, [this](const Step &step) {
            question = step.attempts.back().question.value_or(json());
            modelRequest = step.attempts.back().modelRequest;
        });
        connect(&engine, &StepEngine::policyEvent, this, [this](const PolicyEvent &event) {
            if (event.kind == PolicyEventKind::PersonAsked)
                asked = event.detail;
        });
        connect(&engine, &StepEngine::replyReady, this,
                [this](const std::string &, const std::string &line) { reply = line; });
        BridgeCall call;
        call.id = "c1";
        call.tool = "fake__ask";
        call.args = {{"only", {"sample"}}};
        engine.submitCall(call);
    }
    bool waitForQuestion()
    {
        return QTest::qWaitFor([this] { return question.is_object() || reply; }, 20000);
    }
    bool answer(const json &result, QString *reason = nullptr)
    {
        ManualAnswer answer;
        answer.result = result;
        return engine.answer(QStringLiteral("c1"), 1, answer, reason);
    }
    /// What the server got for its sampling request (its `ask` tool returns it).
    json serverGot()
    {
        (void)QTest::qWaitFor([this] { return reply.has_value(); }, 30000);
        const Step *step = engine.step(QStringLiteral("c1"));
        if (!step || !step->result)
            return json{{"error", step && step->error ? step->error->message : std::string("no result")}};
        return json::parse((*step->result)["content"][0]["text"].get<std::string>())["sample"];
    }

    StepEngine engine;
    json question;
    std::optional<json> modelRequest;
    json asked;
    std::optional<std::string> reply;
};

/// `model` asked `request` with `maxTokens` through a SamplingModelCall, to its end.
SamplingModelCall::Outcome askModel(const ModelConfig &model, const json &request, int maxTokens)
{
    QNetworkAccessManager network;
    SamplingModelCall call(model, Secrets(), &network);
    QSignalSpy finished(&call, &SamplingModelCall::finished);
    call.ask(request, maxTokens);
    if (!finished.wait(30000))
        return {json(), QStringLiteral("no outcome"), QString()};
    return finished.at(0).at(0).value<SamplingModelCall::Outcome>();
}

ModelConfig modelFrom(const json &entry)
{
    return ModelConfig::parseAll(json::array({entry}), RetryPolicy{}).front();
}

} // namespace

class TestMcpSamplingModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void theQuestionCarriesTheRequestForAModel();
    void blocksAModelCannotTakeAreNoted();
    void aMockModelsReplyReachesTheServer();
    void anOpenAiModelIsAskedTheRequest();
    void aFailingModelLeavesTheQuestionOpen_data();
    void aFailingModelLeavesTheQuestionOpen();
    void badModelAnswersAreRefused_data();
    void badModelAnswersAreRefused();
    void stopReasons_data();
    void stopReasons();
    void aModelsIdIsAnAnswerTheStudioTakes();
    void answeredHeadlessWithModel();

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    FakeModelServer m_models;
};

void TestMcpSamplingModel::initTestCase()
{
    qRegisterMetaType<SamplingModelCall::Outcome>();
    QVERIFY(m_dir.isValid());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "Sampling", "retry": {"max_attempts": 1, "attempt_timeout_seconds": 60},
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})"));
    ProjectError error;
    m_project = loadTrusted(m_dir.path(), &error);
    QVERIFY2(m_project, qPrintable(error.toString()));
    const QStringList problems = McpProjectTools::connectAndAdd(*m_project);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    const QString why = m_models.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestMcpSamplingModel::theQuestionCarriesTheRequestForAModel()
{
    // What a person reads is the question; what a model is given is kept apart, whole
    // (the system prompt unclipped), and journaled with person_asked.
    SampledCall call(*m_project);
    QVERIFY(call.waitForQuestion());
    QCOMPARE(call.question.value("kind", std::string()), std::string("sampling"));
    QVERIFY(!call.question.contains("model_request"));
    QVERIFY(call.modelRequest);
    const json expected
        = {{"messages", {{{"role", "user"}, {"content", "Say hi"}}}}, {"omitted", 0}, {"system", "Be brief"}};
    QCOMPARE(call.modelRequest->dump(), expected.dump());
    QCOMPARE(call.asked["model_request"].dump(), expected.dump());
    QCOMPARE(call.asked["question"].dump(), call.question.dump());
    QVERIFY(call.answer("by hand"));
    QCOMPARE(call.serverGot()["result"]["model"].get<std::string>(), std::string("person"));
}

void TestMcpSamplingModel::blocksAModelCannotTakeAreNoted()
{
    // The neutral shape carries text only: an image or audio block is a note in the text
    // and counted; a role other than user and assistant cannot be given to a model.
    const json image = {{"type", "image"}, {"data", "AAAA"}, {"mimeType", "image/png"}};
    const json blocks = json::array({json{{"type", "text"}, {"text", "What is on it?"}}, image});
    const json messages
        = json::array({json{{"role", "user"}, {"content", blocks}},
                       json{{"role", "assistant"}, {"content", json{{"type", "audio"}, {"data", "AAAA"}}}}});
    QString error;
    const auto question = McpPersonQuestion::question(
        QStringLiteral("s"),
        McpServerRequest{1, QStringLiteral("sampling/createMessage"), json{{"messages", messages}}}, &error);
    QVERIFY2(question, qPrintable(error));
    QCOMPARE((*question)["model_request"].dump(),
             json({{"messages",
                    {{{"role", "user"}, {"content", "What is on it?\n[image not sent]"}},
                     {{"role", "assistant"}, {"content", "[audio not sent]"}}}},
                   {"omitted", 2}})
                 .dump());
    const json system = json::array({json{{"role", "system"}, {"content", json{{"type", "text"}, {"text", "x"}}}}});
    const auto odd = McpPersonQuestion::question(
        QStringLiteral("s"), McpServerRequest{1, QStringLiteral("sampling/createMessage"), json{{"messages", system}}},
        &error);
    QVERIFY(odd);
    QCOMPARE((*odd)["model_request"].dump(),
             json({{"error", "messages[0] has the role \"system\"; a model is given user and assistant messages only"}})
                 .dump());
    QString why;
    QVERIFY(!SamplingModelCall::request((*odd)["model_request"], &why));
    QCOMPARE(why,
             QStringLiteral("this request cannot be given to a model: messages[0] has the role \"system\"; a "
                            "model is given user and assistant messages only"));
}

void TestMcpSamplingModel::aMockModelsReplyReachesTheServer()
{
    SampledCall call(*m_project);
    QVERIFY(call.waitForQuestion());
    const ModelConfig model = modelFrom({{"name", "scripted"},
                                         {"provider", "mock"},
                                         {"turns", {{{"content", "Hi from the model"}, {"stop_reason", "length"}}}}});
    const SamplingModelCall::Outcome outcome = askModel(model, *call.modelRequest, 50);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(outcome.answer.dump(),
             json({{"text", "Hi from the model"}, {"model", "scripted"}, {"stopReason", "maxTokens"}}).dump());
    QString reason;
    QVERIFY2(call.answer(outcome.answer, &reason), qPrintable(reason));
    QCOMPARE(call.serverGot().dump(),
             std::string(R"({"id":"sample-1","result":{"content":{"text":"Hi from the model","type":"text"},)"
                         R"("model":"scripted","role":"assistant","stopReason":"maxTokens"}})"));
}

void TestMcpSamplingModel::anOpenAiModelIsAskedTheRequest()
{
    // The model's own max_tokens bounds the server's maxTokens (50); the system prompt
    // comes first; the reply's id is the configured model's.
    SampledCall call(*m_project);
    QVERIFY(call.waitForQuestion());
    const ModelConfig model = modelFrom({{"name", "local"},
                                         {"provider", "openai-chat"},
                                         {"base_url", (m_models.base() + QStringLiteral("/ok")).toStdString()},
                                         {"model", "qwen2.5:7b"},
                                         {"params", {{"max_tokens", 20}}}});
    const SamplingModelCall::Outcome outcome = askModel(model, *call.modelRequest, 50);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    const json sent = json::parse(m_models.get(QStringLiteral("/last"))["body"].get<std::string>());
    QCOMPARE(sent["messages"].dump(),
             std::string(R"([{"content":"Be brief","role":"system"},{"content":"Say hi","role":"user"}])"));
    QCOMPARE(sent["max_tokens"].get<int>(), 20);
    QVERIFY(!sent.contains("tools"));
    QVERIFY(call.answer(outcome.answer));
    QCOMPARE(call.serverGot()["result"].dump(),
             std::string(R"({"content":{"text":"1 EUR is 1.08 USD.","type":"text"},"model":"qwen2.5:7b",)"
                         R"("role":"assistant","stopReason":"endTurn"})"));
    // Without a limit of its own, the server's.
    QCOMPARE(SamplingModelCall::bounded(modelFrom({{"name", "m"}, {"provider", "openai-chat"}, {"model", "x"}}), 50)
                 .params.dump(),
             std::string(R"({"max_tokens":50})"));
    QCOMPARE(SamplingModelCall::bounded(modelFrom({{"name", "m"},
                                                   {"provider", "openai-chat"},
                                                   {"model", "x"},
                                                   {"params", {{"max_completion_tokens", 900}}}}),
                                        50)
                 .params.dump(),
             std::string(R"({"max_completion_tokens":50})"));
}

void TestMcpSamplingModel::aFailingModelLeavesTheQuestionOpen_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("code");
    QTest::newRow("401") << QStringLiteral("auth") << QStringLiteral("model_auth");
    QTest::newRow("unreachable") << QStringLiteral("unreachable") << QStringLiteral("model_unreachable");
    QTest::newRow("mock error") << QStringLiteral("mock") << QStringLiteral("model_failed");
    QTest::newRow("tool calls only") << QStringLiteral("toolcalls") << QStringLiteral("no_text");
}

void TestMcpSamplingModel::aFailingModelLeavesTheQuestionOpen()
{
    QFETCH(QString, scenario);
    QFETCH(QString, code);
    SampledCall call(*m_project);
    QVERIFY(call.waitForQuestion());
    json entry = {{"name", "m"}, {"provider", "openai-chat"}, {"model", "x"}};
    if (scenario == QLatin1String("auth"))
        entry["base_url"] = (m_models.base() + QStringLiteral("/auth")).toStdString();
    else if (scenario == QLatin1String("unreachable"))
        entry["base_url"] = "http://127.0.0.1:9/v1";
    else if (scenario == QLatin1String("mock"))
        entry = {
            {"name", "m"}, {"provider", "mock"}, {"turns", {{{"error", "the model is down"}, {"retryable", false}}}}};
    else
        entry = {{"name", "m"},
                 {"provider", "mock"},
                 {"turns", {{{"tool_calls", {{{"name", "t"}, {"arguments", json::object()}}}}}}}};
    const SamplingModelCall::Outcome outcome = askModel(modelFrom(entry), *call.modelRequest, 50);
    QCOMPARE(outcome.errorCode, code);
    QVERIFY(!outcome.error.isEmpty());
    if (scenario == QLatin1String("toolcalls"))
        QCOMPARE(outcome.error,
                 QStringLiteral("model 'm' answered with tool calls, not text; ask again or write the "
                                "reply"));
    // Nothing was answered: the step still waits for its question.
    QTest::qWait(200);
    QCOMPARE(call.engine.step(QStringLiteral("c1"))->status, StepStatus::Waiting);
    QVERIFY(!call.reply);
    QVERIFY(call.answer("by hand after all"));
    QCOMPARE(call.serverGot()["result"]["content"]["text"].get<std::string>(), std::string("by hand after all"));
}

void TestMcpSamplingModel::badModelAnswersAreRefused_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<QString>("reason");
    const QString shape
        = QStringLiteral(" (a model's reply is {\"text\": \"…\", \"model\": \"…\", \"stopReason\": \"endTurn\"})");
    const QString model = QStringLiteral("\"model\" is the model's id, printable text of 1 to 256 characters") + shape;
    const QString stop = QStringLiteral("\"stopReason\" is \"endTurn\", \"maxTokens\", \"stopSequence\" or another "
                                        "word of at most 64 letters")
        + shape;
    QTest::newRow("empty model") << QByteArray(R"({"text": "x", "model": ""})") << model;
    QTest::newRow("model not text") << QByteArray(R"({"text": "x", "model": 7})") << model;
    QTest::newRow("model too long") << (R"({"text": "x", "model": ")" + QByteArray(257, 'g') + R"("})") << model;
    QTest::newRow("model with a line break") << QByteArray(R"({"text": "x", "model": "a\nb"})") << model;
    QTest::newRow("stopReason with a space") << QByteArray(R"({"text": "x", "stopReason": "end turn"})") << stop;
    QTest::newRow("stopReason not text") << QByteArray(R"({"text": "x", "stopReason": 1})") << stop;
    QTest::newRow("stopReason too long") << (R"({"text": "x", "stopReason": ")" + QByteArray(65, 'e') + R"("})")
                                         << stop;
    QTest::newRow("another member") << QByteArray(R"({"text": "x", "usage": {}})")
                                    << QStringLiteral("the answer has \"usage\", which a sampling answer does not")
            + shape;
    QTest::newRow("no text") << QByteArray(R"({"model": "m"})")
                             << QStringLiteral("a sampling answer is the assistant's text: \"text\" or {\"text\": "
                                               "\"…\"}");
}

void TestMcpSamplingModel::badModelAnswersAreRefused()
{
    QFETCH(QByteArray, answer);
    QFETCH(QString, reason);
    ManualAnswer checked;
    checked.result = json::parse(answer.toStdString());
    QCOMPARE(PersonQuestion::check({{"kind", "sampling"}}, checked), reason);
    // A fitting one is taken as it is.
    ManualAnswer fits;
    fits.result = {{"text", "x"}, {"model", "claude-sonnet-4-5"}, {"stopReason", "stopSequence"}};
    QCOMPARE(PersonQuestion::check({{"kind", "sampling"}}, fits), QString());
    QCOMPARE(fits.result.dump(),
             std::string(R"({"model":"claude-sonnet-4-5","stopReason":"stopSequence","text":"x"})"));
}

void TestMcpSamplingModel::stopReasons_data()
{
    QTest::addColumn<QString>("neutral");
    QTest::addColumn<QString>("mcp");
    QTest::newRow("stop") << QStringLiteral("stop") << QStringLiteral("endTurn");
    QTest::newRow("none") << QString() << QStringLiteral("endTurn");
    QTest::newRow("length") << QStringLiteral("length") << QStringLiteral("maxTokens");
    QTest::newRow("stop_sequence") << QStringLiteral("stop_sequence") << QStringLiteral("stopSequence");
    QTest::newRow("content_filter") << QStringLiteral("content_filter") << QStringLiteral("content_filter");
    QTest::newRow("odd") << QStringLiteral("a b") << QStringLiteral("other");
}

void TestMcpSamplingModel::stopReasons()
{
    QFETCH(QString, neutral);
    QFETCH(QString, mcp);
    QCOMPARE(SamplingModelCall::stopReason(neutral), mcp);
}

// The answer made of a model's reply passes the studio's own check whatever the model's
// configured id (attack34 F3: a control character, or 300 characters ending in half an
// emoji, made `toolstudio answer --model` refuse its own answer after the tokens were spent).
void TestMcpSamplingModel::aModelsIdIsAnAnswerTheStudioTakes()
{
    ModelReply reply;
    reply.message = {{"role", "assistant"}, {"content", "hi"}};
    reply.stopReason = QStringLiteral("stop");
    for (const QString &id : {QStringLiteral("a\u0007b"), QString(255, u'x') + QStringLiteral("\U0001F600tail")}) {
        ModelConfig model;
        model.name = QStringLiteral("m");
        model.model = id;
        QString error;
        const std::optional<json> answer = SamplingModelCall::answerOf(model, reply, &error);
        QVERIFY2(answer, qPrintable(error));
        ManualAnswer manual;
        manual.result = *answer;
        const json question = {{"kind", "sampling"}};
        QCOMPARE(PersonQuestion::check(question, manual), QString());
    }
    ModelConfig bell;
    bell.name = QStringLiteral("m");
    bell.model = QStringLiteral("a\u0007b");
    QString error;
    QCOMPARE(QString::fromStdString(SamplingModelCall::answerOf(bell, reply, &error)->value("model", "")),
             QStringLiteral("a\\u0007b"));
}

void TestMcpSamplingModel::answeredHeadlessWithModel()
{
    // `toolstudio answer --model NAME`: the model is asked in that process and its reply
    // answers the call; an unknown model and an elicitation are refused (exit 2).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                      "from toolstudio import tools\n"
                      "print(tools['fake__ask'](only=['elicit', 'sample'])['content'][0]['text'])\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "cli", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "models": [{"name": "scripted", "provider": "mock", "turns": [{"content": "Hi, headless"}]},
             {"name": "teacher", "provider": "manual"}],
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})"));
    WaitingRun run;
    QVERIFY2(run.start(dir.path(), QStringLiteral("fake__ask")), run.err.constData());
    const CommandResult elicitation = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                                  QStringLiteral("--model"), QStringLiteral("scripted")});
    QCOMPARE(elicitation.exitCode, 2);
    QCOMPARE(elicitation.err,
             QByteArray("toolstudio answer: call c1 asks for elicitation, not a model's reply; "
                        "--model answers sampling requests only (answer it with --result)\n"));
    QCOMPARE(toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId, QStringLiteral("--result"),
                         QStringLiteral(R"({"action": "decline"})")})
                 .exitCode,
             0);
    QVERIFY2(run.waitFor(QStringLiteral("fake__ask")), run.err.constData());
    const CommandResult unknown = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                              QStringLiteral("--model"), QStringLiteral("teacher")});
    QCOMPARE(unknown.exitCode, 2);
    QCOMPARE(unknown.err,
             QByteArray("toolstudio answer: the project has no model 'teacher' that answers by itself "
                        "(models: scripted)\n"));
    const CommandResult both
        = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId, QStringLiteral("--model"),
                      QStringLiteral("scripted"), QStringLiteral("--result"), QStringLiteral("\"x\"")});
    QCOMPARE(both.exitCode, 2);
    const CommandResult answered = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                               QStringLiteral("--model"), QStringLiteral("scripted")});
    QVERIFY2(answered.exitCode == 0, answered.err.constData());
    QCOMPARE(answered.out,
             QByteArray("model scripted answered (endTurn): Hi, headless\naccepted: c1 attempt 1 of run ")
                 + run.runId.toUtf8() + '\n');
    run.finish();
    const QByteArray printed = scriptStdout(run.out);
    QVERIFY2(json::accept(printed.toStdString()), printed.constData());
    QCOMPARE(json::parse(printed.toStdString())["sample"].dump(),
             std::string(R"({"id":"sample-1","result":{"content":{"text":"Hi, headless","type":"text"},)"
                         R"("model":"scripted","role":"assistant","stopReason":"endTurn"}})"));
}

QTEST_GUILESS_MAIN(TestMcpSamplingModel)
#include "tst_mcpsamplingmodel.moc"
