// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "projectserving.h"

#include "mcpserversession.h"

#include "journal/journal.h"
#include "journal/journalwatch.h"
#include "mainwindow.h"
#include "pendinganswerintake.h"
#include "pendingcallspanel.h"
#include "project/printabletext.h"
#include "project/projecttrust.h"
#include "runspanel.h"
#include "runviews.h"
#include "servedstepmode.h"
#include "serveprojectdialog.h"
#include "stepmodeactions.h"
#include "studioserver.h"
#include "tracemodel.h"
#include "tracepanel.h"

#include <QAction>
#include <QLabel>
#include <QStatusBar>
#include <QTreeView>

#include <algorithm>

ProjectServing::ProjectServing(MainWindow *window)
    : QObject(window)
    , m_window(window)
{
    m_server = new StudioServer(this);
    m_action = new QAction(tr("Ser&ve Project…"), this);
    m_action->setObjectName(QStringLiteral("serveProjectAction"));
    m_action->setCheckable(true);
    m_action->setStatusTip(tr("Serve the open project over HTTP (programmatic API, pending calls, MCP); served "
                              "runs show here live"));
    connect(m_action, &QAction::triggered, this, [this](bool checked) {
        if (checked)
            openDialog();
        else
            stop();
    });
    m_label = new QLabel(window);
    m_label->setObjectName(QStringLiteral("serveAddress"));
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->hide();
    window->statusBar()->addPermanentWidget(m_label);
    m_watch = new JournalWatch(this);
    connect(m_watch, &JournalWatch::changed, this, &ProjectServing::poll);
    ServedStepMode *stepMode = m_server->stepMode();
    connect(stepMode, &ServedStepMode::callHeld, this, &ProjectServing::showHeldCall);
    connect(stepMode, &ServedStepMode::callReleased, this,
            [this](const QString &, const QString &callId) { m_window->pendingPanel()->heldCallReleased(callId); });
}

void ProjectServing::followStepMode(StepModeActions *actions)
{
    m_stepActions = actions;
    ServedStepMode *stepMode = m_server->stepMode();
    stepMode->setOn(actions->stepModeAction()->isChecked());
    connect(actions->stepModeAction(), &QAction::toggled, stepMode, [stepMode](bool on) {
        if (on)
            stepMode->setOn(true);
        else
            stepMode->continueToEnd(); // unchecking continues every held call, as for a run
    });
    connect(actions->continueToEndAction(), &QAction::triggered, stepMode, &ServedStepMode::continueToEnd);
}

void ProjectServing::showHeldCall(const QString &runId, const Step &step)
{
    PendingCallsPanel *panel = m_window->pendingPanel();
    const bool shown = std::any_of(panel->heldCalls().cbegin(), panel->heldCalls().cend(),
                                   [&](const Step &s) { return s.callId == step.callId; });
    if (shown)
        return;
    const bool first = panel->openCount() == 0;
    panel->servedCallHeld(
        step, runId,
        [this](const QString &run, const QString &callId, const ServedStepMode::Decision &decision, QString *reason) {
            return m_server->stepMode()->decide(run, callId, decision, reason);
        },
        true); // only MCP sessions' calls are held: the project's own tools
    m_window->setStatus(
        tr("Step mode: served call #%1 %2 is held before it runs").arg(step.sequence).arg(printableText(step.tool)));
    if (first && m_stepActions)
        m_stepActions->showHeldCall();
}

// The window's docks may be gone by now: StudioServer's destructor stops serving (and
// removes serve.json) without touching them. The window stops first when it closes.
ProjectServing::~ProjectServing() = default;

ServeProjectDialog *ProjectServing::dialog() const
{
    return m_dialog;
}

bool ProjectServing::isServing() const
{
    return m_server->isServing();
}

QString ProjectServing::url() const
{
    return m_server->url();
}

void ProjectServing::openDialog()
{
    if (!m_dialog) {
        m_dialog = new ServeProjectDialog(m_window);
        connect(m_dialog, &QDialog::accepted, this, [this] {
            if (!serve(m_dialog->port(), m_dialog->host(), m_dialog->tokenFile()))
                m_dialog->open(); // what was typed stays, to fix it
        });
        connect(m_dialog, &QDialog::rejected, this, &ProjectServing::updateAction);
    }
    m_dialog->open();
}

