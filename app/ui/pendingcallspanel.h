// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "servedstepmode.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

class AnswerDialog;
class AnswerPane;
class QDialog;
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
class QTimer;
class RunController;
struct Tool;

/// The Pending Calls dock's contents (issue 8 item 4): every open call — waiting for a
/// person (pendingCallOpened) or held by step mode (stepPaused) — with its tool,
/// attempt, how long it has waited and its arguments; below the list, the answer to
/// the selected waiting call (AnswerPane: the form from the tool's output_schema, raw
/// JSON without one, Send Result / Send Error). A held call gets the four step-mode
/// decisions (DESIGN.md "Step mode"): **Continue** (run the handler), **Answer
/// Instead** and **Fail Call** in the answer below (AnswerPane::setHeldCall), and
/// **Continue to End**. The waited times tick every second,
/// each against the call's wait bound (the manual tool's attempt_timeout_seconds;
/// none by default, DESIGN.md "Retry policy").
class PendingCallsPanel : public QWidget
{
    Q_OBJECT
public:
    /// Rows the list shows before it scrolls; it is as tall as its rows up to this.
    static constexpr int MaxVisibleRows = 6;

    explicit PendingCallsPanel(RunController *run, QWidget *parent = nullptr);
    ~PendingCallsPanel() override;

    /// How the panel finds a call's tool (output_schema, wait bound); nullptr = unknown.
    void setToolLookup(std::function<const Tool *(const QString &)> lookup) { m_toolLookup = std::move(lookup); }

    /// A call started waiting for a person (or a new attempt of one did).
    void callOpened(const Step &step);
    /// A call of a served run (`runId`, not the controller's: docs/server.md "Serving from
    /// the window") started waiting for a person; its answer goes to `answerer`.
    /// `projectTool`: the call is of the project's own tool (an MCP client's), so the
    /// tool lookup gives its output_schema and wait bound; otherwise (a seed-API
    /// session's tool, declared by its client) a same-named project tool is not its tool.
    using ServedAnswerer = std::function<bool(const QString &runId, const QString &callId, int attempt,
                                              const ManualAnswer &, QString *reason)>;
    void servedCallOpened(const Step &step, const QString &runId, ServedAnswerer answerer, bool projectTool);
    /// A call of a served MCP session (`runId`) is held by the server's step mode
    /// (docs/server.md "Step mode for served calls"): shown as a run's held call, with
    /// the same decisions, which go to `decider` (the serving process's engine) instead
    /// of the run controller. heldCallReleased() drops it.
    using ServedDecider = std::function<bool(const QString &runId, const QString &callId,
                                             const ServedStepMode::Decision &, QString *reason)>;
    void servedCallHeld(const Step &step, const QString &runId, ServedDecider decider, bool projectTool);
    /// A held served call was decided (here or over HTTP), or its session ended.
    void heldCallReleased(const QString &callId);
    /// The run of a served call, by call id; empty for the controller's calls.
    QString servedRun(const QString &callId) const { return m_servedRuns.value(callId).runId; }
    /// A waiting call got its answer or was cancelled.
    void callClosed(const QString &callId);
    /// Step mode holds `step` before it runs.
    void callHeld(const Step &step);
    /// Drops a held call once it is no longer paused; notes how the shown call ends.
    void stepChanged(const Step &step);
    /// No open calls (a new run, another project).
    void clear();
    /// The run ended: no open calls, but a call whose answer was being typed stays
    /// shown (marked as no longer waiting), so sending it shows the run's refusal.
    void runEnded();

    /// Calls waiting for a person, oldest first.
    const QList<Step> &pendingCalls() const { return m_pendingCalls; }
    const QList<Step> &heldCalls() const { return m_heldCalls; }
    int openCount() const { return int(m_pendingCalls.size() + m_heldCalls.size()); }
    /// Selects `callId` in the list and shows its answer; false when it is not open.
    bool selectCall(const QString &callId);
    /// The selected call's id; empty when none.
    QString currentCallId() const;
    /// Puts the keyboard focus on the answer's first field.
    void focusAnswer();
    /// Puts the keyboard focus on the error message (Send Error / Fail Call).
    void focusError();
    /// Opens the selected waiting call's answer in a window of its own.
    void popOut();

