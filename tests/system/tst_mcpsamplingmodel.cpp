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
// maxTokens 50, temperature 0.7, includeContext "thisServer").
#include "bridgemessage.h"
#include "clirunner.h"
#include "engine/personquestion.h"
#include "engine/stepengine.h"
#include "fakemodelserver.h"
#include "llm/samplingmodel.h"
#include "mcp/mcppersonquestion.h"
#include "mcp/mcpprojecttools.h"
#include "sampledcall.h"
#include "testfiles.h"
#include "trustedproject.h"
#include "waitingrun.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

/// The model request of a sampling/createMessage whose params are "Say hi" and `extra`.
json modelRequestFor(const json &extra)
{
    json params = {{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Say hi"}}}}}}};
    params.update(extra);
    QString error;
    const auto question = McpPersonQuestion::question(
        QStringLiteral("s"), McpServerRequest{1, QStringLiteral("sampling/createMessage"), params}, &error);
    if (!question)
        return json{{"no question", error.toStdString()}};
    return (*question)["model_request"];
}

/// `request` without its messages and omitted count: what the server asked besides.
std::string besides(json request)
{
    request.erase("messages");
    request.erase("omitted");
    return request.dump();
}

} // namespace

class TestMcpSamplingModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void theQuestionCarriesTheRequestForAModel();
    void blocksAModelCannotTakeAreNoted();
    void anImageReachesThePersonAndTheModel();
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
    void answeredHeadlessWithThePreferredModel();
    void theServersPreferencesAreKept();
    void hostileValuesAreNoted_data();
    void hostileValuesAreNoted();
    void temperatureAndStopReachTheModel_data();
    void temperatureAndStopReachTheModel();
    void hintsChooseAModel();
    void theReplysModelIdIsTheAnswers_data();
    void theReplysModelIdIsTheAnswers();
    void aStopSequenceIsTheStopReason();

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
    const json expected = {{"messages", {{{"role", "user"}, {"content", "Say hi"}}}},
                           {"notes", {"includeContext \"thisServer\" asked; the studio includes none"}},
                           {"omitted", 0},
                           {"system", "Be brief"},
                           {"temperature", 0.7}};
    QCOMPARE(call.modelRequest->dump(), expected.dump());
    QCOMPARE(call.asked["model_request"].dump(), expected.dump());
    QCOMPARE(call.asked["question"].dump(), call.question.dump());
    QVERIFY(call.answer("by hand"));
    QCOMPARE(call.serverGot()["result"]["model"].get<std::string>(), std::string("person"));
}