bool ProjectServing::serve(int port, const QString &host, const QString &tokenFile, QString *error)
{
    QString why;
    const Project *project = m_window->project();
    HttpServerConfig config;
    config.port = port;
    config.host = host.toStdString();
    if (!project) {
        why = tr("Open a project first.");
    } else if (const QString refusal = ProjectTrust::refusal(*project); !refusal.isEmpty()) {
        why = tr("The project is not served because it is not trusted: a served call runs its tools. %1").arg(refusal);
    } else if (!tokenFile.isEmpty()) {
        config.token = StudioServer::readToken(tokenFile, &why);
    }
    ProgrammaticLimits limits;
    if (why.isEmpty() && !m_server->start(*project, config, limits, &why)) {
        // The server's words name the CLI's options; here the dialog has fields.
        why.replace(QStringLiteral("choose another port with --port"), QStringLiteral("choose another port"));
        why.replace(QStringLiteral("choose --port 1024 or above"), QStringLiteral("choose a port of 1024 or above"));
        why = tr("Cannot serve %1: %2.").arg(project->name, why);
    }
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        m_window->reportError(tr("Serve Project"), why);
        updateAction();
        return false;
    }
    QString journalError;
    m_journal = std::make_unique<Journal>();
    if (!m_journal->open(project->journalPath(), &journalError))
        m_journal.reset(); // served all the same; the window just cannot follow the runs
    m_runsSignature.clear();
    m_traceSignature.clear();
    m_label->setText(tr("Serving on %1").arg(m_server->url()));
    m_label->setToolTip(StudioServer::noTlsWarning(host));
    m_label->show();
    m_watch->watch(project->journalPath(), PollMs);
    poll();
    m_window->setStatus(tr("Serving %1 on %2 (GET / lists the routes)").arg(project->name, m_server->url()));
    updateAction();
    return true;
}

void ProjectServing::projectReloaded()
{
    const Project *project = m_window->project();
    if (!m_server->isServing() || !project || project->dir != m_server->projectDir())
        return;
    if (project->pythonLoading)
        return; // reloaded again once the tool files are described
    if (const QString refusal = ProjectTrust::refusal(*project); !refusal.isEmpty()) {
        m_window->setStatus(
            tr("The served tools stay those before the change: the project is not trusted now. %1").arg(refusal));
        return;
    }
    m_server->setProject(*project);
}

void ProjectServing::stop()
{
    if (!m_server->isServing())
        return;
    m_watch->watch(QString());
    m_server->stop();
    m_journal.reset();
    for (const QString &callId : std::as_const(m_servedCalls))
        m_window->pendingPanel()->callClosed(callId);
    m_servedCalls.clear();
    m_label->hide();
    m_label->clear();
    updateAction();
}

void ProjectServing::updateAction()
{
    m_action->setChecked(m_server->isServing());
}

bool ProjectServing::answerServedCall(const QString &runId, const QString &callId, int attempt,
                                      const ManualAnswer &answer, QString *reason)
{
    const Project *project = m_window->project();
    if (!m_journal || !project) {
        *reason = tr("the project is no longer served");
        return false;
    }
    PendingAnswer pending;
    pending.runId = runId;
    pending.callId = callId;
    pending.attempt = attempt;
    pending.answer = answer;
    const PendingAnswerIntake::Submission submission = PendingAnswerIntake::submit(*m_journal, *project, pending);
    if (submission.id <= 0) {
        *reason = submission.reason;
        return false;
    }
    return true;
}

void ProjectServing::poll()
{
    if (!m_journal)
        return;
    const std::vector<RunRecord> runs = m_journal->runs();
    QString signature;
    QSet<QString> waiting;
    PendingCallsPanel *panel = m_window->pendingPanel();
    for (const RunRecord &run : runs) {
        signature += run.id + QLatin1Char(':') + runStatusName(run.status) + QLatin1Char(';');
        if (run.kind != RunKind::Served)
            continue;
        if (run.id == m_window->traceModel()->runId())
            followTrace(run);
        if (run.status != RunStatus::Running && run.status != RunStatus::Waiting)
            continue;
        for (const Step &step : m_journal->steps(run.id)) {
            if (step.status != StepStatus::Waiting || step.paused)
                continue;
            waiting.insert(step.callId);
            const bool shown = std::any_of(panel->pendingCalls().cbegin(), panel->pendingCalls().cend(),
                                           [&](const Step &s) { return s.callId == step.callId; });
            if (!shown)
                panel->servedCallOpened(
                    step, run.id,
                    [this](const QString &runId, const QString &callId, int attempt, const ManualAnswer &answer,
                           QString *reason) { return answerServedCall(runId, callId, attempt, answer, reason); },
                    McpServerSession::isSessionScript(run.scriptPath));
        }
    }
    for (const QString &callId : std::as_const(m_servedCalls)) {
        if (!waiting.contains(callId))
            panel->callClosed(callId);
    }
    // The dock forgets every call when a run of the window starts: held served calls
    // come back with the next poll.
    for (const auto &[runId, step] : m_server->stepMode()->heldCalls())
        showHeldCall(runId, step);
    m_servedCalls = waiting;
    if (signature != m_runsSignature) {
        m_runsSignature = signature;
        m_window->runsPanel()->refresh();
    }
}

void ProjectServing::followTrace(const RunRecord &run)
{
    TraceModel *trace = m_window->traceModel();
    if (!trace->isJournalBacked())
        return;
    QString signature = run.id + QLatin1Char(':') + runStatusName(run.status);
    for (const Step &step : m_journal->steps(run.id))
        signature
            += QStringLiteral(";%1:%2:%3").arg(step.callId, stepStatusName(step.status)).arg(step.attempts.size());
    if (std::exchange(m_traceSignature, signature) == signature)
        return;
    const QString selected = m_window->tracePanel()->view()->currentIndex().data(TraceModel::CallIdRole).toString();
    m_window->runViews()->showRun(run.id); // the trace and the console's output, as they are now
    if (!selected.isEmpty())
        m_window->tracePanel()->selectStep(selected);
}
