// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pendingcallspanel.h"
#include "project/printabletext.h"

#include "answerdialog.h"
#include "answerpane.h"
#include "editmessagesdialog.h"
#include "engine/modelstep.h"
#include "engine/personquestion.h"
#include "project/durationtext.h"
#include "project/tool.h"
#include "run/runcontroller.h"
#include "samplingmodelpanel.h"
#include "tracemodel.h"

#include <QApplication>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace {

qint64 waitingSince(const Step &step)
{
    const Attempt *attempt = step.currentAttempt();
    return attempt && attempt->startedAt > 0 ? attempt->startedAt : step.queuedAt;
}

} // namespace

PendingCallsPanel::PendingCallsPanel(RunController *run, QWidget *parent)
    : QWidget(parent)
    , m_run(run)
{
    setObjectName(QStringLiteral("pendingPanel"));
    auto *splitter = new QSplitter(Qt::Vertical, this);
    auto *top = new QWidget(splitter);
    // No taller than the list and its buttons: the splitter gives the rest to the answer.
    top->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    m_list = new QListWidget(top);
    m_list->setObjectName(QStringLiteral("pendingList"));
    // As tall as its rows (fitList), so no row is cut and the rest goes to the answer;
    // a row too long for the dock is cut at its end (its arguments are in its tooltip)
    // rather than taking a row's height for a scroll bar.
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_continueButton = new QPushButton(tr("&Continue"), top);
    m_continueButton->setObjectName(QStringLiteral("continueHeld"));
    m_continueButton->setToolTip(tr("Step mode: run the selected held call's handler (F7)"));
    m_editMessagesButton = new QPushButton(tr("Edit &Messages…"), top);
    m_editMessagesButton->setObjectName(QStringLiteral("editHeldMessages"));
    m_editMessagesButton->setToolTip(
        tr("Step mode: send the held model call with messages you edit instead of the script's"));
    m_editMessagesButton->hide();
    m_continueToEndButton = new QPushButton(tr("Continue to &End"), top);
    m_continueToEndButton->setObjectName(QStringLiteral("continueToEnd"));
    m_continueToEndButton->setToolTip(tr("Leave step mode: every held call and every later one runs (F8)"));
    m_popOutButton = new QPushButton(tr("Answer in a &Window…"), top);
    m_popOutButton->setObjectName(QStringLiteral("answerInWindow"));
    m_popOutButton->setToolTip(tr("Answer the selected call in a window of its own (room for a large form)"));
    m_heldLabel = new QLabel(top);
    m_heldLabel->setWordWrap(true);
    m_heldLabel->hide();
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_continueButton);
    buttons->addWidget(m_editMessagesButton);
    buttons->addWidget(m_continueToEndButton);
    buttons->addStretch();
    buttons->addWidget(m_popOutButton);
    topLayout->addWidget(m_list, 1);
    topLayout->addWidget(m_heldLabel);
    topLayout->addLayout(buttons);

    // Scrolled, so a large form never pushes the Trace dock above it out of sight.
    m_scroll = new QScrollArea(splitter);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_pane = new AnswerPane(run, m_scroll);
    m_pane->setObjectName(QStringLiteral("pendingAnswer"));
    m_scroll->setWidget(m_pane);
    splitter->addWidget(top);
    splitter->addWidget(m_scroll);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    splitter->setSizes({90, 400});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_list, &QListWidget::currentItemChanged, this, &PendingCallsPanel::showCurrent);
    connect(m_list, &QListWidget::itemActivated, this, [this] { focusAnswer(); });
    connect(m_continueButton, &QPushButton::clicked, this, &PendingCallsPanel::continueHeldCall);
    connect(m_editMessagesButton, &QPushButton::clicked, this, &PendingCallsPanel::editHeldMessages);
    connect(m_continueToEndButton, &QPushButton::clicked, this, &PendingCallsPanel::continueToEndRequested);
    connect(m_popOutButton, &QPushButton::clicked, this, &PendingCallsPanel::popOut);
    connect(m_pane, &AnswerPane::answered, this, [this](const QString &callId) {
        m_answeredHere = callId;
        if (callId == m_shownCall && !findPending(callId)) { // closed before the outcome came back
            m_shownIsStale = false;
            showCurrent();
        }
    });
    // Refused after the call closed (the run stopped meanwhile): it closed without this
    // pane's answer after all.
    connect(m_pane, &AnswerPane::answerRefused, this, [this](const QString &callId) {
        if (callId == m_shownCall && !findPending(callId) && !findHeld(callId)) {
            m_shownIsStale = true;
            showCurrent();
        }
    });
    // The waited times tick while calls wait.
    m_ticker = new QTimer(this);
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &PendingCallsPanel::updateList);
    updateList();
}

