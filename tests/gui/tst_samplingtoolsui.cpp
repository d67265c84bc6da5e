// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Tools in sampling in the answer pane (docs/mcp.md "Tools in sampling"): a sampling
// question with tools lists them with their descriptions and the toolChoice, shows the
// earlier tool_use and tool_result lines in its transcript, and answers with a call of
// a tool whose arguments are filled in a form built from its inputSchema; a model's tool
// call (Ask Model, a mock) fills that form and is sent as the model's unless edited.
// The pane answers through an answerer here, so no run or server is needed.
#include "mcp/mcppersonquestion.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "samplingpanefixture.h"
#include "schemaform.h"
#include "ui/answerpane.h"
#include "ui/samplingmodelpanel.h"
#include "ui/samplingtoolsview.h"

#include <QDialog>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using nlohmann::json;

namespace {

/// JSON written with single quotes, so moc can read this file: J("{'a': 1}").
json J(const char *text)
{
    return json::parse(QByteArray(text).replace('\'', '"').toStdString());
}

/// A step asking a weather server's sampling request: two tools, a tool call and its
/// result so far, toolChoice auto.
Step toolsStep()
{
    const json params
        = J("{'messages': ["
            "{'role': 'user', 'content': {'type': 'text', 'text': 'Should I take an umbrella in Paris tomorrow?'}},"
            "{'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'call_1', 'name': 'get_forecast',"
            "  'input': {'city': 'Paris', 'days': 1}}]},"
            "{'role': 'user', 'content': [{'type': 'tool_result', 'toolUseId': 'call_1',"
            "  'content': [{'type': 'text', 'text': 'Tomorrow: 14 C, rain from 15:00'}]}]}],"
            " 'tools': ["
            "{'name': 'get_forecast', 'description': 'Forecast for a city, up to 7 days ahead',"
            " 'inputSchema': {'type': 'object', 'properties': {'city': {'type': 'string'},"
            "  'days': {'type': 'integer', 'minimum': 1, 'maximum': 7}}, 'required': ['city']}},"
            "{'name': 'get_rain_radar', 'description': 'Rain radar of a region as text',"
            " 'inputSchema': {'type': 'object', 'properties': {'region': {'type': 'string'}},"
            "  'required': ['region']}}],"
            " 'toolChoice': {'mode': 'auto'}, 'systemPrompt': 'You plan trips.', 'maxTokens': 200}");
    QString error;
    auto question = McpPersonQuestion::question(QStringLiteral("weather"),
                                                McpServerRequest{json("s-1"), QStringLiteral("sampling/createMessage"),
                                                                 params, false, QStringLiteral("2025-11-25")},
                                                &error);
    if (!question)
        qFatal("no question: %s", qPrintable(error));
    std::optional<json> modelRequest = (*question)["model_request"];
    question->erase("model_request");
    (*question)["serial"] = 1;
    return waitingSamplingStep(QStringLiteral("weather__plan"), *question, modelRequest);
}

} // namespace