void TestMcpSamplingModel::blocksAModelCannotTakeAreNoted()
{
    // An image or audio block a model cannot take (here: bytes that are no PNG, audio in
    // an assistant message) is a note in the text, counted, and said in the notes; a
    // role other than user and assistant cannot be given to a model.
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
                   {"notes",
                    {"messages[0] image image/png: the data is not a PNG image (image/png declared); not sent",
                     "messages[1] audio (no mimeType): a model takes images and audio in user messages only; not "
                     "sent"}},
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

void TestMcpSamplingModel::anImageReachesThePersonAndTheModel()
{
    // A server's sampling request with a picture and a clip, through a run: the journal's
    // person_asked keeps the picture's data once (the question's media refer to the
    // model's request), and an openai-chat model is sent the parts.
    const std::string png
        = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const json content = json::array({json{{"type", "text"}, {"text", "What is on it?"}},
                                      json{{"type", "image"}, {"data", png}, {"mimeType", "image/png"}},
                                      json{{"type", "audio"}, {"data", "T2dnUw=="}, {"mimeType", "audio/ogg"}}});
    SampledCall call(*m_project, {{"messages", {{{"role", "user"}, {"content", content}}}}});
    QVERIFY(call.waitForQuestion());
    QCOMPARE(call.question.value("message", std::string()),
             std::string("user: What is on it?\n[image 1: image/png]\n[audio 2: audio/ogg]"));
    QCOMPARE(call.asked["question"]["media"].dump(),
             json::array({json{{"type", "image"}, {"role", "user"}, {"mimeType", "image/png"}, {"model_part", {0, 1}}},
                          json{{"type", "audio"}, {"role", "user"}, {"mimeType", "audio/ogg"}, {"data", "T2dnUw=="}}})
                 .dump());
    QCOMPARE(call.asked["model_request"]["messages"][0]["content"][1].dump(),
             json({{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64," + png}}}}).dump());
    QCOMPARE(call.asked["model_request"]["notes"][0].get<std::string>(),
             std::string("messages[0] audio audio/ogg: a model is given WAV and MP3 audio only; not sent"));
    QCOMPARE(QString::fromStdString(call.asked.dump()).count(QString::fromStdString(png)), 1);
    const ModelConfig model = modelFrom({{"name", "local"},
                                         {"provider", "openai-chat"},
                                         {"base_url", (m_models.base() + QStringLiteral("/ok")).toStdString()},
                                         {"model", "qwen2.5-vl"}});
    const SamplingModelCall::Outcome outcome = askModel(model, *call.modelRequest, 50);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    const json sent = json::parse(m_models.get(QStringLiteral("/last"))["body"].get<std::string>());
    QCOMPARE(sent["messages"].dump(),
             json::array({json{{"role", "system"}, {"content", "Be brief"}},
                          json{{"role", "user"},
                               {"content",
                                {{{"type", "text"}, {"text", "What is on it?"}},
                                 {{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64," + png}}}},
                                 {{"type", "text"}, {"text", "[audio not sent]"}}}}}})
                 .dump());
    QVERIFY(call.answer(outcome.answer));
    QCOMPARE(call.serverGot()["result"]["model"].get<std::string>(), std::string("qwen2.5-vl"));
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
    QCOMPARE(sent["temperature"].dump(), std::string("0.7"));
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
    // A server alone does not set the budget (attack36 F3): without a limit of the
    // model's own, at most DefaultMaxTokens, said in the notes; the model's own allows more.
    const ModelConfig open = modelFrom({{"name", "m"}, {"provider", "openai-chat"}, {"model", "x"}});
    QCOMPARE(SamplingModelCall::bounded(open, 2147483647).params.dump(), std::string(R"({"max_tokens":4096})"));
    QCOMPARE(
        SamplingModelCall::notes(open, json::object(), 2147483647),
        QStringList{QStringLiteral("maxTokens 2147483647 asked; at most 4096 sent, as model 'm' sets no max_tokens "
                                   "of its own in its params (set one to allow more)")});
    const ModelConfig generous
        = modelFrom({{"name", "g"}, {"provider", "anthropic"}, {"model", "x"}, {"params", {{"max_tokens", 16000}}}});
    QCOMPARE(SamplingModelCall::bounded(generous, 100000).params.dump(), std::string(R"({"max_tokens":16000})"));
    QCOMPARE(SamplingModelCall::notes(generous, json::object(), 100000), QStringList());
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
             QByteArray("model scripted answered (endTurn): Hi, headless\n"
                        "  not as asked: includeContext \"thisServer\" asked; the studio includes none\n"
                        "  not as asked: model 'scripted' is a mock: its turns answer; the server's temperature and "
                        "stop sequences are not used\n"
                        "accepted: c1 attempt 1 of run ")
                 + run.runId.toUtf8() + '\n');
    run.finish();
    const QByteArray printed = scriptStdout(run.out);
    QVERIFY2(json::accept(printed.toStdString()), printed.constData());
    QCOMPARE(json::parse(printed.toStdString())["sample"].dump(),
             std::string(R"({"id":"sample-1","result":{"content":{"text":"Hi, headless","type":"text"},)"
                         R"("model":"scripted","role":"assistant","stopReason":"endTurn"}})"));
}

void TestMcpSamplingModel::answeredHeadlessWithThePreferredModel()
{
    // `toolstudio answer --preferred-model`: the server's modelPreferences.hints choose
    // the model as the window's chooser does; hints none of the models matches, or none,
    // are refused naming the models (exit 2), and the question stays open.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("srv/fakeserver.py")), fileBytes(mcpFixture("fakeserver.py"))));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("scripts/main.py")),
                      "from toolstudio import tools\n"
                      "hints = {'modelPreferences': {'hints': [{'name': 'gpt-9'}, {'name': 'SCRIPT'}]}}\n"
                      "print(tools['fake__ask'](only=['sample'], sample_extra=hints)['content'][0]['text'])\n"
                      "print(tools['fake__ask'](only=['sample'], sample_extra={'modelPreferences': "
                      "{'hints': [{'name': 'o3'}]}})['content'][0]['text'])\n"
                      "print(tools['fake__ask'](only=['sample'])['content'][0]['text'])\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("toolstudio.json")),
                      R"({"name": "cli", "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "models": [{"name": "local", "provider": "openai-chat", "model": "qwen2.5:7b", "base_url": "http://127.0.0.1:9/v1"},
             {"name": "scripted", "provider": "mock", "turns": [{"content": "Hi, preferred"}]},
             {"name": "teacher", "provider": "manual"}],
  "mcp_servers": {"fake": {"command": "python3", "args": ["srv/fakeserver.py", "asks"]}}})"));
    WaitingRun run;
    QVERIFY2(run.start(dir.path(), QStringLiteral("fake__ask")), run.err.constData());
    const QStringList preferred{QStringLiteral("answer"), dir.path(), run.runId, run.callId,
                                QStringLiteral("--preferred-model")};
    const CommandResult both = toolstudio(preferred + QStringList{QStringLiteral("--model"), QStringLiteral("local")});
    QCOMPARE(both.exitCode, 2);
    QCOMPARE(both.err, QByteArray("toolstudio answer: give --model NAME or --preferred-model, not both\n"));
    const CommandResult chosen = toolstudio(preferred);
    QVERIFY2(chosen.exitCode == 0, chosen.err.constData());
    QVERIFY2(chosen.out.startsWith("the server prefers a model like \"SCRIPT\": 'scripted' answers\n"
                                   "model scripted answered (endTurn): Hi, preferred\n"),
             chosen.out.constData());
    QVERIFY2(run.waitFor(QStringLiteral("fake__ask")), run.err.constData());
    const QString second = run.callId;
    const CommandResult unmatched
        = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, second, QStringLiteral("--preferred-model")});
    QCOMPARE(unmatched.exitCode, 2);
    QCOMPARE(unmatched.err,
             QByteArray("toolstudio answer: call ") + second.toUtf8()
                 + "'s server prefers a model like \"o3\"; none of the project's models matches: name one "
                   "with --model NAME (models: local, scripted)\n");
    QCOMPARE(toolstudio({QStringLiteral("answer"), dir.path(), run.runId, second, QStringLiteral("--error"),
                         QStringLiteral("no model")})
                 .exitCode,
             0);
    QVERIFY2(run.waitFor(QStringLiteral("fake__ask")), run.err.constData());
    const QString third = run.callId;
    const CommandResult none
        = toolstudio({QStringLiteral("answer"), dir.path(), run.runId, third, QStringLiteral("--preferred-model")});
    QCOMPARE(none.exitCode, 2);
    QCOMPARE(none.err,
             QByteArray("toolstudio answer: call ") + third.toUtf8()
                 + "'s server names no model it prefers (no modelPreferences.hints): name one with "
                   "--model NAME (models: local, scripted)\n");
    QCOMPARE(toolstudio({QStringLiteral("answer"), dir.path(), run.runId, third, QStringLiteral("--error"),
                         QStringLiteral("no model")})
                 .exitCode,
             0);
    run.finish();
    const QList<QByteArray> printed = scriptStdout(run.out).split('\n');
    QVERIFY2(printed.size() >= 3, scriptStdout(run.out).constData());
    QCOMPARE(json::parse(printed.at(0).toStdString())["sample"]["result"].dump(),
             std::string(R"({"content":{"text":"Hi, preferred","type":"text"},"model":"scripted","role":"assistant",)"
                         R"("stopReason":"endTurn"})"));
    for (int line : {1, 2})
        QCOMPARE(json::parse(printed.at(line).toStdString())["sample"]["error"]["message"].dump(),
                 std::string(R"("no model")"));
}

void TestMcpSamplingModel::theServersPreferencesAreKept()
{
    // MCP's temperature, stopSequences and modelPreferences go with the request a model
    // is given; includeContext other than "none" is said, as the studio has none to give.
    const json request = modelRequestFor({{"temperature", 0.7},
                                          {"stopSequences", {"END", "\n\n"}},
                                          {"modelPreferences",
                                           {{"hints", {{{"name", "sonnet"}}, {{"name", "qwen"}}}},
                                            {"intelligencePriority", 0.8},
                                            {"speedPriority", 0.5}}},
                                          {"includeContext", "thisServer"},
                                          {"maxTokens", 50}});
    QCOMPARE(request.dump(),
             std::string(R"({"hints":["sonnet","qwen"],"messages":[{"content":"Say hi","role":"user"}],)"
                         R"("notes":["includeContext \"thisServer\" asked; the studio includes none"],"omitted":0,)"
                         R"("priorities":{"intelligencePriority":0.8,"speedPriority":0.5},)"
                         R"("stop_sequences":["END","\n\n"],"temperature":0.7})"));
    // "none", and nothing asked: nothing added.
    QCOMPARE(besides(modelRequestFor({{"includeContext", "none"}})), std::string("{}"));
}

