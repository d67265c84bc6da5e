// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Chat dock's contents on their own (issue 19 item 4): a chat with the model-agent
// example's mock model through ChatTurn — two turns on one run, the tool call shown in
// the transcript — and what the dock refuses.

#include "clirunner.h"
#include "fakemodelserver.h"
#include "journalsteps.h"
#include "project/project.h"
#include "schemaform.h"
#include "testfiles.h"
#include "tracemodel.h"
#include "trustedproject.h"
#include "ui/answerdialog.h"
#include "ui/chatdock.h"
#include "ui/editargumentsdialog.h"
#include "ui/mainwindow.h"
#include "ui/pendingcallspanel.h"
#include "ui/runviews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

class TestChatDock : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_scratch;

    /// The model-agent example copied to `name` in the scratch folder, loaded trusted.
    std::optional<Project> example(const QString &name) const
    {
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path() + QLatin1Char('/') + name);
        ProjectError error;
        std::optional<Project> project = loadTrusted(dir, &error);
        if (!project)
            qWarning("%s", qPrintable(error.toString()));
        return project;
    }

    /// A window on the model-agent example and its Chat dock.
    struct ChatWindow
    {
        MainWindow window;
        ChatDock *dock = nullptr;
        QString dir;
    };

    /// Opens `w` on the example copied to `name` in the scratch folder, trusted.
    bool openChatWindow(ChatWindow &w, const QString &name) const
    {
        w.dir = copyExample(QStringLiteral("model-agent"), m_scratch->path() + QLatin1Char('/') + name);
        if (w.dir.isEmpty())
            return false;
        w.window.setErrorDialogsEnabled(false);
        w.window.show();
        if (!openTrusted(w.window, w.dir))
            return false;
        w.dock = w.window.findChild<ChatDock *>();
        return w.dock != nullptr;
    }

    /// Edit Arguments… on the call `dock` shows for a decision: its dialog.
    static EditArgumentsDialog *openEdit(ChatDock &dock)
    {
        QTest::mouseClick(dock.findChild<QPushButton *>(QStringLiteral("chatEditCall")), Qt::LeftButton);
        return dock.findChild<EditArgumentsDialog *>();
    }

    /// Types `quote` into the dialog's `/quote` field, replacing what it held.
    static bool typeQuote(EditArgumentsDialog *edit, const QString &quote)
    {
        auto *line = edit ? qobject_cast<QLineEdit *>(edit->form()->control(QStringLiteral("/quote"))) : nullptr;
        if (!line)
            return false;
        line->clear();
        QTest::keyClicks(line, quote);
        return true;
    }

    /// The first message of a chat in `dock`, answered (`replied` spies on it).
    static bool firstTurn(ChatDock &dock, QSignalSpy &replied)
    {
        return dock.send(QStringLiteral("100 EUR in USD?")) && replied.wait(30000);
    }