PendingCallsPanel::~PendingCallsPanel() = default;

AnswerDialog *PendingCallsPanel::answerDialog() const
{
    return m_dialog;
}

void PendingCallsPanel::callOpened(const Step &step)
{
    const auto existing = std::find_if(m_pendingCalls.begin(), m_pendingCalls.end(),
                                       [&](const Step &s) { return s.callId == step.callId; });
    if (existing != m_pendingCalls.end())
        *existing = step; // a new attempt of the same call
    else
        m_pendingCalls.append(step);
    updateList();
    if (currentCallId().isEmpty() || currentCallId() == step.callId)
        selectCall(step.callId);
    if (m_dialog && m_dialog->isVisible() && m_dialog->callId() == step.callId)
        m_dialog->setCall(step);
}

void PendingCallsPanel::servedCallOpened(const Step &step, const QString &runId, ServedAnswerer answerer,
                                         bool projectTool)
{
    m_servedRuns.insert(step.callId, {runId, std::move(answerer), projectTool, {}});
    callOpened(step);
}

void PendingCallsPanel::servedCallHeld(const Step &step, const QString &runId, ServedDecider decider, bool projectTool)
{
    m_servedRuns.insert(step.callId, {runId, {}, projectTool, std::move(decider)});
    callHeld(step);
}

void PendingCallsPanel::heldCallReleased(const QString &callId)
{
    if (m_heldCalls.removeIf([&](const Step &s) { return s.callId == callId; }) == 0)
        return;
    m_servedRuns.remove(callId);
    updateList();
}

const Tool *PendingCallsPanel::toolOf(const Step &step) const
{
    const auto served = m_servedRuns.constFind(step.callId);
    if (!m_toolLookup || (served != m_servedRuns.cend() && !served->projectTool))
        return nullptr;
    return m_toolLookup(step.tool);
}

void PendingCallsPanel::callClosed(const QString &callId)
{
    m_servedRuns.remove(callId);
    const bool wasCurrent = currentCallId() == callId;
    m_shownIsStale = m_shownIsStale || (callId == m_shownCall && !answeredHere(callId));
    m_pendingCalls.removeIf([&](const Step &s) { return s.callId == callId; });
    if (m_dialog && m_dialog->callId() == callId)
        m_dialog->hide();
    updateList();
    if (wasCurrent && !m_pendingCalls.isEmpty())
        selectCall(m_pendingCalls.first().callId);
}

void PendingCallsPanel::callHeld(const Step &step)
{
    m_heldCalls.removeIf([&](const Step &s) { return s.callId == step.callId; });
    m_heldCalls.append(step);
    updateList();
    if (currentCallId().isEmpty())
        selectCall(step.callId);
}

void PendingCallsPanel::stepChanged(const Step &step)
{
    if (step.callId == m_shownCall) {
        m_shownStatus = step.status;
        if (m_shownIsStale)
            showCurrent(); // a closed call's status may come after its close
    }
    if (!step.paused && m_heldCalls.removeIf([&](const Step &s) { return s.callId == step.callId; }) > 0)
        updateList();
}

void PendingCallsPanel::runEnded()
{
    m_shownIsStale = m_shownIsStale || (!m_shownCall.isEmpty() && !answeredHere(m_shownCall));
    m_pendingCalls.clear();
    m_heldCalls.clear();
    if (m_dialog)
        m_dialog->hide();
    updateList();
}

void PendingCallsPanel::clear()
{
    m_shownIsStale = false;
    m_answeredHere.clear();
    m_pendingCalls.clear();
    m_servedRuns.clear();
    m_heldCalls.clear();
    if (m_dialog)
        m_dialog->hide();
    updateList();
}

