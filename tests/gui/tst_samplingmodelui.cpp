// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Ask Model in the answer pane (docs/mcp.md "A model writes the reply"): a sampling
// question of an MCP server shows a chooser of the project's models that are not
// `manual`; Ask Model fills the Reply field with the model's text (a mock model: no
// network), Send Reply sends it with the model's id and stop reason, or as the
// person's once edited; a failing model says why and sends nothing; without a model the
// chooser is disabled and says how to add one. The pane answers through an answerer
// here, so no run or server is needed.
#include "contentblocksview.h"
#include "mcp/mcppersonquestion.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "samplingpanefixture.h"
#include "schemaform.h"
#include "ui/answerpane.h"
#include "ui/samplingmodelpanel.h"

#include <QBuffer>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

/// A step whose attempt asks the fake server's sampling question ("Say hi").
Step samplingStep()
{
    return waitingSamplingStep(QStringLiteral("fake__ask"),
                               json{{"kind", "sampling"},
                                    {"server", "fake"},
                                    {"method", "sampling/createMessage"},
                                    {"request_id", "s-1"},
                                    {"message", "user: Say hi"},
                                    {"system_prompt", "Be brief"},
                                    {"max_tokens", 50},
                                    {"serial", 1}},
                               json{{"messages", {{{"role", "user"}, {"content", "Say hi\n[image not sent]"}}}},
                                    {"omitted", 1},
                                    {"system", "Be brief"}});
}

} // namespace