class TstSamplingToolsUi
    : public QObject
    , protected SamplingPaneFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUpPane(QSize(620, 900)); }
    void cleanup() { m_pane.reset(); }

    void aPersonAnswersWithAToolCall()
    {
        m_project.models = ModelConfig::parseAll(
            J("[{'name': 'scripted', 'provider': 'mock', 'turns': [{'content': 'Yes.'}]}]"), RetryPolicy{});
        m_pane->setCall(toolsStep());
        QCOMPARE(m_pane->argumentsView()->toPlainText(),
                 QStringLiteral("System prompt: You plan trips.\n"
                                "user: Should I take an umbrella in Paris tomorrow?\n"
                                "assistant: → get_forecast({\"city\":\"Paris\",\"days\":1})  [call_1]\n"
                                "user: ← [call_1] Tomorrow: 14 C, rain from 15:00"));
        SamplingToolsView *tools = m_pane->samplingTools();
        QVERIFY(tools->isVisible());
        QCOMPARE(
            child<QLabel>("samplingToolsHeading")->text(),
            QStringLiteral("The server offers 2 tool(s) (toolChoice \"auto\"): reply with text or a call of one."));
        QTreeWidget *list = tools->toolList();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("get_forecast"));
        QCOMPARE(list->topLevelItem(0)->text(1), QStringLiteral("Forecast for a city, up to 7 days ahead"));
        QVERIFY(list->topLevelItem(1)->toolTip(0).contains(QStringLiteral("\"region\"")));
        // For a person to look at: screenshots/sampling-tools-question.png under the build dir.
        QTest::qWait(50);
        const QString shots = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QVERIFY(QDir().mkpath(shots));
        QVERIFY(m_pane->grab().save(shots + QStringLiteral("/sampling-tools-question.png")));
        // View Schema… shows the chosen tool's inputSchema as the server sent it.
        child<QPushButton>("viewToolSchema")->click();
        auto *dialog = tools->findChild<QDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->windowTitle(), QStringLiteral("inputSchema of get_forecast"));
        QCOMPARE(dialog->findChild<QPlainTextEdit *>()->toPlainText(),
                 QStringLiteral("{\n  \"properties\": {\n    \"city\": {\n      \"type\": \"string\"\n    },\n"
                                "    \"days\": {\n      \"maximum\": 7,\n      \"minimum\": 1,\n      \"type\": "
                                "\"integer\"\n    }\n  },\n  \"required\": [\n    \"city\"\n  ],\n  \"type\": "
                                "\"object\"\n}"));
        dialog->close();
        // The second tool, its argument filled in the form of its inputSchema.
        list->setCurrentItem(list->topLevelItem(1));
        auto *region = qobject_cast<QLineEdit *>(tools->argumentsForm()->control(QStringLiteral("/region")));
        QVERIFY(region);
        QTest::keyClicks(region, QStringLiteral("Île-de-France"));
        tools->sendButton()->click();
        QCOMPARE(m_answers.size(), std::size_t(1));
        QCOMPARE(m_answers[0].dump(),
                 J("{'content': [{'type': 'tool_use', 'name': 'get_rain_radar',"
                   " 'input': {'region': 'Île-de-France'}}]}")
                     .dump());
    }

    void aModelsToolCallFillsTheForm()
    {
        m_project.models = ModelConfig::parseAll(
            J("[{'name': 'scripted', 'provider': 'mock', 'turns': ["
              "{'tool_calls': [{'id': 'call_9', 'name': 'get_forecast', 'arguments': {'city': 'Paris', 'days': 2}}]},"
              "{'tool_calls': [{'id': 'call_10', 'name': 'get_forecast', 'arguments': {'city': 'Lyon'}}]}]}]"),
            RetryPolicy{});
        m_pane->setCall(toolsStep());
        child<QPushButton>("askModel")->click();
        SamplingToolsView *tools = m_pane->samplingTools();
        QTRY_COMPARE(tools->argumentsForm()->value().dump(), std::string(R"({"city":"Paris","days":2})"));
        QCOMPARE(child<QLabel>("toolUseStatus")->text(),
                 QStringLiteral("The model calls get_forecast: edit its arguments or Send Tool Call; an edited call is "
                                "sent as the person's."));
        QVERIFY(m_answers.empty()); // filled, not sent
        tools->sendButton()->click();
        QCOMPARE(m_answers.size(), std::size_t(1));
        QCOMPARE(m_answers[0].dump(),
                 J("{'content': [{'type': 'tool_use', 'id': 'call_9', 'name': 'get_forecast',"
                   " 'input': {'city': 'Paris', 'days': 2}}], 'model': 'scripted',"
                   " 'stopReason': 'toolUse'}")
                     .dump());
        // Asked again and edited: the person's call, no id (the engine gives it one).
        child<QPushButton>("askModel")->click();
        QTRY_COMPARE(tools->argumentsForm()->value().dump(), std::string(R"({"city":"Lyon"})"));
        auto *city = qobject_cast<QLineEdit *>(tools->argumentsForm()->control(QStringLiteral("/city")));
        QVERIFY(city);
        city->clear();
        QTest::keyClicks(city, QStringLiteral("Nice"));
        tools->sendButton()->click();
        QCOMPARE(m_answers.size(), std::size_t(2));
        QCOMPARE(m_answers[1].dump(),
                 J("{'content': [{'type': 'tool_use', 'name': 'get_forecast', 'input': {'city': 'Nice'}}]}").dump());
    }

    void theReplyHintNamesTheToolCall()
    {
        m_pane->setCall(toolsStep());
        QCOMPARE(child<QLabel>("replyHint")->text(), QStringLiteral("Write the reply, or send a tool call above"));
        // toolChoice "required": no text reply; Send Reply stays disabled.
        Step step = toolsStep();
        (*step.attempts.back().question)["tool_choice"] = "required";
        m_pane->setCall(step);
        QCOMPARE(child<QLabel>("replyHint")->text(),
                 QStringLiteral("The server requires a tool call: Send Tool Call above"));
        QTest::keyClicks(m_pane->resultForm()->control(QStringLiteral("/text")), QStringLiteral("Yes"));
        QVERIFY(!m_pane->sendResultButton()->isEnabled());
        QVERIFY(m_pane->samplingTools()->sendButton()->isVisible());
        // toolChoice "none": the tools are shown, no call is offered.
        (*step.attempts.back().question)["tool_choice"] = "none";
        m_pane->setCall(step);
        QCOMPARE(child<QLabel>("replyHint")->text(), QStringLiteral("Write the reply (required)"));
        QVERIFY(m_pane->samplingTools()->isVisible());
        QVERIFY(!m_pane->samplingTools()->sendButton()->isVisible());
    }

    void hiddenWithoutTools()
    {
        Step step = toolsStep();
        step.attempts.back().question->erase("tools");
        m_pane->setCall(step);
        QVERIFY(!m_pane->samplingTools()->isVisible());
        m_pane->setCall(toolsStep());
        QVERIFY(m_pane->samplingTools()->isVisible());
        m_pane->clearCall();
        QVERIFY(!m_pane->samplingTools()->isVisible());
    }
};

QTEST_MAIN(TstSamplingToolsUi)
#include "tst_samplingtoolsui.moc"