bool PendingCallsPanel::answeredHere(const QString &callId) const
{
    // An answer on its way counts: the call closes before the run's outcome comes back.
    return callId == m_answeredHere || callId == m_pane->sendingCallId();
}

QString PendingCallsPanel::selectHeldCall()
{
    if (m_heldCalls.isEmpty())
        return QString();
    const QString current = currentCallId();
    const QString callId = findHeld(current) ? current : m_heldCalls.first().callId;
    return selectCall(callId) ? callId : QString();
}

bool PendingCallsPanel::continueHeldCall()
{
    const QString callId = selectHeldCall();
    if (callId.isEmpty())
        return false;
    if (const auto served = m_servedRuns.constFind(callId); served != m_servedRuns.cend() && served->decider) {
        // Decided in this process at once; the decider releases the call (a copy: the
        // release forgets it here).
        const ServedCall call = *served;
        QString reason;
        if (!call.decider(call.runId, callId, ServedStepMode::Decision(), &reason)) {
            m_heldLabel->setText(tr("Cannot continue: %1").arg(reason));
            m_heldLabel->show();
        }
        return true;
    }
    // Posted (issue 18): a refusal comes back queued and is shown the same way.
    m_run->continueStep(callId, this, [this](bool accepted, const QString &reason) {
        if (accepted)
            return;
        m_heldLabel->setText(tr("Cannot continue: %1").arg(reason));
        m_heldLabel->show();
    });
    return true;
}

bool PendingCallsPanel::editHeldMessages()
{
    const Step *step = findHeld(currentCallId());
    if (!step || !ModelSteps::isModelStep(step->tool))
        return false;
    if (m_editMessages) {
        m_editMessages->raise();
        m_editMessages->activateWindow();
        return true;
    }
    const QString callId = step->callId;
    auto *dialog = new EditMessagesDialog(step->tool, step->args.value("messages", nlohmann::json::array()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_editMessages = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog, callId] {
        m_run->continueStepWith(callId, dialog->messages(), this, [this](bool accepted, const QString &reason) {
            if (accepted)
                return;
            m_heldLabel->setText(tr("Cannot send the edited messages: %1").arg(reason));
            m_heldLabel->show();
        });
    });
    dialog->open();
    return true;
}

bool PendingCallsPanel::selectCall(const QString &callId)
{
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(Qt::UserRole).toString() == callId) {
            m_list->setCurrentRow(row);
            showCurrent();
            return true;
        }
    }
    return false;
}

QString PendingCallsPanel::currentCallId() const
{
    return m_list->currentItem() ? m_list->currentItem()->data(Qt::UserRole).toString() : QString();
}

void PendingCallsPanel::focusAnswer()
{
    if (!findPending(currentCallId()) && !findHeld(currentCallId()))
        return;
    m_pane->focusResult();
    if (QWidget *focus = QApplication::focusWidget(); focus && m_pane->isAncestorOf(focus))
        m_scroll->ensureWidgetVisible(focus);
}

void PendingCallsPanel::focusError()
{
    if (!findPending(currentCallId()) && !findHeld(currentCallId()))
        return;
    m_pane->errorMessageEdit()->setFocus();
    m_scroll->ensureWidgetVisible(m_pane->errorMessageEdit());
}

void PendingCallsPanel::popOut()
{
    const Step *step = findPending(currentCallId());
    if (!step)
        return;
    if (!m_dialog) {
        m_dialog = new AnswerDialog(m_run, this);
        m_dialog->setObjectName(QStringLiteral("answerDialog"));
        m_dialog->pane()->samplingModel()->setProjectLookup(m_pane->samplingModel()->projectLookup());
    }
    const Tool *tool = toolOf(*step);
    m_dialog->setOutputSchema(tool ? tool->outputSchema : std::nullopt);
    m_dialog->setCall(*step);
    m_dialog->show();
    m_dialog->raise();
    m_dialog->activateWindow();
}