    QListWidget *list() const { return m_list; }
    AnswerPane *answerPane() const { return m_pane; }
    /// The window opened by popOut(); nullptr before.
    AnswerDialog *answerDialog() const;
    QPushButton *continueButton() const { return m_continueButton; }
    QPushButton *continueToEndButton() const { return m_continueToEndButton; }
    /// Selects a held call — the selected one if it is held, else the oldest — and
    /// returns its id; empty when no call is held.
    QString selectHeldCall();
    /// Continues the selected held call (else the oldest): its handler runs. False when
    /// none is held; the decision is posted to the run, and a refusal's reason is shown
    /// under the list when it comes back.
    bool continueHeldCall();
    /// Edit Messages… (a held model step only): opens an EditMessagesDialog on the
    /// selected held model step's messages; accepted, the step continues with them
    /// (RunController::continueStepWith), a refusal shown under the list. False when
    /// the selected call is not a held model step.
    bool editHeldMessages();
    QPushButton *editMessagesButton() const { return m_editMessagesButton; }

    /// "waited 1 min 5 s of 5 min 0 s (wait bound)" / "waited 3 s (no wait bound)":
    /// the time since the current attempt started waiting (ms `now`, Unix epoch) against
    /// `waitBoundMs` (0 = none).
    /// How the shown call closed without an answer from this panel, from its last
    /// step status ("Closed: the run was stopped before an answer." for cancelled).
    static QString closedText(std::optional<StepStatus> status);
    static QString waitClockText(const Step &step, qint64 waitBoundMs, qint64 now);

Q_SIGNALS:
    /// The number of open calls changed (the dock's tab badge).
    void openCountChanged(int open);
    /// Continue to End was clicked: the window leaves step mode (its F10 action) and
    /// every held call continues.
    void continueToEndRequested();

private:
    void updateList();
    /// Sizes the list to its rows (whole rows, at most MaxVisibleRows).
    void fitList();
    void showCurrent();
    void updateClock();
    const Step *findPending(const QString &callId) const;
    const Step *findHeld(const QString &callId) const;

    RunController *m_run = nullptr;
    std::function<const Tool *(const QString &)> m_toolLookup;
    QList<Step> m_pendingCalls;
    struct ServedCall
    {
        QString runId;
        ServedAnswerer answerer;
        bool projectTool = false;
        ServedDecider decider; ///< set for a held call
    };
    QHash<QString, ServedCall> m_servedRuns; ///< served calls by call id
    /// The tool of `step` as the lookup finds it, or nullptr (unknown, or a served call
    /// that is not of a project tool).
    const Tool *toolOf(const Step &step) const;
    QList<Step> m_heldCalls;
    QListWidget *m_list = nullptr;
    AnswerPane *m_pane = nullptr;
    QLabel *m_heldLabel = nullptr;
    QPushButton *m_continueButton = nullptr;
    QPushButton *m_editMessagesButton = nullptr;
    QPointer<QDialog> m_editMessages; ///< the Edit Messages dialog open, if any
    QPushButton *m_continueToEndButton = nullptr;
    QPushButton *m_popOutButton = nullptr;
    QScrollArea *m_scroll = nullptr;
    QTimer *m_ticker = nullptr;
    QPointer<AnswerDialog> m_dialog;
    QString m_shownCall; ///< the call (and attempt) the pane shows, so ticks keep its input
    int m_shownAttempt = 0;
    QString m_shownQuestion; ///< the shown attempt's question (PersonQuestion::identity), "" for none
    /// The shown call closed without this pane's answer (answered elsewhere, cancelled,
    /// timed out): it stays shown until another call is, and a send shows the refusal.
    bool m_shownIsStale = false;
    QString m_answeredHere; ///< the last call this pane's answer was accepted for
    /// `callId` was answered from this pane (accepted, or its outcome on the way).
    bool answeredHere(const QString &callId) const;
    /// The shown call's last status (stepChanged), to say how it closed.
    std::optional<StepStatus> m_shownStatus;
};
