// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcommands.h"

#include "consoleview.h"
#include "pendingcallspanel.h"
#include "project/printabletext.h"
#include "run/runcontroller.h"
#include "run/runstatustext.h"
#include "scripteditor.h"
#include "settings.h"
#include "theme.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include <utility>

RunCommands::RunCommands(RunController *run, Hooks hooks, QObject *parent)
    : QObject(parent)
    , m_run(run)
    , m_hooks(std::move(hooks))
{
    m_runAction = new QAction(Theme::icon("media-playback-start", "run"), tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_runAction->setStatusTip(tr("Save the script and run it in the sandbox (F5)"));
    connect(m_runAction, &QAction::triggered, this, &RunCommands::run);

    m_stopAction = new QAction(Theme::icon("media-playback-stop", "stop"), tr("S&top"), this);
    m_stopAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_stopAction->setStatusTip(tr("Stop the run: cancel its steps and kill the script (Shift+F5)"));
    connect(m_stopAction, &QAction::triggered, this, &RunCommands::stop);

    m_answerAction = new QAction(Theme::icon("mail-reply-sender", "answer"), tr("&Answer Pending Call…"), this);
    m_answerAction->setShortcut(QKeySequence(Qt::Key_F6));
    m_answerAction->setStatusTip(
        tr("Answer the oldest call that waits for a person, or show a call held by step mode (F6)"));
    connect(m_answerAction, &QAction::triggered, this, &RunCommands::answerPendingCall);
}

void RunCommands::attach(PendingCallsPanel *pending, QDockWidget *pendingDock, ConsoleView *console,
                         QStatusBar *statusBar)
{
    m_pending = pending;
    m_pendingDock = pendingDock;
    m_console = console;
    m_statusBar = statusBar;
    connect(m_run, &RunController::started, this, &RunCommands::onStarted);
    connect(m_run, &RunController::statusChanged, this, &RunCommands::onStatusChanged);
    connect(m_run, &RunController::pendingCallOpened, this, &RunCommands::onPendingCallOpened);
    connect(m_run, &RunController::stepPaused, this, &RunCommands::onStepPaused);
    connect(m_run, &RunController::pendingCallClosed, this, &RunCommands::onPendingCallClosed);
    connect(m_run, &RunController::finished, this, &RunCommands::onFinished);
}

const QList<Step> &RunCommands::pendingCalls() const
{
    return m_pending->pendingCalls();
}

bool RunCommands::run()
{
    const Project *project = m_hooks.project();
    if (!project || m_run->isActive())
        return false;
    const QString script = m_hooks.scriptPath();
    if (script.isEmpty()) {
        m_hooks.reportError(tr("Cannot Run"), tr("The project has no script to run."));
        return false;
    }
    if (!m_hooks.prepareRun() || waitForTools([this] { run(); }))
        return false;
    project = m_hooks.project(); // reloaded

    m_hooks.resetRunViews();

    QString error;
    m_run->setInterpreter(QStringLiteral("python"), Settings::instance()->pythonPath());
    m_run->setInterpreter(QStringLiteral("node"), Settings::instance()->nodePath());
    if (!m_run->start(*project, script, &error)) {
        m_hooks.setStatus(tr("Failed: %1").arg(error));
        m_console->appendNotice(tr("Could not start %1: %2").arg(QDir(project->dir).relativeFilePath(script), error));
        m_hooks.reportError(tr("Cannot Run"), error);
        m_hooks.updateActions();
        return false;
    }
    if (m_run->isActive())
        m_hooks.setStatus(tr("Running…"));
    m_hooks.updateActions();
    return true;
}

void RunCommands::stop()
{
    if (!m_run->isActive())
        return;
    m_hooks.setStatus(tr("Stopping…"));
    m_run->stop();
    m_hooks.updateActions();
}

void RunCommands::startFromJournal(const QString &runId, bool resume)
{
    const Project *project = m_hooks.project();
    if (!project || runId.isEmpty())
        return;
    // A resumed or replayed run calls the project's tools: it starts once they are loaded.
    if (waitForTools([this, runId, resume] { startFromJournal(runId, resume); }))
        return;
    startRunWith(resume ? tr("Cannot Resume") : tr("Cannot Replay"),
                 resume ? tr("Resuming %1…").arg(runId) : tr("Replaying %1…").arg(runId), [&](QString *error) {
                     return resume ? m_run->resume(*project, runId, error) : m_run->startReplay(*project, runId, error);
                 });
}

bool RunCommands::waitForTools(std::function<void()> start)
{
    if (!m_hooks.project()->pythonLoading)
        return false;
    m_whenToolsLoaded = std::move(start);
    m_hooks.setStatus(tr("Loading the Python tools… the run starts when they are loaded."));
    m_hooks.updateActions();
    return true;
}

void RunCommands::toolsLoaded()
{
    const Project *project = m_hooks.project();
    if (m_whenToolsLoaded && project && !project->pythonLoading)
        std::exchange(m_whenToolsLoaded, nullptr)();
}

bool RunCommands::startRunWith(const QString &failTitle, const QString &statusText,
                               const std::function<bool(QString *)> &start)
{
    if (!m_hooks.project() || m_run->isActive())
        return false;
    m_hooks.resetRunViews();
    QString error;
    if (!start(&error)) {
        m_hooks.setStatus(tr("Failed: %1").arg(error));
        m_hooks.reportError(failTitle, error);
        m_hooks.updateActions();
        return false;
    }
    if (m_run->isActive())
        m_hooks.setStatus(statusText);
    m_hooks.updateActions();
    return true;
}

void RunCommands::updateActions(bool serving)
{
    const Project *project = m_hooks.project();
    const bool active = m_run->isActive();
    const bool trusted = project && project->trusted;
    m_runAction->setEnabled(trusted && !active && !m_hooks.scriptPath().isEmpty());
    m_runAction->setToolTip(project && !trusted ? tr("The project is not trusted, so nothing of it runs: choose "
                                                     "Trust Project in the bar above the editor.")
                                                : QString()); // the default: its text
    m_stopAction->setEnabled(active);
    // A served call (File ▸ Serve Project) waits while no run of the window's own does.
    m_answerAction->setEnabled((active || serving) && m_pending && m_pending->openCount() > 0);
}

void RunCommands::onStarted(const QString &runId)
{
    const Project *project = m_hooks.project();
    const QString script
        = project ? QDir(project->dir).relativeFilePath(m_run->record().scriptPath) : m_run->record().scriptPath;
    m_console->appendNotice(tr("▶ Run %1 started: %2").arg(runId, script));
    m_hooks.runStarted(runId);
    m_hooks.setStatus(tr("Running…"));
    m_hooks.updateActions();
}

void RunCommands::onStatusChanged(RunStatus status)
{
    if (isFinal(status))
        return; // finished() says how it ended
    if (status == RunStatus::Waiting || !pendingCalls().isEmpty())
        m_hooks.setStatus(waitingText());
    else
        m_hooks.setStatus(tr("Running…"));
    m_hooks.updateActions();
}

QString RunCommands::waitingText() const
{
    return RunStatusText::waiting(pendingCalls());
}

void RunCommands::showPendingDock()
{
    m_pendingDock->show();
    m_pendingDock->raise();
}

void RunCommands::onPendingCallOpened(const Step &step)
{
    const bool first = pendingCalls().isEmpty();
    m_pending->callOpened(step);
    m_hooks.setStatus(waitingText());
    announce(step.callId,
             tr("#%1 %2 is waiting for an answer (Pending Calls dock, F6)")
                 .arg(step.sequence)
                 .arg(printableText(step.tool)));
    m_hooks.updateActions();
    // The first waiting call brings the dock (and its form) forward; typing in a
    // script is never interrupted.
    if (first) {
        showPendingDock();
        if (!qobject_cast<ScriptEditor *>(QApplication::focusWidget()))
            m_pending->focusAnswer();
    }
}

void RunCommands::onStepPaused(const Step &step)
{
    const bool first = m_pending->openCount() == 0;
    m_pending->callHeld(step);
    announce(step.callId,
             tr("Step mode: #%1 %2 is held before it runs").arg(step.sequence).arg(printableText(step.tool)));
    // The first held call brings the dock forward, as the first waiting call does.
    if (first)
        showPendingDock();
}

void RunCommands::announce(const QString &callId, const QString &message)
{
    m_announcedCall = callId;
    m_announced = message;
    m_statusBar->showMessage(message, 5000);
}

void RunCommands::onPendingCallClosed(const QString &callId)
{
    m_pending->callClosed(callId);
    // "…is waiting for an answer" no longer holds once answered (it stood over the
    // status for its 5 s: "Completed in 1.6 s" hidden behind it).
    if (callId == m_announcedCall && m_statusBar->currentMessage() == m_announced)
        m_statusBar->clearMessage();
    if (m_run->isActive())
        m_hooks.setStatus(pendingCalls().isEmpty() ? tr("Running…") : waitingText());
    m_hooks.updateActions();
}

void RunCommands::answerPendingCall()
{
    if (m_pending->openCount() == 0)
        return;
    const QString current = m_pending->currentCallId();
    const auto isCurrent = [&](const Step &s) { return s.callId == current; };
    const QList<Step> &held = m_pending->heldCalls();
    if (pendingCalls().isEmpty()) { // only calls held by step mode: show one, Continue focused
        const QString callId = std::any_of(held.begin(), held.end(), isCurrent) ? current : held.first().callId;
        if (!m_pending->selectCall(callId))
            return;
        showPendingDock();
        m_pending->continueButton()->setFocus();
        return;
    }
    const bool waiting = std::any_of(pendingCalls().begin(), pendingCalls().end(), isCurrent);
    showPendingCall(waiting ? current : pendingCalls().first().callId);
}

void RunCommands::showPendingCall(const QString &callId)
{
    if (!m_pending->selectCall(callId))
        return;
    showPendingDock();
    m_pending->focusAnswer();
}

void RunCommands::onFinished(const RunRecord &run)
{
    m_pending->runEnded();
    m_hooks.runEnded(run);
    const QString text = RunStatusText::finished(run);
    m_hooks.setStatus(text);
    m_console->appendNotice(tr("■ %1 (exit code %2)").arg(text).arg(run.exitCode));
    m_hooks.afterRunEnded();
    m_hooks.updateActions();
}

bool RunCommands::mayClose(QWidget *window)
{
    if (!m_run->isActive())
        return true;
    // Issue 20: a run waiting for a person is not lost by quitting — kept, it is
    // suspended and can be resumed later (its recorded steps memoized).
    QMessageBox box(QMessageBox::Question, tr("Run in Progress"),
                    m_run->record().status == RunStatus::Waiting
                        ? tr("The run is waiting for an answer. Keep it for later (resume it from the Runs "
                             "dock), or stop it?")
                        : tr("A run is in progress. Keep it for later (resume it from the Runs dock; its "
                             "recorded steps are memoized), or stop it?"),
                    QMessageBox::Cancel, window);
    box.setObjectName(QStringLiteral("quitWithRunBox"));
    QPushButton *keep = box.addButton(tr("&Keep for Later"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepRun"));
    QPushButton *stopRun = box.addButton(tr("&Stop Run"), QMessageBox::DestructiveRole);
    stopRun->setObjectName(QStringLiteral("stopRun"));
    box.setDefaultButton(keep);
    box.exec();
    if (box.clickedButton() == keep)
        m_run->detach();
    else if (box.clickedButton() == stopRun)
        m_run->stop();
    return box.clickedButton() == keep || box.clickedButton() == stopRun;
}