private Q_SLOTS:
    void theWindowsTraceShowsTheChatAfterEachTurn()
    {
        ChatWindow w;
        QVERIFY(openChatWindow(w, QStringLiteral("trace")));
        MainWindow &window = w.window;
        ChatDock *dock = w.dock;
        QSignalSpy replied(dock, &ChatDock::replied);
        QVERIFY(dock->send(QStringLiteral("100 EUR in USD?")));
        QVERIFY(replied.wait(30000));
        QCOMPARE(window.traceModel()->runId(), dock->runId());
        // The trace follows the journal: the rows come as they are read, the sandbox's
        // event (written by the run's thread) possibly after the steps; wait for all.
        const auto tools = [&window] {
            QStringList shown;
            for (int row = 0; row < window.traceModel()->rowCount(); ++row)
                shown << window.traceModel()->index(row, TraceModel::Tool).data().toString();
            return shown;
        };
        QTRY_COMPARE_WITH_TIMEOUT(tools(),
                                  (QStringList{QStringLiteral("sandbox_applied"), QStringLiteral("chat:message"),
                                               QStringLiteral("model:scripted"), QStringLiteral("get_exchange_rate"),
                                               QStringLiteral("model:scripted"), QStringLiteral("chat:message")}),
                                  30000); // 10 s was not enough in a Debian 12 chroot beside two builds
        // The meters above the trace speak of the shown run, not of the window's last
        // live run (they stayed at "calls 0/100" beside the chat's steps).
        auto *meters = window.findChild<QLabel *>(QStringLiteral("budgetMeters"));
        QVERIFY(meters);
        QCOMPARE(meters->text(),
                 QStringLiteral("Run %1 from the journal: 5 step(s), waiting · the meters count the live run")
                     .arg(dock->runId()));
    }

    /// Issue 19 "Done when": in the window, a chat with Approve tool calls ticked holds
    /// the model's tool call until the person approves it; then the answer comes.
    void theWindowsChatHoldsAToolCallUntilApproved()
    {
        ChatWindow w;
        QVERIFY(openChatWindow(w, QStringLiteral("approve")));
        const QString dir = w.dir;
        ChatDock *dock = w.dock;
        auto *approve = dock->findChild<QCheckBox *>(QStringLiteral("chatApprove"));
        auto *decision = dock->findChild<QWidget *>(QStringLiteral("chatDecision"));
        auto *call = dock->findChild<QLabel *>(QStringLiteral("chatDecisionCall"));
        auto *approveCall = dock->findChild<QPushButton *>(QStringLiteral("chatApproveCall"));
        auto *answer = dock->findChild<QPushButton *>(QStringLiteral("chatAnswerCall"));
        QVERIFY(approve && decision && call && approveCall && answer);
        QVERIFY(decision->isHidden());
        approve->setChecked(true);

        QSignalSpy replied(dock, &ChatDock::replied);
        dock->messageBox()->setPlainText(QStringLiteral("100 EUR in USD?"));
        // Ctrl+Return in the message box sends (a shortcut of the box, not of the window).
        auto *chatDock = w.window.findChild<QDockWidget *>(QStringLiteral("chatDock"));
        QVERIFY(chatDock);
        chatDock->raise();
        w.window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w.window));
        dock->messageBox()->setFocus();
        QTest::keyClick(dock->messageBox(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(decision->isVisible(), 30000);
        QCOMPARE(call->text(),
                 QStringLiteral("get_exchange_rate {\"base\":\"EUR\",\"quote\":\"USD\"} waits for your approval"));
        QCOMPARE(answer->text(), QStringLiteral("Answer &Instead…"));
        QCOMPARE(dock->callsToDecide().size(), 1);
        // Held: the tool has not run, the model has not been asked again.
        QTest::qWait(300);
        QCOMPARE(replied.size(), 0);
        QCOMPARE(stepLines(journalSteps(dir, dock->runId())).constLast(), QStringLiteral("get_exchange_rate queued"));
        // The window's trace follows the turn live: the model's step and the held call
        // are there before the turn ends.
        QCOMPARE(w.window.runViews()->followedRun(), dock->runId());
        QStringList live;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                live.clear();
                for (int row = 0; row < w.window.traceModel()->rowCount(); ++row)
                    live << w.window.traceModel()->index(row, TraceModel::Tool).data().toString() + QLatin1Char(' ')
                            + w.window.traceModel()->index(row, TraceModel::Status).data().toString();
                return live.contains(QStringLiteral("get_exchange_rate queued"));
            }(),
            10000);
        QVERIFY2(live.contains(QStringLiteral("model:scripted succeeded")), qPrintable(live.join(QLatin1Char('\n'))));
        QVERIFY(w.window.findChild<PendingCallsPanel *>(QStringLiteral("pendingPanel"))->pendingCalls().isEmpty());

        QTest::mouseClick(approveCall, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(replied.size(), 1, 30000);
        QCOMPARE(replied.at(0).at(0).toString(), QStringLiteral("100 EUR is 108.00 USD (rate 1.08)."));
        QVERIFY(decision->isHidden());
        QCOMPARE(dock->transcript()->toPlainText(),
                 QStringLiteral("You: 100 EUR in USD?\nTool: get_exchange_rate {\"base\":\"EUR\",\"quote\":\"USD\"} "
                                "→ 1.08\nscripted: 100 EUR is 108.00 USD (rate 1.08)."));
    }

    /// Reject ends the held call with an error the model reads; Answer Instead ends it
    /// with the person's result; the tool runs in neither case.
    void aHeldToolCallRejectedOrAnsweredInstead()
    {
        const std::optional<Project> project = example(QStringLiteral("reject"));
        QVERIFY(project);
        ChatDock dock([&] { return &*project; });
        dock.findChild<QCheckBox *>(QStringLiteral("chatApprove"))->setChecked(true);
        QSignalSpy replied(&dock, &ChatDock::replied);
        QVERIFY(dock.send(QStringLiteral("100 EUR in USD?")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.callsToDecide().size(), 1, 30000);
        QTest::mouseClick(dock.findChild<QPushButton *>(QStringLiteral("chatRejectCall")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(replied.size(), 1, 30000);
        const QString runId = dock.runId();
        const std::vector<Step> steps = journalSteps(project->dir, runId);
        QCOMPARE(steps.at(2).tool, QStringLiteral("get_exchange_rate"));
        QCOMPARE(steps.at(2).status, StepStatus::Failed);
        QCOMPARE(QString::fromStdString(steps.at(2).error->message),
                 QStringLiteral("the person rejected this call; the tool did not run"));
        // The model saw the rejection as the tool's error.
        const std::string seen = steps.at(3).args["messages"].back().dump();
        QVERIFY2(seen.find("the person rejected this call") != std::string::npos, seen.c_str());

        // The next chat: Answer Instead, with the person's result.
        dock.newChat();
        QVERIFY(dock.send(QStringLiteral("100 EUR in USD?")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.callsToDecide().size(), 1, 30000);
        QTest::mouseClick(dock.findChild<QPushButton *>(QStringLiteral("chatAnswerCall")), Qt::LeftButton);
        auto *dialog = dock.findChild<AnswerDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->usesForm()); // output_schema {"type": "number"}
        dialog->resultForm()->setValue(1.5);
        QCOMPARE(dialog->sendResultButton()->text(), QStringLiteral("Answer Instead"));
        QVERIFY(dialog->sendResult());
        QTRY_COMPARE_WITH_TIMEOUT(replied.size(), 2, 30000);
        QVERIFY(dock.callsToDecide().isEmpty());
        const std::vector<Step> answered = journalSteps(project->dir, dock.runId());
        QCOMPARE(answered.at(2).status, StepStatus::Succeeded);
        QCOMPARE(answered.at(2).result->dump(), std::string("1.5"));

        // And Edit Arguments: the call runs with the person's arguments.
        dock.newChat();
        QVERIFY(dock.send(QStringLiteral("100 EUR in GBP?")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.callsToDecide().size(), 1, 30000);
        EditArgumentsDialog *edit = openEdit(dock);
        QVERIFY(typeQuote(edit, QStringLiteral("gbp")));
        QVERIFY(!edit->runButton()->isEnabled()); // "^[A-Z]{3}$"
        QVERIFY(typeQuote(edit, QStringLiteral("GBP")));
        QVERIFY(edit->runButton()->isEnabled());
        QTest::mouseClick(edit->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(replied.size(), 3, 30000);
        const std::vector<Step> edited = journalSteps(project->dir, dock.runId());
        QCOMPARE(edited.at(2).status, StepStatus::Succeeded);
        QCOMPARE(edited.at(2).args.dump(), std::string("{\"base\":\"EUR\",\"quote\":\"GBP\"}"));
        QCOMPARE(edited.at(2).originalArgs->dump(), std::string("{\"base\":\"EUR\",\"quote\":\"USD\"}"));
    }

    /// New Chat while a held call's Answer Instead and Edit Arguments dialogs are open:
    /// they close (the Answer dialog answered through the run controller gone with the
    /// chat: a use after free), and a decision still on its way when the chat is kept for
    /// later does not leave the next chat's buttons waiting for it.
    void newChatWhileACallIsBeingDecided()
    {
        const std::optional<Project> project = example(QStringLiteral("decided"));
        QVERIFY(project);
        ChatDock dock([&] { return &*project; });
        dock.findChild<QCheckBox *>(QStringLiteral("chatApprove"))->setChecked(true);
        auto *decision = dock.findChild<QWidget *>(QStringLiteral("chatDecision"));
        QVERIFY(decision);
        QVERIFY(dock.send(QStringLiteral("100 EUR in USD?")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.callsToDecide().size(), 1, 30000);
        QTest::mouseClick(dock.findChild<QPushButton *>(QStringLiteral("chatAnswerCall")), Qt::LeftButton);
        QTest::mouseClick(dock.findChild<QPushButton *>(QStringLiteral("chatEditCall")), Qt::LeftButton);
        QPointer<AnswerDialog> answer = dock.findChild<AnswerDialog *>();
        QPointer<EditArgumentsDialog> edit = dock.findChild<EditArgumentsDialog *>();
        QVERIFY(answer && edit);
        const QString first = dock.runId();

        dock.newChat();
        QVERIFY(!answer || !answer->isVisible());
        QVERIFY(!edit || !edit->isVisible());
        QTRY_VERIFY(!answer && !edit);
        QTRY_COMPARE_WITH_TIMEOUT(int(journalRun(project->dir, first)->status), int(RunStatus::Suspended), 5000);

        // Approve, then New Chat before its outcome comes back.
        QVERIFY(dock.send(QStringLiteral("100 EUR in USD?")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.callsToDecide().size(), 1, 30000);
        QTest::mouseClick(dock.findChild<QPushButton *>(QStringLiteral("chatApproveCall")), Qt::LeftButton);
        QVERIFY(!decision->isEnabled());
        dock.newChat();
        QVERIFY(dock.send(QStringLiteral("100 EUR in USD?")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.callsToDecide().size(), 1, 30000);
        QVERIFY(!decision->isHidden());
        QVERIFY(decision->isEnabled());
        QSignalSpy replied(&dock, &ChatDock::replied);
        QTest::mouseClick(dock.findChild<QPushButton *>(QStringLiteral("chatApproveCall")), Qt::LeftButton);
        QVERIFY(replied.wait(30000));
        QCOMPARE(replied.at(0).at(0).toString(), QStringLiteral("100 EUR is 108.00 USD (rate 1.08)."));
    }

    /// A chat whose call ran with edited arguments, kept for later and continued by
    /// `toolstudio chat --continue`: the resume finds the edited call by the model's
    /// arguments (memoized, not run again) and the chat goes on.
    void aChatWithAnEditedCallResumes()
    {
        QVERIFY(!toolstudioBinary().isEmpty());
        const std::optional<Project> project = example(QStringLiteral("editedresume"));
        QVERIFY(project);
        const QString dir = project->dir;
        ChatDock dock([&] { return &*project; });
        dock.findChild<QCheckBox *>(QStringLiteral("chatApprove"))->setChecked(true);
        QSignalSpy replied(&dock, &ChatDock::replied);
        QVERIFY(dock.send(QStringLiteral("100 EUR in GBP?")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.callsToDecide().size(), 1, 30000);
        EditArgumentsDialog *edit = openEdit(dock);
        QVERIFY(typeQuote(edit, QStringLiteral("GBP")));
        QTest::mouseClick(edit->runButton(), Qt::LeftButton);
        QVERIFY(replied.wait(30000));
        const QString kept = dock.runId();
        dock.newChat();
        QTRY_COMPARE_WITH_TIMEOUT(int(journalRun(dir, kept)->status), int(RunStatus::Suspended), 5000);
        const QStringList before = stepLines(journalSteps(dir, kept));

        const CommandResult chat
            = toolstudio({QStringLiteral("chat"), dir, QStringLiteral("--continue"), kept, QStringLiteral("And 200?")});
        QVERIFY2(chat.exitCode == 0, chat.err.constData());
        const std::vector<Step> steps = journalSteps(dir, kept);
        QCOMPARE(stepLines(steps).mid(0, before.size() - 1), before.mid(0, before.size() - 1));
        QCOMPARE(steps.at(2).args.dump(), std::string("{\"base\":\"EUR\",\"quote\":\"GBP\"}"));
        QCOMPARE(steps.at(2).originalArgs->dump(), std::string("{\"base\":\"EUR\",\"quote\":\"USD\"}"));
        QCOMPARE(steps.at(2).attempts.size(), std::size_t(1));
    }

    /// Three tool calls in one model turn: each is decided in turn (the bar shows how many
    /// more wait), none is lost, and the model reads the three outcomes in its order.
    void threeCallsInOneTurnAreDecidedInTurn()
    {
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path() + QStringLiteral("/three"));
        QFile manifest(dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        nlohmann::json json = nlohmann::json::parse(manifest.readAll().toStdString());
        manifest.close();
        nlohmann::json &calls = json["models"][0]["turns"][0]["tool_calls"];
        calls.push_back({{"name", "get_exchange_rate"}, {"arguments", {{"base", "EUR"}, {"quote", "GBP"}}}});
        calls.push_back({{"name", "get_exchange_rate"}, {"arguments", {{"base", "EUR"}, {"quote", "CHF"}}}});
        QVERIFY(writeFile(manifest.fileName(), QByteArray::fromStdString(json.dump())));
        ProjectError error;
        const std::optional<Project> project = loadTrusted(dir, &error);
        QVERIFY2(project, qPrintable(error.toString()));
        ChatDock dock([&] { return &*project; });
        dock.findChild<QCheckBox *>(QStringLiteral("chatApprove"))->setChecked(true);
        auto *label = dock.findChild<QLabel *>(QStringLiteral("chatDecisionCall"));
        auto *approve = dock.findChild<QPushButton *>(QStringLiteral("chatApproveCall"));
        auto *reject = dock.findChild<QPushButton *>(QStringLiteral("chatRejectCall"));
        QSignalSpy replied(&dock, &ChatDock::replied);
        QVERIFY(dock.send(QStringLiteral("100 EUR?")));
        QTRY_VERIFY_WITH_TIMEOUT(!dock.callsToDecide().isEmpty(), 30000);
        QStringList decidedQuotes;
        for (int i = 0; i < 3; ++i) {
            QTRY_VERIFY_WITH_TIMEOUT(!dock.callsToDecide().isEmpty() && approve->isEnabled(), 30000);
            decidedQuotes << QString::fromStdString(dock.callsToDecide().constFirst().args.value("quote", ""));
            QVERIFY2(label->text().startsWith(QStringLiteral("get_exchange_rate")), qPrintable(label->text()));
            // A double click decides once: the second is swallowed while the first is on its way.
            QPushButton *button = i == 0 ? reject : approve;
            QTest::mouseClick(button, Qt::LeftButton);
            QTest::mouseClick(button, Qt::LeftButton);
        }
        QVERIFY(replied.wait(30000));
        QCOMPARE(decidedQuotes, (QStringList{QStringLiteral("USD"), QStringLiteral("GBP"), QStringLiteral("CHF")}));
        QVERIFY(dock.callsToDecide().isEmpty());
        const std::vector<Step> steps = journalSteps(dir, dock.runId());
        QCOMPARE(stepLines(steps),
                 (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:scripted succeeded"),
                              QStringLiteral("get_exchange_rate failed"), QStringLiteral("get_exchange_rate succeeded"),
                              QStringLiteral("get_exchange_rate succeeded"), QStringLiteral("model:scripted succeeded"),
                              QStringLiteral("chat:message waiting")}));
        const nlohmann::json &messages = steps.at(5).args["messages"];
        int tools = 0;
        for (const nlohmann::json &m : messages)
            tools += m.value("role", "") == "tool" ? 1 : 0;
        QCOMPARE(tools, 3);
    }

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_scratch = std::make_unique<QTemporaryDir>();
        QVERIFY(m_scratch->isValid());
    }

    /// A streamed reply (docs/models.md "Streaming") grows in the transcript while the
    /// model writes it — the fake server sends "Counting: one, ", waits 3 s, then "two." —
    /// and the final message takes its place; the journal has the final message only.
    void aStreamedReplyShowsBeforeTheStepEnds()
    {
        if (FakeModelServer::python().isEmpty())
            QSKIP("python3 is not installed: the fake model server needs it");
        FakeModelServer server;
        const QString why = server.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path() + QStringLiteral("/streamed"));
        QVERIFY(!dir.isEmpty());
        QFile manifest(dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        nlohmann::json root = nlohmann::json::parse(manifest.readAll().toStdString());
        manifest.close();
        root["models"].push_back({{"name", "streaming"},
                                  {"provider", "openai-chat"},
                                  {"base_url", (server.base() + QStringLiteral("/slowstream")).toStdString()},
                                  {"model", "fake-1"}});
        QVERIFY(manifest.open(QIODevice::WriteOnly | QIODevice::Truncate));
        manifest.write(QByteArray::fromStdString(root.dump(2)));
        manifest.close();
        ProjectError error;
        const std::optional<Project> project = loadTrusted(dir, &error);
        QVERIFY2(project, qPrintable(error.toString()));
        ChatDock dock([&] { return &*project; });
        dock.modelBox()->setCurrentIndex(dock.modelBox()->findText(QStringLiteral("streaming")));
        QSignalSpy replied(&dock, &ChatDock::replied);
        QVERIFY(dock.send(QStringLiteral("Count to two")));
        QTRY_COMPARE_WITH_TIMEOUT(dock.transcript()->toPlainText(),
                                  QStringLiteral("You: Count to two\nstreaming: Counting: one, …"), 20000);
        QVERIFY(dock.isBusy()); // the model step still runs
        QCOMPARE(replied.count(), 0);
        QVERIFY(replied.wait(30000));
        QCOMPARE(replied.at(0).at(0).toString(), QStringLiteral("Counting: one, two."));
        QCOMPARE(dock.transcript()->toPlainText(), QStringLiteral("You: Count to two\nstreaming: Counting: one, two."));
        const std::vector<Step> steps = journalSteps(dir, dock.runId());
        QCOMPARE(stepLines(steps),
                 (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:streaming succeeded"),
                              QStringLiteral("chat:message waiting")}));
        QCOMPARE(QString::fromStdString(steps.at(1).result->dump()),
                 QStringLiteral("{\"message\":{\"content\":\"Counting: one, two.\",\"role\":\"assistant\"},"
                                "\"stop_reason\":\"stop\",\"usage\":{\"input_tokens\":3,\"output_tokens\":4}}"));
        dock.newChat();
    }

    void twoTurnsOnOneRun()
    {
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path());
        QVERIFY(!dir.isEmpty());
        ProjectError error;
        const std::optional<Project> project = loadTrusted(dir, &error);
        QVERIFY2(project, qPrintable(error.toString()));
        ChatDock dock([&] { return &*project; });
        QCOMPARE(dock.modelBox()->count(), 3); // scripted, teacher, local
        QCOMPARE(dock.modelBox()->currentText(), QStringLiteral("scripted"));

        QSignalSpy replied(&dock, &ChatDock::replied);
        dock.messageBox()->setPlainText(QStringLiteral("100 EUR in USD?"));
        QTest::mouseClick(dock.sendButton(), Qt::LeftButton);
        QVERIFY(dock.isBusy());
        QVERIFY(!dock.sendButton()->isEnabled());
        QVERIFY(dock.messageBox()->toPlainText().isEmpty());
        QVERIFY(replied.wait(30000));
        QCOMPARE(replied.at(0).at(0).toString(), QStringLiteral("100 EUR is 108.00 USD (rate 1.08)."));
        QCOMPARE(replied.at(0).at(1).toString(), QString());
        QVERIFY(dock.sendButton()->isEnabled());
        QCOMPARE(dock.transcript()->toPlainText(),
                 QStringLiteral("You: 100 EUR in USD?\nTool: get_exchange_rate {\"base\":\"EUR\",\"quote\":\"USD\"} "
                                "→ 1.08\nscripted: 100 EUR is 108.00 USD (rate 1.08)."));
        const QString runId = dock.runId();
        QVERIFY(!runId.isEmpty());
        QCOMPARE(dock.statusLabel()->text(), QStringLiteral("Chat run %1 waits for your next message.").arg(runId));

        QVERIFY(dock.send(QStringLiteral("And 200 EUR?")));
        QVERIFY(replied.wait(30000));
        QCOMPARE(dock.runId(), runId);
        QTRY_COMPARE(stepLines(journalSteps(dir, runId)),
                     (QStringList{QStringLiteral("chat:message succeeded"), QStringLiteral("model:scripted succeeded"),
                                  QStringLiteral("get_exchange_rate succeeded"),
                                  QStringLiteral("model:scripted succeeded"), QStringLiteral("chat:message succeeded"),
                                  QStringLiteral("model:scripted succeeded"), QStringLiteral("chat:message waiting")}));
        QCOMPARE(QString::fromStdString(journalSteps(dir, runId).at(5).args["messages"].back().dump()),
                 QStringLiteral("{\"content\":\"And 200 EUR?\",\"role\":\"user\"}"));

        // New Chat keeps that one for later; the next Send starts another run.
        dock.newChat();
        QVERIFY(dock.runId().isEmpty());
        QVERIFY(dock.transcript()->toPlainText().isEmpty());
        QVERIFY(dock.send(QStringLiteral("Hello")));
        QVERIFY(replied.wait(30000));
        QVERIFY(!dock.runId().isEmpty());
        QVERIFY(dock.runId() != runId);
    }

    void anotherProcessContinuesTheChatTheDockHolds()
    {
        QVERIFY(!toolstudioBinary().isEmpty());
        const std::optional<Project> project = example(QStringLiteral("held"));
        QVERIFY(project);
        const QString dir = project->dir;
        ChatDock dock([&] { return &*project; });
        QSignalSpy replied(&dock, &ChatDock::replied);
        QVERIFY(firstTurn(dock, replied));

        // `toolstudio chat --continue` answers through the journal; this process runs the
        // turn, and the command follows it and prints the reply.
        QProcess chat;
        chat.setProgram(toolstudioBinary());
        chat.setArguments(withTrust(
            {QStringLiteral("chat"), dir, QStringLiteral("--continue"), dock.runId(), QStringLiteral("And 200 EUR?")}));
        chat.setStandardInputFile(QProcess::nullDevice());
        chat.start();
        QVERIFY(replied.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(chat.state() == QProcess::NotRunning, 30000);
        const QByteArray err = chat.readAllStandardError();
        QVERIFY2(chat.exitCode() == 0, err.constData());
        // The mock model's last turn repeats.
        QCOMPARE(chat.readAllStandardOutput(), QByteArray("100 EUR is 108.00 USD (rate 1.08).\n"));
        QVERIFY2(err.startsWith("[model:scripted] succeeded (71 + 12 tokens)\nchat run "), err.constData());
        QCOMPARE(replied.at(1).at(0).toString(), QStringLiteral("100 EUR is 108.00 USD (rate 1.08)."));
    }

    void theRunClockPausesWhileTheChatWaits()
    {
        // limits.run_timeout_seconds 3: the chat waits 4 s for the next message and is
        // still there, as the wait for a person does not count.
        const QString dir = copyExample(QStringLiteral("model-agent"), m_scratch->path() + QStringLiteral("/clock"));
        QFile manifest(dir + QStringLiteral("/toolstudio.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        nlohmann::json json = nlohmann::json::parse(manifest.readAll().toStdString());
        manifest.close();
        json["limits"] = {{"run_timeout_seconds", 3}};
        QVERIFY(writeFile(manifest.fileName(), QByteArray::fromStdString(json.dump())));
        ProjectError error;
        const std::optional<Project> project = loadTrusted(dir, &error);
        QVERIFY2(project, qPrintable(error.toString()));
        QCOMPARE(project->limits.runTimeoutMs, 3000);
        ChatDock dock([&] { return &*project; });
        QSignalSpy replied(&dock, &ChatDock::replied);
        QVERIFY(dock.send(QStringLiteral("100 EUR in USD?")));
        QVERIFY(replied.wait(30000));
        QTest::qWait(4000);
        QVERIFY2(dock.send(QStringLiteral("And 200 EUR?")), qPrintable(dock.statusLabel()->text()));
        QVERIFY(replied.wait(30000));
        QCOMPARE(replied.size(), 2);
    }

    /// New Chat keeps the chat for later "to resume from the Runs dock" while the studio
    /// goes on: the run must be suspended then, not left waiting under this live process
    /// (no one could resume it, and `toolstudio chat --continue` waited in vain for this
    /// process to take the message) until the studio exits.
    void aChatKeptForLaterCanBeContinuedAtOnce()
    {
        QVERIFY(!toolstudioBinary().isEmpty());
        const std::optional<Project> project = example(QStringLiteral("kept"));
        QVERIFY(project);
        const QString dir = project->dir;
        ChatDock dock([&] { return &*project; });
        QSignalSpy replied(&dock, &ChatDock::replied);
        QVERIFY(firstTurn(dock, replied));
        const QString kept = dock.runId();
        dock.newChat();
        QTRY_COMPARE_WITH_TIMEOUT(int(journalRun(dir, kept)->status), int(RunStatus::Suspended), 5000);
        QCOMPARE(stepLines(journalSteps(dir, kept)).constLast(), QStringLiteral("chat:message waiting"));

        const CommandResult chat
            = toolstudio({QStringLiteral("chat"), dir, QStringLiteral("--continue"), kept, QStringLiteral("And 200?")});
        QVERIFY2(chat.exitCode == 0, chat.err.constData());
        QCOMPARE(chat.out, QByteArray("100 EUR is 108.00 USD (rate 1.08).\n"));
        QCOMPARE(journalRun(dir, kept)->status, RunStatus::Suspended);
    }

    void refusesWhatCannotBeSent()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.path() + QStringLiteral("/toolstudio.json"), "{\"name\": \"plain\", \"tools\": []}"));
        ProjectError error;
        const std::optional<Project> project = loadTrusted(dir.path(), &error);
        QVERIFY2(project, qPrintable(error.toString()));
        ChatDock dock([&] { return &*project; });
        QCOMPARE(dock.modelBox()->count(), 0);
        QVERIFY(!dock.sendButton()->isEnabled());
        QCOMPARE(dock.statusLabel()->text(),
                 QStringLiteral("The project declares no models: add one under \"models\" in toolstudio.json."));
        QVERIFY(!dock.send(QStringLiteral("Hi")));
        QCOMPARE(dock.statusLabel()->text(), QStringLiteral("No model to ask."));
        QVERIFY(!dock.send(QStringLiteral("  ")));
        QCOMPARE(dock.statusLabel()->text(), QStringLiteral("The message is empty."));
        QVERIFY(dock.runId().isEmpty());

        ChatDock none([] { return static_cast<const Project *>(nullptr); });
        QCOMPARE(none.statusLabel()->text(), QStringLiteral("Open a project to chat with its models."));
    }
};

QTEST_MAIN(TestChatDock)
#include "tst_chatdock.moc"