void TestMcpSamplingModel::hostileValuesAreNoted_data()
{
    QTest::addColumn<QByteArray>("extra");
    QTest::addColumn<QByteArray>("kept");
    json many = json::array();
    for (int i = 0; i < 10000; ++i)
        many.push_back("s" + std::to_string(i));
    json hints = json::array();
    for (int i = 0; i < 100; ++i)
        hints.push_back({{"name", "h" + std::to_string(i)}});
    const auto row = [](const char *name, const json &extra, const json &kept) {
        QTest::newRow(name) << QByteArray::fromStdString(extra.dump()) << QByteArray::fromStdString(kept.dump());
    };
    row("temperature hot", {{"temperature", "hot"}}, {{"notes", {"temperature \"hot\" is not a number; not sent"}}});
    row("temperature true", {{"temperature", true}}, {{"notes", {"temperature true is not a number; not sent"}}});
    row("10 000 stop sequences", {{"stopSequences", many}},
        {{"notes", {"stopSequences has 10000 usable entries; a model is given the first 4, not the other 9996"}},
         {"stop_sequences", {"s0", "s1", "s2", "s3"}}});
    row("a 1 MB stop sequence", {{"stopSequences", {std::string(1024 * 1024, 'x'), "END"}}},
        {{"notes", {"stopSequences[0] is 1048576 bytes, more than 256; not sent"}}, {"stop_sequences", {"END"}}});
    row("odd stop sequences", {{"stopSequences", {7, "", "ok"}}},
        {{"notes",
          {"stopSequences[0] is a number, not text (and 1 more entries not text of 1 to 256 bytes); not sent"}},
         {"stop_sequences", {"ok"}}});
    row("stopSequences not an array", {{"stopSequences", "END"}},
        {{"notes", {"stopSequences is a string, not an array; none is sent"}}});
    row("hints not an array", {{"modelPreferences", {{"hints", {{"name", "claude"}}}}}},
        {{"notes", {"modelPreferences.hints is an object, not an array; no model is chosen by them"}}});
    row("modelPreferences not an object", {{"modelPreferences", "fast"}},
        {{"notes", {"modelPreferences is a string, not an object; not used"}}});
    row("100 hints and odd ones", {{"modelPreferences", {{"hints", hints}}}},
        {{"hints", {"h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7"}},
         {"notes",
          {"modelPreferences.hints: 92 of 100 hints not used (a hint is {\"name\": text of 1 to 256 bytes}; at most "
           "8 are used)"}}});
    row("a hint of a control character", {{"modelPreferences", {{"hints", {{{"name", "a\u0007"}}, {{"name", 3}}}}}}},
        {{"hints", {"a\\u0007"}},
         {"notes",
          {"modelPreferences.hints: 1 of 2 hints not used (a hint is {\"name\": text of 1 to 256 bytes}; at most 8 "
           "are used)"}}});
    row("priority out of range", {{"modelPreferences", {{"costPriority", 5}, {"speedPriority", "high"}}}},
        {{"notes",
          {"modelPreferences.costPriority 5 is not a number from 0 to 1; not shown",
           "modelPreferences.speedPriority \"high\" is not a number from 0 to 1; not shown"}}});
    row("includeContext odd", {{"includeContext", 7}},
        {{"notes", {"includeContext 7 is not \"none\", \"thisServer\" or \"allServers\"; the studio includes none"}}});
    row("includeContext allServers", {{"includeContext", "allServers"}},
        {{"notes", {"includeContext \"allServers\" asked; the studio includes none"}}});
}