class TstSamplingModelUi
    : public QObject
    , protected SamplingPaneFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUpPane(QSize(700, 600)); }
    void cleanup() { m_pane.reset(); }

    void askModelFillsTheReply()
    {
        useModels({{{"name", "scripted"}, {"provider", "mock"}, {"turns", {{{"content", "Hello from the model"}}}}},
                   {{"name", "teacher"}, {"provider", "manual"}}});
        m_pane->setCall(samplingStep());
        QCOMPARE(m_pane->sendResultButton()->text(), QStringLiteral("Send Reply"));
        auto *chooser = child<QComboBox>("samplingModelChooser");
        QVERIFY(chooser->isVisible() && chooser->isEnabled());
        QCOMPARE(chooser->count(), 1); // the manual model is a person: not offered
        QCOMPARE(chooser->currentText(), QStringLiteral("scripted"));
        // What the model will not see is said before it is asked.
        QCOMPARE(child<QLabel>("askModelStatus")->text(),
                 QStringLiteral("1 block(s) of the messages (an image or audio a model cannot take, in a message or a "
                                "tool's result) are not sent to a model, each replaced by a note in the text."));
        child<QPushButton>("askModel")->click();
        QTRY_COMPARE(m_pane->resultForm()->value().dump(), std::string(R"({"text":"Hello from the model"})"));
        QVERIFY(child<QLabel>("askModelStatus")
                    ->text()
                    .startsWith(QStringLiteral("Model 'scripted' wrote the reply (stop reason endTurn).")));
        QVERIFY(m_answers.empty()); // filled, not sent
        QVERIFY(m_pane->sendResult());
        QCOMPARE(m_answers.size(), std::size_t(1));
        QCOMPARE(m_answers[0].dump(),
                 std::string(R"({"model":"scripted","stopReason":"endTurn","text":"Hello from the model"})"));
    }

    void anEditedReplyIsThePersons()
    {
        useModels({{{"name", "scripted"}, {"provider", "mock"}, {"turns", {{{"content", "Hello"}}}}}});
        m_pane->setCall(samplingStep());
        child<QPushButton>("askModel")->click();
        QTRY_COMPARE(m_pane->resultForm()->value().dump(), std::string(R"({"text":"Hello"})"));
        auto *reply = qobject_cast<QLineEdit *>(m_pane->resultForm()->control(QStringLiteral("/text")));
        QVERIFY(reply);
        QTest::keyClicks(reply, QStringLiteral(", Ada"));
        QVERIFY(m_pane->sendResult());
        QCOMPARE(m_answers.size(), std::size_t(1));
        QCOMPARE(m_answers[0].dump(), std::string(R"({"text":"Hello, Ada"})"));
    }

    void aFailingModelSaysWhyAndSendsNothing()
    {
        useModels({{{"name", "broken"},
                    {"provider", "mock"},
                    {"turns", {{{"error", "the model is down"}, {"retryable", false}}}}}});
        m_pane->setCall(samplingStep());
        child<QPushButton>("askModel")->click();
        auto *status = child<QLabel>("askModelStatus");
        QTRY_VERIFY(status->text().startsWith(
            QStringLiteral("Model 'broken' did not answer; nothing was sent to the server: ")));
        QVERIFY2(status->text().contains(QStringLiteral("the model is down")), qPrintable(status->text()));
        QVERIFY(child<QPushButton>("askModel")->isVisible());
        QCOMPARE(m_pane->resultForm()->value().value("text", std::string()), std::string());
        QVERIFY(m_answers.empty());
        QCOMPARE(m_pane->callId(), QStringLiteral("c1")); // still waiting
    }

    void askingCanBeStopped()
    {
        useModels({{{"name", "slow"}, {"provider", "mock"}, {"turns", {{{"content", "late"}, {"delay_seconds", 3}}}}}});
        m_pane->setCall(samplingStep());
        child<QPushButton>("askModel")->click();
        QVERIFY(child<QPushButton>("cancelAskModel")->isVisible());
        QVERIFY(child<QWidget>("askModelBusy")->isVisible());
        QVERIFY(!child<QPushButton>("askModel")->isVisible());
        child<QPushButton>("cancelAskModel")->click();
        QVERIFY(child<QPushButton>("askModel")->isVisible());
        QCOMPARE(child<QLabel>("askModelStatus")->text(), QStringLiteral("Stopped asking the model."));
        QTest::qWait(3300);
        QCOMPARE(m_pane->resultForm()->value().value("text", std::string()), std::string());
    }

    void withoutAModelTheChooserSaysHowToAddOne()
    {
        useModels({{{"name", "teacher"}, {"provider", "manual"}}});
        m_pane->setCall(samplingStep());
        auto *chooser = child<QComboBox>("samplingModelChooser");
        QVERIFY(chooser->isVisible());
        QVERIFY(!chooser->isEnabled());
        QVERIFY(!child<QPushButton>("askModel")->isEnabled());
        QCOMPARE(chooser->toolTip(),
                 QStringLiteral("No model to ask: add one to \"models\" in toolstudio.json (provider openai-chat, "
                                "anthropic or mock; docs/user/models.md \"Declaring models\"), its key as a secret "
                                "(Tools ▸ Secrets…)"));
    }

    // An empty reply is not "valid": the pane says what is missing beside a disabled
    // Send Reply (the form's "Valid, but text is empty" line is not shown), and the
    // reply is labelled once (the form's field, not a title above it too).
    void anEmptyReplyIsMissingNotValid()
    {
        m_pane->setCall(samplingStep());
        auto *reply = qobject_cast<QLineEdit *>(m_pane->resultForm()->control(QStringLiteral("/text")));
        QVERIFY(reply);
        QTRY_VERIFY(reply->isVisible()); // the form's new fields are shown from the event loop
        auto *hint = child<QLabel>("replyHint");
        auto *formStatus = m_pane->resultForm()->findChild<QLabel *>(QStringLiteral("problem"));
        QVERIFY(formStatus);
        QVERIFY(!formStatus->isVisible());
        QVERIFY(!m_pane->resultForm()->findChild<QWidget *>(QStringLiteral("rawToggle"))->isVisible());
        QVERIFY(hint->isVisible());
        QCOMPARE(hint->text(), QStringLiteral("Write the reply (required)"));
        QVERIFY(!m_pane->sendResultButton()->isEnabled());
        QVERIFY(!m_pane->sendResult()); // Ctrl+Return sends nothing either
        QVERIFY(m_answers.empty());

        QStringList replyLabels;
        for (const QLabel *label : m_pane->findChildren<QLabel *>())
            if (label->isVisible() && label->text().remove(QLatin1Char('&')).startsWith(QStringLiteral("Reply")))
                replyLabels << label->text();
        QCOMPARE(replyLabels, QStringList{QStringLiteral("Reply (text) *")});

        QTest::keyClicks(reply, QStringLiteral("Hi"));
        QVERIFY(!hint->isVisible());
        QVERIFY(m_pane->sendResultButton()->isEnabled());
        // Typed and cleared: missing again, said the same way, nothing in red.
        QTest::keyClick(reply, Qt::Key_Backspace);
        QTest::keyClick(reply, Qt::Key_Backspace);
        QCOMPARE(reply->text(), QString());
        QVERIFY(!m_pane->sendResultButton()->isEnabled());
        QVERIFY(hint->isVisible());
        QCOMPARE(m_pane->resultForm()->errorAt(QStringLiteral("/text")), QString());
        // Ask Model fills it: Send Reply is enabled.
        useModels({{{"name", "scripted"}, {"provider", "mock"}, {"turns", {{{"content", "Hello"}}}}}});
        m_pane->setCall(samplingStep());
        QVERIFY(!m_pane->sendResultButton()->isEnabled());
        child<QPushButton>("askModel")->click();
        QTRY_VERIFY(m_pane->sendResultButton()->isEnabled());
        QVERIFY(!hint->isVisible());
        m_pane->sendResultButton()->click();
        QCOMPARE(m_answers.size(), std::size_t(1));
        QCOMPARE(m_answers[0].value("text", std::string()), std::string("Hello"));
    }

    // modelPreferences.hints choose the model in the chooser; the priorities are shown;
    // what the chosen model is not given as asked is said before asking and after.
    void theServersHintsChooseTheModel()
    {
        useModels({{{"name", "local"}, {"provider", "openai-chat"}, {"model", "qwen2.5:7b"}},
                   {{"name", "claude"}, {"provider", "anthropic"}, {"model", "claude-sonnet-4-5"}},
                   {{"name", "scripted"}, {"provider", "mock"}, {"turns", {{{"content", "Hello"}}}}}});
        Step step = samplingStep();
        step.attempts.back().modelRequest
            = json{{"messages", {{{"role", "user"}, {"content", "Say hi"}}}},
                   {"omitted", 0},
                   {"hints", {"gpt-4o", "sonnet"}},
                   {"priorities", {{"intelligencePriority", 0.8}, {"speedPriority", 0.5}}},
                   {"temperature", 1.5},
                   {"notes", {"includeContext \"thisServer\" asked; the studio includes none"}}};
        m_pane->setCall(step);
        auto *chooser = child<QComboBox>("samplingModelChooser");
        QCOMPARE(chooser->currentText(), QStringLiteral("claude"));
        auto *status = child<QLabel>("askModelStatus");
        const QString preference = QStringLiteral("The server prefers a model like \"sonnet\": 'claude' is chosen.\n"
                                                  "Its priorities (shown, not acted on): intelligence 0.8, speed 0.5.\n"
                                                  "Not as asked: includeContext \"thisServer\" asked; the studio "
                                                  "includes none.");
        QCOMPARE(status->text(),
                 preference
                     + QStringLiteral("\nNot as asked: temperature 1.5 asked is outside 0 to 1, what anthropic takes; "
                                      "not sent."));
        // Another model, other notes: openai-chat takes 1.5; a mock takes none.
        chooser->setCurrentIndex(chooser->findText(QStringLiteral("local")));
        QCOMPARE(status->text(), preference);
        chooser->setCurrentIndex(chooser->findText(QStringLiteral("scripted")));
        const QString mock = QStringLiteral("Not as asked: model 'scripted' is a mock: its turns answer; the server's "
                                            "temperature and stop sequences are not used.");
        QCOMPARE(status->text(), preference + u'\n' + mock);
        child<QPushButton>("askModel")->click();
        QTRY_COMPARE(m_pane->resultForm()->value().dump(), std::string(R"({"text":"Hello"})"));
        QCOMPARE(status->text(),
                 QStringLiteral("Model 'scripted' wrote the reply (stop reason endTurn). Edit it or Send Reply; an "
                                "edited reply is sent as the person's.\nNot as asked: includeContext \"thisServer\" "
                                "asked; the studio includes none.\n")
                     + mock);

        // No hint matches: the chooser stays as it was, and says so.
        step.attempts.back().modelRequest = json{
            {"messages", {{{"role", "user"}, {"content", "Say hi"}}}}, {"omitted", 0}, {"hints", {"gpt-9", "o3"}}};
        m_pane->setCall(step);
        QCOMPARE(chooser->currentText(), QStringLiteral("scripted"));
        QCOMPARE(status->text(),
                 QStringLiteral("The server prefers a model like \"gpt-9\", \"o3\"; none of the project's models "
                                "matches."));
    }

    void aSamplingQuestionShowsItsImage()
    {
        // A server's request with text, a picture and a clip: the transcript names them,
        // the picture is rendered under it (its data found in the model's request), the
        // clip sized; the model is told what it is given.
        QImage picture(240, 140, QImage::Format_RGB32);
        picture.fill(QColor(0x1e, 0x88, 0xe5));
        {
            QPainter painter(&picture);
            painter.fillRect(QRect(20, 20, 90, 100), QColor(0xff, 0xc1, 0x07));
            painter.setBrush(QColor(0xe5, 0x39, 0x35));
            painter.drawEllipse(QRect(130, 30, 90, 90));
        }
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(picture.save(&buffer, "PNG"));
        const json messages = json::array(
            {json{{"role", "user"},
                  {"content",
                   {{{"type", "text"}, {"text", "What shapes are in this picture?"}},
                    {{"type", "image"}, {"data", png.toBase64().toStdString()}, {"mimeType", "image/png"}},
                    {{"type", "audio"}, {"data", "UklGRiQAAABXQVZF"}, {"mimeType", "audio/wav"}}}}}});
        QString error;
        auto question
            = McpPersonQuestion::question(QStringLiteral("fake"),
                                          McpServerRequest{json("s-1"), QStringLiteral("sampling/createMessage"),
                                                           json{{"messages", messages}, {"maxTokens", 50}}},
                                          &error);
        QVERIFY2(question, qPrintable(error));
        Step step = samplingStep();
        step.attempts.back().modelRequest = (*question)["model_request"];
        question->erase("model_request");
        (*question)["serial"] = 1;
        step.attempts.back().question = *question;
        useModels({{{"name", "scripted"}, {"provider", "mock"}, {"turns", {{{"content", "A square and a circle."}}}}}});
        m_pane->resize(560, 900);
        m_pane->setCall(step);
        QCOMPARE(child<QPlainTextEdit>("answerArguments")->toPlainText(),
                 QStringLiteral("user: What shapes are in this picture?\n[image 1: image/png]\n[audio 2: audio/wav]"));
        auto *media = child<ContentBlocksView>("samplingMedia");
        QVERIFY(media->isVisible());
        QCOMPARE(media->imageCount(), 1);
        const QString shown = media->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("1 · user · image")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("image/png, ") + QLocale().formattedDataSize(png.size(), 1)
                                + QStringLiteral(", 240×140")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("2 · user · audio\naudio/wav, 12 bytes (not played here)")),
                 qPrintable(shown));
        QCOMPARE(child<QLabel>("askModelStatus")->text(), QString()); // all of it is sent
        child<QPushButton>("askModel")->click();
        QTRY_COMPARE(m_pane->resultForm()->value().dump(), std::string(R"({"text":"A square and a circle."})"));
        // What the model's answer says is read whole: the status is as tall as its lines.
        auto *status = child<QLabel>("askModelStatus");
        QVERIFY(status->text().startsWith(QStringLiteral("Model 'scripted' wrote the reply")));
        QTRY_VERIFY2(
            status->height() >= status->heightForWidth(status->width()),
            qPrintable(
                QStringLiteral("%1 px of %2").arg(status->height()).arg(status->heightForWidth(status->width()))));
        // For a person to look at: screenshots/sampling-image-question.png under the build dir.
        const QString shots = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
        QVERIFY(QDir().mkpath(shots));
        QVERIFY(m_pane->grab().save(shots + QStringLiteral("/sampling-image-question.png")));
        // Read back without the model's request (its data is there): said, not invented.
        step.attempts.back().modelRequest.reset();
        m_pane->setCall(step);
        QCOMPARE(media->imageCount(), 0);
        QVERIFY2(
            media->toPlainText().contains(QStringLiteral("1 · user · image\nimage/png: not shown: no data at hand")),
            qPrintable(media->toPlainText()));
        // Another question clears it: no image stays behind.
        m_pane->setCall(samplingStep());
        QVERIFY(!media->isVisible());
        QCOMPARE(media->imageCount(), 0);
    }

    void notShownForAnElicitation()
    {
        useModels({{{"name", "scripted"}, {"provider", "mock"}, {"turns", {{{"content", "x"}}}}}});
        Step step = samplingStep();
        step.attempts.back().question = json{{"kind", "elicitation"},
                                             {"server", "fake"},
                                             {"message", "Who?"},
                                             {"schema", {{"type", "object"}, {"properties", json::object()}}},
                                             {"serial", 1}};
        step.attempts.back().modelRequest.reset();
        m_pane->setCall(step);
        QVERIFY(!m_pane->samplingModel()->isVisible());
    }

private:
    void useModels(const json &models) { m_project.models = ModelConfig::parseAll(models, RetryPolicy{}); }
};

QTEST_MAIN(TstSamplingModelUi)
#include "tst_samplingmodelui.moc"
