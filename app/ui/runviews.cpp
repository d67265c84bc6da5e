// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runviews.h"

#include "mcp/mcpserverpool.h"

#include "budgetmeters.h"
#include "consoleview.h"
#include "exchange/traceexport.h"
#include "journal/journal.h"
#include "livestepstore.h"
#include "mcp/mcpserverpool.h"
#include "pendingcallspanel.h"
#include "run/runcontroller.h"
#include "run/runstatustext.h"
#include "scripteditor.h"
#include "scripttabs.h"
#include "stepinspector.h"
#include "tracemodel.h"
#include "tracepanel.h"
#include "tracerowformat.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>

RunViews::RunViews(RunController *run, PendingCallsPanel *pending, ScriptTabs *tabs,
                   std::function<const Project *()> project, Reporter report, QWidget *window)
    : QObject(window)
    , m_run(run)
    , m_window(window)
    , m_project(project)
    , m_report(std::move(report))
    , m_pending(pending)
    , m_tabs(tabs)
    , m_traceModel(new TraceModel(this))
    , m_liveSteps(std::make_unique<LiveStepStore>())
{
    m_tracePanel = new TracePanel(m_traceModel, window);
    connect(m_tracePanel, &TracePanel::notice, this, &RunViews::notice);
    connect(m_tracePanel, &TracePanel::currentStepChanged, this, [this](const QString &callId) {
        showStep(callId);
        Q_EMIT currentStepChanged(callId);
    });
    m_budget = new BudgetMeters(run, std::move(project), m_tracePanel);
    m_tracePanel->setHeader(m_budget);

    m_inspector = new StepInspector(window);
    m_inspector->setObjectName(QStringLiteral("stepInspector"));
    // The Protocol tab follows a running MCP attempt of the step shown.
    m_inspector->setLiveProtocol([this](const QString &idempotencyKey, int attempt, bool ended, quint64 *revision) {
        const Project *project = m_project ? m_project() : nullptr;
        McpServerPool *pool = project ? McpServerPool::existing(project->dir) : nullptr;
        if (!pool) {
            if (revision)
                *revision = 0;
            return nlohmann::json();
        }
        return ended ? pool->cancelledExchange(idempotencyKey, attempt)
                     : pool->liveExchange(idempotencyKey, attempt, revision);
    });
    makeConsolePane(window);
    m_importRunAction = new QAction(tr("&Import Run…"), this);
    m_importRunAction->setStatusTip(tr("Show a run exported as JSON, read-only (docs/run-export.md)"));
    connect(m_importRunAction, &QAction::triggered, this, [this] { importRun({}); });

    // The trace (and the timeline, which follows it) takes one batch per frame.
    connect(run, &RunController::stepsUpdated, m_traceModel, &TraceModel::applySteps);
    connect(run, &RunController::policyEvent, m_traceModel, &TraceModel::addEvent);
    connect(run, &RunController::stepEvent, m_traceModel, &TraceModel::addEvent);
    connect(run, &RunController::stepsUpdated, this, [this](const QList<Step> &steps) { stepsUpdated(steps); });
    connect(run, &RunController::outputReceived, m_console, &ConsoleView::appendOutput);
    connect(run, &RunController::outputReceived, this, [this](int stream, const QByteArray &chunk) {
        if (stream == 2 && m_stderr.size() < 1024 * 1024)
            m_stderr.append(chunk);
    });
}

RunViews::~RunViews() = default;