void TestMcpSamplingModel::hostileValuesAreNoted()
{
    // What cannot be given to a model is dropped and said, one sentence each, never a
    // refusal of the question: a person (or a model) still answers it.
    QFETCH(QByteArray, extra);
    QFETCH(QByteArray, kept);
    const json request = modelRequestFor(json::parse(extra.toStdString()));
    QCOMPARE(QString::fromStdString(besides(request)), QString::fromUtf8(kept));
    // The messages still reach a model.
    QString error;
    QVERIFY2(SamplingModelCall::request(request, &error), qPrintable(error));
}

void TestMcpSamplingModel::temperatureAndStopReachTheModel_data()
{
    QTest::addColumn<QByteArray>("model");  // the model entry; BASE is the fake server's
    QTest::addColumn<QByteArray>("extra");  // the server's request besides its messages
    QTest::addColumn<QByteArray>("sent");   // members of the body the model server got (null: absent)
    QTest::addColumn<QStringList>("notes"); // SamplingModelCall::notes, the outcome's too
    const QByteArray asked = R"({"temperature": 0.7, "stopSequences": ["END", "\n\n"]})";
    QTest::newRow("openai-chat") << QByteArray(R"({"name": "m", "provider": "openai-chat", "model": "x",
        "base_url": "BASE/ok"})") << asked
                                 << QByteArray(R"({"temperature": 0.7, "stop": ["END", "\n\n"],
        "stop_sequences": null})")
                                 << QStringList();
    QTest::newRow("anthropic") << QByteArray(R"({"name": "m", "provider": "anthropic", "model": "claude-x",
        "base_url": "BASE/ok"})")
                               << asked << QByteArray(R"({"temperature": 0.7, "stop_sequences": ["END", "\n\n"],
        "stop": null})") << QStringList();
    QTest::newRow("anthropic above 1")
        << QByteArray(R"({"name": "m", "provider": "anthropic", "model": "claude-x", "base_url": "BASE/ok"})")
        << QByteArray(R"({"temperature": 1.5})") << QByteArray(R"({"temperature": null})")
        << QStringList{QStringLiteral("temperature 1.5 asked is outside 0 to 1, what anthropic takes; not sent")};
    QTest::newRow("openai 1e308")
        << QByteArray(R"({"name": "m", "provider": "openai-chat", "model": "x", "base_url": "BASE/ok"})")
        << QByteArray(R"({"temperature": 1e308, "stopSequences": "END"})")
        << QByteArray(R"({"temperature": null, "stop": null})")
        << QStringList{QStringLiteral("stopSequences is a string, not an array; none is sent"),
                       QStringLiteral("temperature 1e+308 asked is outside 0 to 2, what openai-chat takes; not sent")};
    QTest::newRow("negative")
        << QByteArray(R"({"name": "m", "provider": "openai-chat", "model": "x", "base_url": "BASE/ok"})")
        << QByteArray(R"({"temperature": -0.5})") << QByteArray(R"({"temperature": null})")
        << QStringList{QStringLiteral("temperature -0.5 asked is outside 0 to 2, what openai-chat takes; not sent")};
    QTest::newRow("the project's own win")
        << QByteArray(R"({"name": "m", "provider": "openai-chat", "model": "x", "base_url": "BASE/ok",
        "params": {"temperature": 0.2, "stop": ["###"]}})")
        << asked << QByteArray(R"({"temperature": 0.2, "stop": ["###"]})")
        << QStringList{QStringLiteral("temperature 0.7 asked; model 'm' sets its own (0.2) in its params"),
                       QStringLiteral("stop sequences asked; model 'm' sets its own \"stop\" in its params")};
    QTest::newRow("mock") << QByteArray(
        R"({"name": "m", "provider": "mock", "turns": [{"content": "1 EUR is 1.08 USD."}]})")
                          << asked << QByteArray()
                          << QStringList{QStringLiteral("model 'm' is a mock: its turns answer; the server's "
                                                        "temperature and stop sequences are not used")};
}

