// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "answerroute.h"
#include "erroranswerbox.h"
#include "pagequestion.h"
#include "project/step.h"
#include "servedstepmode.h"

#include <QWidget>

#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class ModelComposer;
class SamplingMediaView;
class SamplingModelPanel;
class SamplingToolsView;
class RunController;
class SchemaForm;
class ToolChangeQuestionView;

/// The answer to one pending call (DESIGN.md "Pending calls"), as a widget: the tool,
/// its arguments, the attempt and how long it has waited; the result in a form generated
/// from the tool's output_schema (raw JSON when there is none) with **Send Result**, or
/// an error with a message and *retryable* with **Send Error**. Ctrl+Enter sends what
/// it is typed in. Answers go through RunController::answer (the engine's fencing): a
/// refused answer shows the engine's reason in problem() and changes nothing.
/// A call held by step mode (setHeldCall) is decided instead of answered: Send Result
/// becomes **Answer Instead** and Send Error **Fail Call** (DESIGN.md "Step mode").
/// A waiting turn of a `manual` model (a step "model:NAME") is answered in a
/// ModelComposer instead of the result input: the person writes the model's reply.
/// A step whose running attempt asks a question (Attempt::question: an MCP server's
/// elicitation or sampling request; docs/mcp.md "A server's requests") shows the
/// server's message and answers it instead: an elicitation in a form built from its
/// requestedSchema with **Accept**, **Decline** and **Cancel**, a sampling request with
/// the assistant's reply in **Send Reply** (or, when it offers tools, a tool call in
/// **Send Tool Call**: SamplingToolsView); Send Error refuses it (the server gets a
/// JSON-RPC error). A changed MCP tool asked about (a "tool_change" question) shows in a
/// ToolChangeQuestionView: its diff with **Accept** and **Reject**.
/// Lives in the Pending Calls dock (PendingCallsPanel) and in AnswerDialog.
class AnswerPane : public QWidget
{
    Q_OBJECT
public:
    explicit AnswerPane(RunController *run, QWidget *parent = nullptr);

    /// Shows `step`'s current attempt; clears the previous input.
    void setCall(const Step &step);
    /// Where a waiting call's answer goes: `answerer` (a served run's call, answered
    /// through the journal as `toolstudio answer` does) instead of the run controller;
    /// an empty one: the controller. Held calls always go to the controller.
    using Answerer = AnswerRoute::Answerer;
    void setAnswerer(Answerer answerer) { m_route.setAnswerer(std::move(answerer)); }
    /// Where a held call's decision goes: `decider` (a served MCP call held by the
    /// server's step mode, decided in this process: docs/server.md "Step mode for served
    /// calls") instead of the run controller; an empty one: the controller.
    using HeldDecider = AnswerRoute::HeldDecider;
    void setHeldDecider(HeldDecider decider) { m_route.setHeldDecider(std::move(decider)); }
    /// Shows `step`, held by step mode before its first attempt (RunController::
    /// stepPaused); clears the previous input. **Answer Instead** ends the step with the
    /// result (RunController::answerStep: checked against output_schema like a manual
    /// answer; the handler never runs), **Fail Call** with an error: code `tool_failed`
    /// with the message and the retryable flag as typed (answerStep), or `timeout`
    /// (timeOutStep: the engine's injected timeout and its own message). The engine
    /// retries neither. A held model step is answered instead in the composer: the
    /// engine checks the reply as a `manual` model's (ManualModelHandler::replyOf).
    void setHeldCall(const Step &step);
    /// True while the shown call is one held by step mode (setHeldCall).
    bool isHeld() const { return m_held; }
    /// No call: the inputs are disabled and a hint says what to select.
    void clearCall();
    /// The tool's output_schema: the result is entered in a form generated from it
    /// (SchemaForm); without one (nullopt) as raw JSON. Call before setCall.
    void setOutputSchema(const std::optional<nlohmann::json> &schema);
    /// The shown call is closed (`how`: "Closed: the run was stopped before an answer."):
    /// the heading says it no longer waits, `how` replaces the wait clock, and the
    /// inputs and Send buttons are disabled; what was typed stays visible.
    void showClosed(const QString &how);
    /// The shown call was answered from this pane: closed as in showClosed, the clock
    /// line says what was sent ("Answered with \"https://…\""), callId() is empty.
    void showAnswered();
    /// The wait clock line ("waited 12 s of 5 min 0 s (wait bound)"); see PendingCallsPanel.
    void setClockText(const QString &text);
    /// Puts the keyboard focus on the first result field.
    void focusResult();

    SchemaForm *resultForm() const { return m_resultForm; }
    /// Ask Model for a sampling request: its text fills the Reply field.
    SamplingModelPanel *samplingModel() const { return m_samplingModel; }
    /// The tools a sampling request offers and a tool call to answer with.
    SamplingToolsView *samplingTools() const { return m_samplingTools; }
    /// The composer of a manual model's turn; shown while usesComposer().
    ModelComposer *composer() const { return m_composer; }
    bool usesComposer() const { return m_usesComposer; }
    /// True when the result is entered in resultForm(), false for the raw JSON edit.
    bool usesForm() const { return m_usesForm; }
    QString callId() const { return m_callId; }
    int attempt() const { return m_attempt; }
    QString tool() const { return m_tool; }

