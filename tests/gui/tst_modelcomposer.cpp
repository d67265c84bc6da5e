// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A person plays the model (issue 19 item 5, docs/models.md "A person plays the model"):
// the model-agent example's script "teacher" asks a `manual` model; each turn waits in
// the Pending Calls dock, whose answer pane is a composer: the conversation, reply text,
// tool calls with their arguments in schema forms. The loop goes on as with a model.
#include "consoleview.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "schemaform.h"
#include "stepinspector.h"
#include "testfiles.h"
#include "tracemodel.h"
#include "trustedproject.h"
#include "ui/answerpane.h"
#include "ui/mainwindow.h"
#include "ui/modelcomposer.h"
#include "ui/pendingcallspanel.h"
#include "ui/runcommands.h"
#include "ui/tracepanel.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

class TstModelComposer
    : public QObject
    , protected WindowFixture
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initWindowTestCase(); }
    void init() { initWindow(); }
    void cleanup() { closeWindow(); }

    void aPersonAnswersAsTheModel()
    {
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        // The example runs its mock model by default; the teacher script asks a person.
        const QString manifest = dir + QStringLiteral("/toolstudio.json");
        QFile file(manifest);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        QVERIFY(text.contains("\"default_script\": \"main\""));
        text.replace("\"default_script\": \"main\"", "\"default_script\": \"teacher\"");
        QVERIFY(writeFile(manifest, text));
        QVERIFY(openTrusted(*m_window, dir));
        QSignalSpy finished(m_window->runController(), &RunController::finished);
        QVERIFY(m_window->runCommands()->run());

        AnswerPane *pane = m_window->pendingPanel()->answerPane();
        ModelComposer *composer = pane->composer();
        QTRY_VERIFY_WITH_TIMEOUT(pane->usesComposer() && !pane->callId().isEmpty(), RunTimeoutMs);
        QVERIFY(composer->isVisible());
        QVERIFY(!pane->resultEdit()->isVisible());
        QCOMPARE(pane->sendResultButton()->text(), QStringLiteral("Send Reply"));
        QCOMPARE(composer->conversationView()->toPlainText(),
                 QStringLiteral("system: You convert currencies with get_exchange_rate.\n\n"
                                "user: How many USD are 100 EUR?"));
        QCOMPARE(composer->toolCombo()->count(), 1);
        QCOMPARE(composer->toolCombo()->itemText(0), QStringLiteral("get_exchange_rate"));

        // Nothing written: refused in the pane, nothing sent.
        QVERIFY(!pane->sendResult());
        QCOMPARE(pane->problem(),
                 QStringLiteral("Write the reply text or add a tool call: the model's turn needs one of them."));

        // A call with its arguments in the tool's schema form; one the schema refuses
        // (the pattern wants three capitals) is refused first.
        composer->addCallButton()->click();
        QCOMPARE(composer->callForms().size(), 1);
        SchemaForm *form = composer->callForms().first();
        auto *base = qobject_cast<QLineEdit *>(form->control(QStringLiteral("/base")));
        auto *quote = qobject_cast<QLineEdit *>(form->control(QStringLiteral("/quote")));
        QVERIFY(base && quote);
        QTest::keyClicks(base, QStringLiteral("eur"));
        QTest::keyClicks(quote, QStringLiteral("USD"));
        QVERIFY(!pane->sendResult());
        QVERIFY2(pane->problem().startsWith(QStringLiteral("Call get_exchange_rate: ")), qPrintable(pane->problem()));
        base->clear();
        QTest::keyClicks(base, QStringLiteral("EUR"));
        const QString firstTurn = pane->callId();
        pane->sendResultButton()->click();
        QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));

        // The next turn shows the tool's result; the person answers with text.
        QTRY_VERIFY_WITH_TIMEOUT(pane->usesComposer() && !pane->callId().isEmpty() && pane->callId() != firstTurn,
                                 RunTimeoutMs);
        QVERIFY2(composer->conversationView()->toPlainText().endsWith(
                     QStringLiteral("assistant:\n  → get_exchange_rate({\"base\":\"EUR\",\"quote\":\"USD\"})  "
                                    "[call_1_1]\n\ntool (call_1_1): 1.08")),
                 qPrintable(composer->conversationView()->toPlainText()));
        QVERIFY(composer->callForms().isEmpty()); // a fresh composer
        m_window->activateWindow();               // shortcuts need the active window
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        composer->textEdit()->setFocus();
        QTest::keyClicks(composer->textEdit(), QStringLiteral("100 EUR is 108 USD."));
        QSignalSpy submittedSpy(composer, &ModelComposer::submitted);
        QTest::keyClick(composer->textEdit(), Qt::Key_Return, Qt::ControlModifier); // sends the reply
        QCOMPARE(submittedSpy.size(), 1);
        QVERIFY2(pane->problem().isEmpty(), qPrintable(pane->problem()));

        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), RunTimeoutMs);
        QCOMPARE(m_window->runController()->record().status, RunStatus::Completed);
        QCOMPARE(m_window->traceModel()->stepCount(), 3);
        QTRY_VERIFY(m_window->console()->toPlainText().contains(QLatin1String("100 EUR is 108 USD.\n2 model turns")));

        // The inspector shows the last model step as a conversation, with its tokens.
        TraceModel *trace = m_window->traceModel();
        m_window->tracePanel()->selectStep(trace->index(2, 0).data(TraceModel::CallIdRole).toString());
        auto *conversation = m_window->stepInspector()->findChild<QPlainTextEdit *>(QStringLiteral("stepConversation"));
        QVERIFY(conversation);
        QVERIFY2(conversation->toPlainText().endsWith(QStringLiteral("tool (call_1_1): 1.08\n\n"
                                                                     "assistant: 100 EUR is 108 USD.\n\n"
                                                                     "Tokens: 0 in, 0 out; stop reason: stop")),
                 qPrintable(conversation->toPlainText()));
        auto *tabs = qobject_cast<QTabWidget *>(conversation->parentWidget()->parentWidget());
        QVERIFY(tabs);
        QVERIFY(tabs->isTabVisible(tabs->indexOf(conversation)));
    }
};

QTEST_MAIN(TstModelComposer)
#include "tst_modelcomposer.moc"