void TestMcpSamplingModel::temperatureAndStopReachTheModel()
{
    QFETCH(QByteArray, model);
    QFETCH(QByteArray, extra);
    QFETCH(QByteArray, sent);
    QFETCH(QStringList, notes);
    const ModelConfig config = modelFrom(json::parse(model.replace("BASE", m_models.base().toUtf8()).toStdString()));
    const json request = modelRequestFor(json::parse(extra.toStdString()));
    QCOMPARE(SamplingModelCall::notes(config, request), notes);
    const int before = m_models.get(QStringLiteral("/count"))["count"].get<int>();
    const SamplingModelCall::Outcome outcome = askModel(config, request, 50);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(outcome.notes, notes);
    QCOMPARE(outcome.answer["text"].get<std::string>(), std::string("1 EUR is 1.08 USD."));
    if (sent.isEmpty()) { // a mock: no request
        QCOMPARE(m_models.get(QStringLiteral("/count"))["count"].get<int>(), before);
        return;
    }
    const json body = json::parse(m_models.get(QStringLiteral("/last"))["body"].get<std::string>());
    const json expected = json::parse(sent.toStdString());
    for (const auto &[key, value] : expected.items()) {
        if (value.is_null())
            QVERIFY2(!body.contains(key), key.c_str());
        else
            QCOMPARE(QString::fromStdString(body.value(key, json()).dump()), QString::fromStdString(value.dump()));
    }
    QCOMPARE(body["max_tokens"].get<int>(), 50);
}