void RunViews::makeConsolePane(QWidget *window)
{
    m_consolePane = new QWidget(window);
    auto *layout = new QVBoxLayout(m_consolePane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_console = new ConsoleView(m_consolePane);
    m_console->setObjectName(QStringLiteral("console"));
    m_consoleSearch = new QLineEdit(m_consolePane);
    m_consoleSearch->setObjectName(QStringLiteral("consoleSearch"));
    m_consoleSearch->setPlaceholderText(tr("Search the output (Enter: next, Shift+Enter: previous)"));
    m_consoleSearch->setClearButtonEnabled(true);
    layout->addWidget(m_consoleSearch);
    layout->addWidget(m_console, 1);
    connect(m_consoleSearch, &QLineEdit::returnPressed, this, [this] {
        const bool backward = QApplication::keyboardModifiers() & Qt::ShiftModifier;
        if (!m_console->findText(m_consoleSearch->text(), backward))
            Q_EMIT notice(tr("Not found in the output: %1").arg(m_consoleSearch->text()), 3000);
    });
    connect(m_console, &ConsoleView::stepClicked, m_tracePanel, &TracePanel::selectStep);
}

/// Batched like the trace: per-step signals would cross from the run thread one by one.
/// Only the last steps are kept whole (LiveStepStore); the budget meter's sizes come
/// from the engine, so nothing here serialises a step.
void RunViews::stepsUpdated(const QList<Step> &steps, bool own)
{
    const QModelIndex current = m_tracePanel->view()->currentIndex();
    const QString shown = current.isValid() ? current.data(TraceModel::CallIdRole).toString() : QString();
    bool showAgain = false;
    for (const Step &step : steps) {
        // A batch is in sequence order; a step seen for the first time is new.
        if (step.sequence > m_markedSequence) {
            m_markedSequence = step.sequence;
            m_console->appendStepMarker(step.sequence, step.callId, step.tool);
        }
        m_liveSteps->update(step);
        showAgain = showAgain || (!shown.isEmpty() && step.callId == shown);
        if (own) {
            m_budget->stepChanged(step);
            m_pending->stepChanged(step);
        }
    }
    if (showAgain)
        showStep(shown);
}

void RunViews::follow(RunController *other, const QString &journalPath, const QString &runId)
{
    unfollow();
    if (m_run->isActive())
        return;
    empty();
    m_liveSteps->reset(journalPath, runId);
    m_shownRunId = runId;
    m_followed = other;
    // The steps so far (a chat's earlier turns), then what the run reports.
    Journal journal;
    if (journal.open(journalPath)) {
        const std::vector<Step> steps = journal.steps(runId);
        const QList<Step> known(steps.begin(), steps.end());
        if (!known.isEmpty()) {
            m_traceModel->applySteps(known);
            stepsUpdated(known, false);
        }
        m_console->appendOutput(1, journal.output(runId, 1));
        m_console->appendOutput(2, journal.output(runId, 2));
    }
    m_followSignals = {
        connect(other, &RunController::stepsUpdated, m_traceModel, &TraceModel::applySteps),
        connect(other, &RunController::policyEvent, m_traceModel, &TraceModel::addEvent),
        connect(other, &RunController::stepEvent, m_traceModel, &TraceModel::addEvent),
        connect(other, &RunController::stepsUpdated, this,
                [this](const QList<Step> &steps) { stepsUpdated(steps, false); }),
        connect(other, &RunController::outputReceived, m_console, &ConsoleView::appendOutput),
        connect(other, &QObject::destroyed, this, &RunViews::unfollow),
    };
}

QString RunViews::followedRun() const
{
    return m_followed ? m_shownRunId : QString();
}

void RunViews::unfollow()
{
    for (const QMetaObject::Connection &c : std::as_const(m_followSignals))
        disconnect(c);
    m_followSignals.clear();
    m_followed = nullptr;
}

void RunViews::empty()
{
    m_showsImportedRun = false;
    m_shownRunId.clear();
    m_traceModel->clear();
    m_liveSteps->reset();
    m_markedSequence = 0;
    m_stderr.clear();
    m_inspector->clear();
    m_console->clearOutput();
    m_pending->clear();
}

void RunViews::clear()
{
    unfollow();
    empty();
    m_budget->showLive(); // this project's limits; the last project's run no longer counts
}

void RunViews::forgetRuns(const QStringList &runIds)
{
    if (!m_shownRunId.isEmpty() && !m_run->isActive() && runIds.contains(m_shownRunId))
        clear();
}

void RunViews::runStarting()
{
    unfollow();
    empty();
    for (ScriptEditor *e : m_tabs->editors())
        e->clearTraceback();
    m_budget->runStarted();
}

void RunViews::runStarted(const QString &journalPath, const QString &runId)
{
    m_liveSteps->reset(journalPath, runId);
    m_markedSequence = 0;
    m_shownRunId = runId;
}

void RunViews::runEnded(const RunRecord &run)
{
    m_traceModel->flush();
    m_budget->runEnded();
    if (run.status != RunStatus::Failed)
        return;
    // The run executed a copy of the script under the same name: match by basename.
    if (ScriptEditor *e = m_tabs->editorFor(run.scriptPath)) {
        const QList<int> lines = e->markTraceback(QString::fromUtf8(m_stderr));
        if (!lines.isEmpty())
            e->ensureLineVisible(lines.last() - 1);
    }
}

void RunViews::showStep(const QString &callId)
{
    // A live or imported run: the store (kept steps, or the run's journal).
    if (const std::optional<Step> live = m_liveSteps->step(callId)) {
        m_inspector->setStep(&*live, m_traceModel->heldMs(live->sequence));
        return;
    }
    // A run opened from the journal: the whole step is read when it is shown.
    const std::optional<Step> step = m_traceModel->fullStep(callId);
    m_inspector->setStep(step ? &*step : nullptr, step ? m_traceModel->heldMs(step->sequence) : 0);
}

bool RunViews::showRun(const QString &runId)
{
    const Project *project = m_project();
    if (!project || m_run->isActive())
        return false;
    const QString journalPath = project->journalPath();
    Journal journal;
    if (!journal.open(journalPath)) {
        m_report(tr("Open Run"), journal.lastError());
        return false;
    }
    unfollow();
    // The trace reads the run's rows from the journal as they are shown (issue 8):
    // opening a million-step run loads none of its steps.
    m_liveSteps->reset();
    m_inspector->clear();
    QString error;
    const bool opened = m_traceModel->openRun(journalPath, runId, &error);
    m_console->clearOutput();
    m_console->appendNotice(tr("Run %1 from the journal").arg(runId));
    m_console->appendOutput(1, journal.output(runId, 1));
    m_console->appendOutput(2, journal.output(runId, 2));
    m_showsImportedRun = false;
    m_shownRunId = runId;
    if (const std::optional<RunRecord> record = journal.run(runId))
        m_budget->showRecorded(*record, journal.stepCount(runId), false);
    if (!opened)
        m_report(tr("Open Run"), error);
    return opened;
}

bool RunViews::importRun(QString path)
{
    if (m_run->isActive()) {
        m_report(tr("Import Run"), tr("Stop the run before importing another one."));
        return false;
    }
    if (path.isEmpty()) {
        const Project *project = m_project();
        path = QFileDialog::getOpenFileName(m_window, tr("Import Run"), project ? project->dir : QDir::homePath(),
                                            tr("Run JSON (*.json)"));
        if (path.isEmpty())
            return false;
    }
    QString error;
    const std::optional<TraceExport::ImportedRun> imported = TraceExport::readRunFile(path, &error);
    if (!imported) {
        m_report(tr("Import Run"),
                 tr("Cannot import the run: %1\nOnly run JSON exported by Tool Studio (format "
                    "\"toolstudio-run\", version 1) can be imported.")
                     .arg(error));
        return false;
    }
    unfollow();
    empty();
    m_liveSteps->setKeepAll(true); // no journal to read it from
    for (const Step &step : imported->steps) {
        m_traceModel->addStep(step);
        m_liveSteps->update(step);
    }
    m_traceModel->flush();
    m_console->appendNotice(
        tr("Run %1 imported from %2 (read-only)").arg(imported->run.id, QDir::toNativeSeparators(path)));
    m_console->appendOutput(1, imported->stdoutText);
    m_console->appendOutput(2, imported->stderrText);
    m_showsImportedRun = true;
    m_budget->showRecorded(imported->run, int(imported->steps.size()), true);
    Q_EMIT runImported(tr("Imported run %1: %2, %n step(s) (read-only)", nullptr, int(imported->steps.size()))
                           .arg(imported->run.id, TraceRowFormat::runStatusText(imported->run.status)));
    return true;
}
