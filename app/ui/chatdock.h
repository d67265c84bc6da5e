// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QList>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class ChatTurn;
class Project;
class QCheckBox;
class QComboBox;
class QDialog;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;
class RunController;
namespace ChatRun {
struct Input;
}

/// The Chat dock's contents (issue 19 item 4, docs/models.md "Chat"): a conversation with
/// a model of the project over its tools — the transcript, a model choice, a message box
/// and Send. Each chat is a run of its own (kind `chat`) driven by ChatTurn, the core
/// `toolstudio chat` uses too: the first Send starts it, each later one answers its
/// waiting `chat:message` call. The turn's tool calls show in the transcript as they end.
/// New Chat keeps the current one for later (suspended once the studio exits, resumable
/// from the Runs dock or `toolstudio chat --continue`) and starts afresh at the next Send.
/// With **Approve tool calls** ticked, each call the model asks for is held (tool
/// approval, RunController::setApprovesToolCalls) and shown above the message box:
/// **Approve** runs it, **Edit Arguments…** runs it with arguments the person changed
/// (EditArgumentsDialog), **Answer Instead…** ends it with a result or error given in an
/// AnswerDialog, **Reject** ends it with an error the model reads. A manual tool's call
/// shows there too, with **Answer…**. A streamed model reply (docs/models.md
/// "Streaming") shows as it arrives, as the model's last entry, marked with "…"; when
/// the model step ends, its final message takes that entry's place.
class ChatDock : public QWidget
{
    Q_OBJECT
public:
    /// `project` gives the open project (nullptr: none).
    explicit ChatDock(std::function<const Project *()> project, QWidget *parent = nullptr);
    ~ChatDock() override;

    /// Re-reads the project's models; another project than the chat's ends the chat
    /// view (the run is kept for later).
    void refresh();
    /// Sends `text` (the message box's text when empty); false with the reason shown.
    bool send(const QString &text = {});
    /// Keeps the current chat for later and clears the transcript.
    void newChat();

    /// What Quit does with the chat's run (issue 20 item 5).
    enum class QuitChoice { Keep, Stop, Cancel };
    /// Before the window closes. A chat that only waits for the next message (its resting
    /// state) is kept without asking: Keep. A chat that waits on anything else — a held
    /// tool call, a manual tool's call, the model or a tool still running — asks like any
    /// run (the box "quitWithChatBox"): Keep for Later (suspended; resumable from the Runs
    /// dock or with `toolstudio chat --continue`), Stop Chat, or Cancel. Nothing is done
    /// yet: quit() does it once every question before closing was answered.
    QuitChoice askBeforeQuit(QWidget *window);
    /// Does `choice`: Keep suspends the chat's run now, Stop stops it, Cancel nothing.
    void quit(QuitChoice choice);

    QString runId() const { return m_runId; }
    /// The controller of the chat run (nullptr before the first Send and after New Chat).
    RunController *controller() const;
    bool isBusy() const { return m_busy; }
    QTextBrowser *transcript() const { return m_transcript; }
    QPlainTextEdit *messageBox() const { return m_message; }
    QComboBox *modelBox() const { return m_model; }
    QPushButton *sendButton() const { return m_send; }
    QLabel *statusLabel() const { return m_status; }
    /// The calls shown for a decision, oldest first (held, or waiting for an answer).
    const QList<Step> &callsToDecide() const { return m_toDecide; }

Q_SIGNALS:
    /// A chat run started (the Runs dock may list it).
    void runStarted(const QString &runId);
    /// A message went to the chat run `runId` (its first or a later one): its turn runs
    /// on controller() now (the window's trace follows it live).
    void turnStarted(const QString &runId);
    /// The model replied (or the turn failed): the chat waits for the next message.
    void replied(const QString &text, const QString &error);

private:
    void append(const QString &who, const QString &text, const QString &colour = {});
    void appendHtml(const QString &html);
    /// The reply so far of model step `sequence` (empty: the attempt ended).
    void onStreamed(int sequence, const QString &text);
    void showPartial();
    void removePartial();
    void onStep(const Step &step);
    void onReplied(const ChatRun::Input &next);
    void onEnded(const RunRecord &run);
    void setBusy(bool busy, const QString &status);
    void toDecide(const Step &step);
    void decided(const QString &callId);
    void showCallToDecide();
    /// The outcome of a decision on `callId` (the buttons wait for it); `failure` takes the reason.
    std::function<void(bool, const QString &)> decision(const QString &callId, const QString &failure);
    void approve();
    void editArguments();
    void reject();
    void answerInstead();
    /// The chat's calls are no longer to decide here (New Chat, the run ended): their
    /// dialogs close, the buttons wait for nothing, late outcomes are ignored.
    void forgetCallsToDecide();

    std::function<const Project *()> m_project;
    std::unique_ptr<ChatTurn> m_turn;
    QString m_projectDir; ///< the chat's project
    QString m_runId;
    bool m_waiting = false; ///< the chat's run waits for the next message
    bool m_busy = false;
    QComboBox *m_model = nullptr;
    QTextBrowser *m_transcript = nullptr;
    QPlainTextEdit *m_message = nullptr;
    QPushButton *m_send = nullptr;
    QPushButton *m_new = nullptr;
    QLabel *m_status = nullptr;
    QCheckBox *m_approve = nullptr;
    QList<Step> m_toDecide;
    // A streamed reply shown while it arrives: the model step, its text, and the first
    // block of its entry in the transcript (-1: not shown).
    int m_partialSequence = 0;
    QString m_partialText;
    int m_partialBlock = -1;
    std::optional<QString> m_shownReply; ///< the turn's final text, shown when its model step ended
    int m_chat = 0;                     ///< counts forgetCallsToDecide: an outcome of an earlier chat is not this one's
    QList<QPointer<QDialog>> m_dialogs; ///< Edit Arguments and Answer dialogs open for m_toDecide
    QWidget *m_decision = nullptr;
    QLabel *m_decisionLabel = nullptr;
    QPushButton *m_approveCall = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_answer = nullptr;
    QPushButton *m_reject = nullptr;
};