QString PendingCallsPanel::closedText(std::optional<StepStatus> status)
{
    switch (status.value_or(StepStatus::Waiting)) {
    case StepStatus::Cancelled:
        return tr("Closed: the run was stopped before an answer.");
    case StepStatus::Succeeded:
    case StepStatus::Memoized:
        return tr("Closed: answered elsewhere.");
    case StepStatus::Failed:
        return tr("Closed: answered elsewhere with an error, or its wait bound ran out.");
    case StepStatus::Retrying:
        return tr("Closed: its wait bound ran out; the step retries.");
    case StepStatus::Queued:
    case StepStatus::Running:
    case StepStatus::Waiting:
        break;
    }
    return tr("Closed: the run ended before an answer.");
}

QString PendingCallsPanel::waitClockText(const Step &step, qint64 waitBoundMs, qint64 now)
{
    const qint64 since = waitingSince(step);
    const QString waited = durationText(since > 0 ? std::max<qint64>(0, now - since) : 0);
    if (waitBoundMs <= 0)
        return tr("waited %1 (no wait bound)").arg(waited);
    return tr("waited %1 of %2 (wait bound)").arg(waited, durationText(waitBoundMs));
}

void PendingCallsPanel::updateList()
{
    const QString current = currentCallId();
    {
        const QSignalBlocker blocker(m_list);
        m_list->clear();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto add = [&](const Step &step, const QString &text) {
            auto *item = new QListWidgetItem(text, m_list);
            item->setData(Qt::UserRole, step.callId);
            item->setToolTip(printableLines(TraceModel::jsonText(step.args, 2)));
            if (step.callId == current)
                m_list->setCurrentItem(item);
        };
        for (const Step &step : std::as_const(m_pendingCalls)) {
            const Attempt *attempt = step.currentAttempt();
            const qint64 since = waitingSince(step);
            if (attempt && attempt->question && attempt->question->is_object()) {
                const nlohmann::json &question = *attempt->question;
                add(step,
                    tr("#%1 %2 (%3, waiting %4) %5")
                        .arg(step.sequence)
                        .arg(printableText(step.tool),
                             question.value("kind", std::string()) == "elicitation" ? tr("its server asks: input")
                                 : question.value("kind", std::string()) == "tool_change"
                                 ? tr("its tool changed: accept or reject")
                                 : tr("its server asks: a reply"),
                             durationText(since > 0 ? now - since : 0),
                             elidedText(QString::fromStdString(question.value("message", std::string())),
                                        TraceModel::MaxSummaryChars)));
                continue;
            }
            add(step,
                tr("#%1 %2 (attempt %3, waiting %4) %5")
                    .arg(step.sequence)
                    .arg(printableText(step.tool))
                    .arg(attempt ? attempt->number : 1)
                    .arg(durationText(since > 0 ? now - since : 0),
                         elidedText(TraceModel::jsonText(step.args), TraceModel::MaxSummaryChars)));
        }
        for (const Step &step : std::as_const(m_heldCalls))
            add(step,
                tr("#%1 %2 (held by step mode, %3) %4")
                    .arg(step.sequence)
                    .arg(printableText(step.tool), durationText(step.queuedAt > 0 ? now - step.queuedAt : 0),
                         elidedText(TraceModel::jsonText(step.args), TraceModel::MaxSummaryChars)));
    }
    fitList();
    const int open = openCount();
    if (open > 0 && !m_ticker->isActive())
        m_ticker->start();
    else if (open == 0)
        m_ticker->stop();
    showCurrent();
    Q_EMIT openCountChanged(open);
}

void PendingCallsPanel::fitList()
{
    // Whole rows only: MaxVisibleRows at most, then it scrolls. No call open, no list:
    // an empty row under the dock's title read as a call without a name (nc-shot22).
    m_list->setVisible(m_list->count() > 0);
    const int rows = std::clamp(int(m_list->count()), 1, MaxVisibleRows);
    const int rowHeight = m_list->count() > 0 ? m_list->sizeHintForRow(0) : m_list->fontMetrics().height() + 4;
    m_list->setFixedHeight(rows * rowHeight + 2 * m_list->frameWidth());
}