    QLabel *headingLabel() const { return m_headingLabel; }
    QLabel *clockLabel() const { return m_clockLabel; }
    QPlainTextEdit *argumentsView() const { return m_argumentsView; }
    QPlainTextEdit *resultEdit() const { return m_resultEdit; }
    QLineEdit *errorMessageEdit() const { return m_errorBox->messageEdit(); }
    QCheckBox *retryableCheck() const { return m_errorBox->retryableCheck(); }
    /// The error code of Fail Call ("tool_failed" or "timeout"); shown for held calls only.
    QComboBox *errorCodeCombo() const { return m_errorBox->codeCombo(); }
    QPushButton *sendResultButton() const { return m_sendResultButton; }
    QPushButton *sendErrorButton() const { return m_errorBox->sendButton(); }
    /// What opens a URL-mode elicitation's page once the person agreed (the pane asks
    /// first): true when it opened. Default: QDesktopServices::openUrl. Tests set one.
    using PageOpener = PageQuestion::Opener;
    void setPageOpener(PageOpener opener) { m_pageQuestion.setOpener(std::move(opener)); }
    /// What asks the person before a page opens: true to open. Default: a message box
    /// naming the server, the host and the URL. Tests set one.
    using OpenConfirmer = PageQuestion::Confirmer;
    void setOpenConfirmer(OpenConfirmer confirmer) { m_pageQuestion.setConfirmer(std::move(confirmer)); }
    /// The question shown (Attempt::question), null when the call asks none.
    const nlohmann::json &question() const { return m_question; }
    /// The message shown under the input: a JSON parse error or a refusal; empty when none.
    QString problem() const;
    /// The call whose answer was sent and whose outcome has not come back yet; empty
    /// when none.
    QString sendingCallId() const { return m_sendingCallId; }

public Q_SLOTS:
    /// Sends the form's value (or the raw text parsed as JSON); for a URL-mode
    /// elicitation, asks, opens the page and sends {"action": "accept"}. Returns false (and
    /// shows why, nothing sent) on an invalid value. The run's outcome comes later
    /// (issue 18: posted, never waited for): answered(), or the refusal's reason in
    /// problem() and answerRefused(). A served run's call is answered at once.
    bool sendResult();
    /// Sends an error answer with the message and the retryable flag.
    bool sendError();
    /// An elicitation question: answers {"action": "decline"} / {"action": "cancel"}.
    bool sendDecline();
    bool sendCancel();

Q_SIGNALS:
    /// The run accepted the answer for `callId`.
    void answered(const QString &callId);
    /// The run refused the answer for `callId`; problem() says why.
    void answerRefused(const QString &callId);

private:
    bool send(const ManualAnswer &answer);
    /// A URL-mode elicitation's Open in Browser (PageQuestion::open): asks, opens, answers
    /// {"action": "accept"}.
    bool openPage();
    /// The run's outcome for the answer sent for `callId`.
    void sent(const QString &callId, bool accepted, const QString &reason);
    /// `text` is what problem() says; `shown`: also in the pane (not when the form shows it at its field).
    void showProblem(const QString &text, bool shown = true);
    void setHeading(bool waiting);
    /// Labels the inputs for a waiting call or a held one (m_held).
    void applyMode();
    /// Shows the input for the call: the composer, the form or the raw JSON edit.
    void applyInput();
    /// Sends the raw JSON edit's text parsed (Send Result without a form); false (and why
    /// shown, the cursor where the parser stopped) when it is not JSON or too large.
    bool sendRawResult();
    /// True while a sampling question's reply is empty: nothing to send yet.
    bool replyMissing() const;
    /// Send Reply disabled and the hint beside it shown while the reply is missing.
    void updateReplyState();

    AnswerRoute m_route; ///< where an answer goes
    QString m_callId;
    QString m_tool;
    int m_attempt = 0;
    int m_maxAttempts = 0;
    int m_sequence = 0;
    PageQuestion m_pageQuestion; ///< a URL-mode elicitation's page: asked about, then opened
    bool m_held = false;         ///< the call is held by step mode, not waiting for a person
    nlohmann::json m_question;   ///< the attempt's question (elicitation, sampling), null when none
    QString m_sentText;          ///< the last answer accepted from this pane, as shown by showAnswered
    QString m_sendingCallId;     ///< an answer sent, its outcome not back yet

    QLabel *m_headingLabel = nullptr;
    QLabel *m_clockLabel = nullptr;
    QWidget *m_body = nullptr;
    QPlainTextEdit *m_argumentsView = nullptr;
    QPlainTextEdit *m_resultEdit = nullptr;
    SchemaForm *m_resultForm = nullptr;
    QLabel *m_resultLabel = nullptr;
    bool m_usesForm = false;
    ModelComposer *m_composer = nullptr;
    SamplingModelPanel *m_samplingModel = nullptr;
    SamplingMediaView *m_samplingMedia = nullptr; ///< a sampling question's images and audio
    SamplingToolsView *m_samplingTools = nullptr; ///< a sampling question's tools, a tool call
    bool m_usesComposer = false;                  ///< a manual model's turn is shown
    QLabel *m_argumentsLabel = nullptr;
    ErrorAnswerBox *m_errorBox = nullptr; ///< the error answer: message, retryable, code, Send Error
    QPushButton *m_sendResultButton = nullptr;
    QPushButton *m_declineButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    ToolChangeQuestionView *m_toolChange = nullptr;
    QLabel *m_problemLabel = nullptr;
    QLabel *m_replyHint = nullptr; ///< "Write the reply (required)"
};