void TestMcpSamplingModel::hintsChooseAModel()
{
    // modelPreferences.hints, in order, as substrings of a model's id or name (any case);
    // a manual model is a person and never chosen.
    const std::vector<ModelConfig> models
        = ModelConfig::parseAll(json::parse(R"([{"name": "sonnet_teacher", "provider": "manual"},
                        {"name": "local", "provider": "openai-chat", "model": "qwen2.5:7b"},
                        {"name": "claude", "provider": "anthropic", "model": "claude-sonnet-4-5"},
                        {"name": "scripted", "provider": "mock", "turns": [{"content": "x"}]}])"),
                                RetryPolicy{});
    const auto chosen = [&](const json &hints) {
        QString hint;
        const auto index = SamplingModelCall::preferred(models, json{{"hints", hints}}, &hint);
        return index ? QStringLiteral("%1 by %2").arg(models[*index].name, hint) : QStringLiteral("none");
    };
    QCOMPARE(chosen({"sonnet", "qwen"}), QStringLiteral("claude by sonnet"));
    QCOMPARE(chosen({"gpt-4o", "QWEN"}), QStringLiteral("local by QWEN"));
    QCOMPARE(chosen({"script"}), QStringLiteral("scripted by script"));
    QCOMPARE(chosen({"gpt-9", "o3"}), QStringLiteral("none"));
    QCOMPARE(chosen(json::array()), QStringLiteral("none"));
    QVERIFY(!SamplingModelCall::preferred(models, json{{"hints", "claude"}}));
    QVERIFY(!SamplingModelCall::preferred(models, json()));
    // From the server's request through the question.
    QCOMPARE(*SamplingModelCall::preferred(
                 models, modelRequestFor({{"modelPreferences", {{"hints", {{{"name", "claude-sonnet"}}}}}}})),
             std::size_t(2));
}