void PendingCallsPanel::showCurrent()
{
    const QString callId = currentCallId();
    const Step *step = findPending(callId);
    const Step *heldStep = step ? nullptr : findHeld(callId);
    const bool held = heldStep != nullptr;
    m_continueButton->setEnabled(held);
    m_editMessagesButton->setVisible(held && ModelSteps::isModelStep(heldStep->tool));
    m_continueToEndButton->setEnabled(!m_heldCalls.isEmpty());
    m_popOutButton->setEnabled(step != nullptr);
    // Only a refused Continue has something to say here: the answer's heading already
    // says the call is held, and room is short (Send buttons above the fold at 1440x900).
    if (!held)
        m_heldLabel->hide();
    if (held)
        step = heldStep;
    // The shown call closed: it stays shown, closed and disabled, until another call is.
    if (!step && !held && !m_shownCall.isEmpty() && answeredHere(m_shownCall)) {
        m_pane->showAnswered();
        return;
    }
    if (!step && m_shownIsStale && !held) {
        m_pane->showClosed(closedText(m_shownStatus));
        return;
    }
    if (!step) {
        m_shownIsStale = false;
        if (!m_shownCall.isEmpty()) {
            m_pane->clearCall();
            m_shownCall.clear();
            m_shownAttempt = 0;
        }
        return;
    }
    const int attempt = step->currentAttempt() ? step->currentAttempt()->number : 1;
    // Only a different call (or attempt) resets the input; the ticks keep what is typed.
    m_shownIsStale = false;
    // A question of the call's attempt (an MCP server's request) is a new thing to answer:
    // told by its identity (its serial, server, request id), not by its JSON, which may
    // hold megabytes of media and is compared on every tick (attack42 B2).
    const Attempt *current = step->currentAttempt();
    const QString question = current && current->question ? PersonQuestion::identity(*current->question) : QString();
    if (m_shownCall != step->callId || m_shownAttempt != attempt || m_pane->isHeld() != held
        || m_shownQuestion != question) {
        m_shownQuestion = question;
        const Tool *tool = toolOf(*step);
        m_pane->setOutputSchema(tool ? tool->outputSchema : std::nullopt);
        if (held)
            m_pane->setHeldCall(*step);
        else
            m_pane->setCall(*step);
        const auto served = m_servedRuns.constFind(step->callId);
        if (held && served != m_servedRuns.cend() && served->decider) {
            m_pane->setHeldDecider([runId = served->runId, decider = served->decider](
                                       const QString &callId, const ServedStepMode::Decision &decision,
                                       QString *reason) { return decider(runId, callId, decision, reason); });
        } else {
            m_pane->setHeldDecider({});
        }
        if (held || served == m_servedRuns.cend()) {
            m_pane->setAnswerer({});
        } else {
            m_pane->setAnswerer([runId = served->runId, answerer = served->answerer](
                                    const QString &callId, int attempt, const ManualAnswer &answer, QString *reason) {
                return answerer(runId, callId, attempt, answer, reason);
            });
        }
        m_shownCall = step->callId;
        m_shownAttempt = attempt;
        m_shownStatus = step->status;
    }
    updateClock();
}

void PendingCallsPanel::updateClock()
{
    if (const Step *held = findHeld(m_shownCall)) {
        const qint64 since = held->queuedAt;
        m_pane->setClockText(
            tr("held %1 (step mode: the run clock is paused)")
                .arg(durationText(since > 0 ? std::max<qint64>(0, QDateTime::currentMSecsSinceEpoch() - since) : 0)));
        return;
    }
    const Step *step = findPending(m_shownCall);
    if (!step)
        return;
    const Tool *tool = toolOf(*step);
    // A question pauses the attempt timeout: a person may take any time.
    const bool asks = step->currentAttempt() && step->currentAttempt()->question;
    m_pane->setClockText(
        waitClockText(*step, tool && !asks ? tool->retry.attemptTimeoutMs : 0, QDateTime::currentMSecsSinceEpoch()));
}

const Step *PendingCallsPanel::findPending(const QString &callId) const
{
    if (callId.isEmpty())
        return nullptr;
    for (const Step &step : m_pendingCalls)
        if (step.callId == callId)
            return &step;
    return nullptr;
}

const Step *PendingCallsPanel::findHeld(const QString &callId) const
{
    if (callId.isEmpty())
        return nullptr;
    for (const Step &step : m_heldCalls)
        if (step.callId == callId)
            return &step;
    return nullptr;
}