void TestMcpSamplingModel::theReplysModelIdIsTheAnswers_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("id");
    QTest::newRow("openai dated") << QStringLiteral("openai-chat") << QStringLiteral("dated")
                                  << QStringLiteral("qwen2.5:7b-2025-06-01");
    QTest::newRow("anthropic dated") << QStringLiteral("anthropic") << QStringLiteral("dated")
                                     << QStringLiteral("qwen2.5:7b-2025-06-01");
    QTest::newRow("openai names the same")
        << QStringLiteral("openai-chat") << QStringLiteral("ok") << QStringLiteral("qwen2.5:7b");
    // A control character and 5000 characters: printable, at most 256, an answer the studio takes.
    QTest::newRow("openai odd") << QStringLiteral("openai-chat") << QStringLiteral("oddmodel")
                                << QStringLiteral("\\u0007") + QString(250, u'm');
    QTest::newRow("anthropic odd") << QStringLiteral("anthropic") << QStringLiteral("oddmodel")
                                   << QStringLiteral("\\u0007") + QString(250, u'm');
}

void TestMcpSamplingModel::theReplysModelIdIsTheAnswers()
{
    QFETCH(QString, provider);
    QFETCH(QString, scenario);
    QFETCH(QString, id);
    SampledCall call(*m_project);
    QVERIFY(call.waitForQuestion());
    const ModelConfig model = modelFrom({{"name", "m"},
                                         {"provider", provider.toStdString()},
                                         {"base_url", (m_models.base() + u'/' + scenario).toStdString()},
                                         {"model", "qwen2.5:7b"}});
    const SamplingModelCall::Outcome outcome = askModel(model, *call.modelRequest, 50);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(QString::fromStdString(outcome.answer["model"].get<std::string>()), id);
    QString reason;
    QVERIFY2(call.answer(outcome.answer, &reason), qPrintable(reason));
    QCOMPARE(QString::fromStdString(call.serverGot()["result"]["model"].get<std::string>()), id);
}

void TestMcpSamplingModel::aStopSequenceIsTheStopReason()
{
    // Anthropic says when it stopped at a stop sequence: MCP's "stopSequence". Chat
    // Completions says "stop" either way: "endTurn".
    const json request = modelRequestFor({{"stopSequences", {"END"}}});
    for (const auto &[provider, reason] :
         {std::pair("anthropic", "stopSequence"), std::pair("openai-chat", "endTurn")}) {
        const ModelConfig model = modelFrom({{"name", "m"},
                                             {"provider", provider},
                                             {"base_url", (m_models.base() + QStringLiteral("/stopseq")).toStdString()},
                                             {"model", "x"}});
        const SamplingModelCall::Outcome outcome = askModel(model, request, 50);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.answer["stopReason"].get<std::string>(), std::string(reason));
    }
}

QTEST_GUILESS_MAIN(TestMcpSamplingModel)
#include "tst_mcpsamplingmodel.moc"
