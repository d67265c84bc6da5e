// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runcontroller.h"

#include "bridgechannel.h"
#include "engine/replaysource.h"
#include "journal/journal.h"
#include "project/projecttrust.h"
#include "run/chatrun.h"
#include "run/runcontrollerstate.h"
#include "run/runfolder.h"
#include "run/runpreparation.h"
#include "run/runsession.h"
#include "sandboxprocess.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMetaMethod>
#include <QScopeGuard>

static void initRuntimeResources()
{
    Q_INIT_RESOURCE(runtime);
}

RunController::RunController(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<RunControllerState>(this))
{
    initRuntimeResources();
    connect(&d->clocks, &RunClocks::timedOut, this, [this] {
        d->abort(tr("the run timed out after %1 s (run timeout; time spent waiting for a person not counted); "
                    "the script's process group was killed")
                     .arg(d->limits.runTimeoutMs / 1000.0),
                 true);
    });
}

RunController::~RunController()
{
    if (d->active && d->process)
        d->process->killGroup();
    d->diskBudget.stop(); // its callback names this object
    d->diskBudget.wait();
    d->thread.tearDown(); // then the thread ends with the state
}

void RunController::setJournalPath(const QString &path)
{
    d->journalPath = path;
    d->journalPathSet = true;
}

QString RunController::interpreterFor(const QString &scriptPath)
{
    return Interpreters::defaultFor(scriptPath);
}

void RunController::setInterpreter(const QString &language, const QString &path)
{
    d->interpreters.setOverride(language, path);
}

bool RunController::start(const Project &project, const QString &scriptPath, QString *error)
{
    // A chat (docs/models.md "Chat") — new, resumed or replayed — runs the studio's chat
    // script against the project with the chat's input tool.
    if (ChatRun::isChatScript(project, scriptPath) && !project.tool(QString::fromLatin1(ChatRun::InputTool)))
        return start(ChatRun::projectFor(project), scriptPath, error);
    // Set by startReplay/resume/rerunFrom/startWithCassette/prepareServed for this start only.
    std::optional<DurableStart> durable = std::exchange(d->next, std::nullopt);
    const QList<QPair<QString, QByteArray>> inputFiles = std::exchange(d->nextInputFiles, {});
    const bool served = std::exchange(d->nextServed, false);
    const std::optional<QByteArray> program = std::exchange(d->nextProgram, std::nullopt);
    QString localError;
    if (!error)
        error = &localError;
    if (d->active) {
        *error = tr("a run is already active; stop it first");
        return false;
    }
    if (const QString refused = ProjectTrust::refusal(project); !refused.isEmpty()) {
        *error = refused; // every run, replay, resume and rerun starts here
        return false;
    }

    QString script = scriptPath.isEmpty() ? project.defaultScriptPath() : scriptPath;
    if (script.isEmpty()) {
        *error = tr("the project has no default script; name one");
        return false;
    }
    if (QFileInfo(script).isRelative())
        script = QDir(project.dir).absoluteFilePath(script);
    if (!QFileInfo(script).isFile()) {
        *error = tr("script not found: %1").arg(script);
        return false;
    }
    const QString interpreter = d->interpreters.resolve(script, error);
    if (interpreter.isEmpty())
        return false;

    // Journal: opened on the run thread, which owns its SQLite connection.
    const QString journalPath = d->journalPathFor(project);
    d->thread.tearDown();
    if (!journalPath.isEmpty()) {
        QString journalError;
        if (!d->thread.openJournal(journalPath, &journalError)) {
            *error = tr("cannot open the journal %1: %2").arg(journalPath, journalError);
            return false;
        }
    }

    // Run folder: work/ (the project's files/), runtime/ (shim + script); the policy goes as an fd.
    const QString runId = durable && !durable->runId.isEmpty() ? durable->runId : RunPreparation::makeRunId();
    const QString runsDir = RunFolder::runsDir(error);
    if (runsDir.isEmpty())
        return false;
    d->runDir = runsDir + QLatin1Char('/') + runId;
    // A pre-warmed launcher for the same interpreter and policy: its run folder becomes
    // this run's (renamed), and the script is handed over with go() below.
    const std::size_t maxLineBytes = RunPreparation::maxLineBytes(project);
    SandboxPolicy policy = runSandboxPolicy(d->runDir, interpreter, runId, project.limits, d->seccompOnlyAllowed);
    d->warm.remember(project.dir, interpreter, project.limits, d->seccompOnlyAllowed, maxLineBytes);
    std::unique_ptr<SandboxProcess> warm(d->warm.take(project.dir, policy, maxLineBytes, d->runDir, &d->folder));
    if (!warm && !d->folder.create(d->runDir, error))
        return false;
    // A run that does not start leaves no folder behind.
    auto removeFolder = qScopeGuard([this] { d->folder.remove(); });
    RunPreparation preparation(project, script, d->runDir);
    if (program)
        preparation.setScriptBytes(*program);
    if (!preparation.prepare(d->folder.fd(), bool(warm), inputFiles, error))
        return false;
    policy.argv.push_back(preparation.scriptCopy().toStdString());

    d->limits = project.limits;
    d->record = RunRecord{};
    d->record.id = runId;
    d->record.projectDir = project.dir;
    d->record.scriptPath = script;
    d->record.status = RunStatus::Running;
    d->record.startedAt = QDateTime::currentMSecsSinceEpoch();
    d->record.kind = served                                     ? RunKind::Served
        : durable                                               ? durable->kind
        : project.tool(QString::fromLatin1(ChatRun::InputTool)) ? RunKind::Chat
                                                                : RunKind::Run;
    d->record.sourceRun = durable ? durable->sourceRun : QString();
    d->clocks.reset();
    d->stopRequested = false;
    d->ending = false;
    d->timedOut = false;
    d->inputFiles = RunFiles::snapshot(preparation.workFd());
    d->outputFiles.clear();
    d->landlockAbi = -1;
    d->failure.clear();

    delete d->process;
    // The pre-warmed launcher execs the script now (nothing it reports is read before
    // start() returns); one that died after it was found ready leaves the cold path.
    if (warm && !warm->go({policy.workDir, {policy.argv.back()}, policy.env}))
        warm.reset();
    const bool prewarmed = bool(warm);
    if (prewarmed)
        warm->setParent(this);
    d->process = prewarmed ? warm.release() : new SandboxProcess(this);
    d->connectProcess();

    d->thread.journalWrite([run = d->record](Journal *j) { j->recordRun(run); });

    QString startError;
    if (!prewarmed && !d->process->start(policy, maxLineBytes, &startError)) {
        d->record.status = RunStatus::Failed;
        d->record.error = startError;
        d->record.endedAt = QDateTime::currentMSecsSinceEpoch();
        d->thread.journalWrite([run = d->record](Journal *j) { j->recordRun(run); });
        *error = tr("cannot start the sandbox: %1").arg(startError);
        return false;
    }
    if (prewarmed && d->process->landlockAbi() >= 0)
        d->onLandlockApplied(d->process->landlockAbi()); // reported while it was warming up

    // Calls are served on the run thread: the bridge's fd moves to the run's session
    // there, next to the engine and the journal; so do the script's stdout and stderr
    // pipes, so output is ordered against the calls (docs/trace.md "Console order").
    RunSession::Setup setup;
    setup.project = &project;
    setup.runId = runId;
    setup.journal = d->thread.journal();
    setup.boundTools = preparation.boundTools();
    if (durable)
        setup.plan = std::move(durable->plan);
    setup.stepMode = d->stepMode;
    setup.approvesToolCalls = d->approvesToolCalls;
    setup.workDir = preparation.workDir();
    setup.bridgeFd = d->process->bridge()->releaseFd();
    setup.outputFds = d->process->releaseOutputFds();
    setup.maxLineBytes = maxLineBytes;
    setup.outputCapBytes = project.limits.outputBytes;
    // Per-step signals cross threads only for those who listen (headless, tests).
    setup.forwardSteps = isSignalConnected(QMetaMethod::fromSignal(&RunController::stepAdded));
    setup.forwardChanges = isSignalConnected(QMetaMethod::fromSignal(&RunController::stepChanged));
    setup.forwardWait = isSignalConnected(QMetaMethod::fromSignal(&RunController::scriptWaiting));
    d->thread.startSession(std::move(setup), [this](RunSession *session) { d->connectSession(session); });

    // The run's disk bound (docs/sandbox.md "Disk: bounded per run"): over it, the run
    // ends like at its timeout, with the budget's message.
    const quint64 serial = ++d->runSerial;
    d->diskBudget.start(preparation.workFd(), project.limits.workDirBytes, [this, serial](const QString &message) {
        QMetaObject::invokeMethod(
            this,
            [this, serial, message] {
                if (d->runSerial == serial)
                    d->abort(message, false);
            },
            Qt::QueuedConnection);
    });
    removeFolder.dismiss();
    d->active = true;
    d->clocks.start(project.limits.runTimeoutMs);
    Q_EMIT started(runId);
    Q_EMIT statusChanged(RunStatus::Running);
    return true;
}

void RunController::stop()
{
    if (!d->active || d->ending || d->stopRequested || d->detached)
        return;
    d->stopRequested = true;
    d->clocks.stop();
    d->killAndConfirm();
    d->cancelCallsLater(tr("the run was stopped"));
}

void RunController::detach()
{
    if (!d->active || d->ending || d->stopRequested)
        return;
    d->detached = true;
    d->clocks.stop();
    if (d->process)
        d->process->killGroup();
}

void RunController::suspend()
{
    if (!d->active || d->ending || d->stopRequested || d->detached)
        return;
    detach();
    // Behind the run's last writes on the run thread.
    RunRecord kept = d->record;
    kept.status = RunStatus::Suspended;
    kept.error = tr("kept for later; Resume replays it");
    d->thread.journalWrite([kept](Journal *j) {
        j->recordRun(kept);
        j->recordEvent({kept.id,
                        0,
                        QDateTime::currentMSecsSinceEpoch(),
                        PolicyEventKind::Suspended,
                        {{"reason", "kept for later"}}});
    });
}

void RunController::answer(const QString &callId, int attempt, const ManualAnswer &answer, QObject *context,
                           Outcome done)
{
    d->thread.postDecision(
        true, [=](StepEngine *e, QString *reason) { return e->answer(callId, attempt, answer, reason); }, context,
        std::move(done));
}

bool RunController::answerAndWait(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason)
{
    return d->thread.decideAndWait(
        true, [&](StepEngine *e, QString *why) { return e->answer(callId, attempt, answer, why); }, reason);
}

void RunController::continueStep(const QString &callId, QObject *context, Outcome done)
{
    d->thread.postDecision(
        d->active, [=](StepEngine *e, QString *reason) { return e->continueStep(callId, reason); }, context,
        std::move(done));
}

void RunController::continueStepWith(const QString &callId, const nlohmann::json &args, QObject *context, Outcome done)
{
    d->thread.postDecision(
        d->active, [=](StepEngine *e, QString *reason) { return e->continueStepWith(callId, args, reason); }, context,
        std::move(done));
}

bool RunController::continueStepAndWait(const QString &callId, QString *reason)
{
    return d->thread.decideAndWait(
        d->active, [&](StepEngine *e, QString *why) { return e->continueStep(callId, why); }, reason);
}

void RunController::answerStep(const QString &callId, const ManualAnswer &answer, QObject *context, Outcome done)
{
    d->thread.postDecision(
        d->active, [=](StepEngine *e, QString *reason) { return e->answerStep(callId, answer, reason); }, context,
        std::move(done));
}

bool RunController::answerStepAndWait(const QString &callId, const ManualAnswer &answer, QString *reason)
{
    return d->thread.decideAndWait(
        d->active, [&](StepEngine *e, QString *why) { return e->answerStep(callId, answer, why); }, reason);
}

void RunController::timeOutStep(const QString &callId, QObject *context, Outcome done)
{
    d->thread.postDecision(
        d->active, [=](StepEngine *e, QString *reason) { return e->timeOutStep(callId, reason); }, context,
        std::move(done));
}

bool RunController::timeOutStepAndWait(const QString &callId, QString *reason)
{
    return d->thread.decideAndWait(
        d->active, [&](StepEngine *e, QString *why) { return e->timeOutStep(callId, why); }, reason);
}

void RunController::retryNow(const QString &callId, QObject *context, Outcome done)
{
    d->thread.postDecision(
        d->active, [=](StepEngine *e, QString *reason) { return e->retryNow(callId, reason); }, context,
        std::move(done));
}

void RunController::setSeccompOnlyAllowed(bool allowed)
{
    d->seccompOnlyAllowed = allowed;
}

WarmLauncher *RunController::warmLauncher() const
{
    return &d->warm;
}

int RunController::landlockAbi() const
{
    return d->landlockAbi;
}

QList<RunFile> RunController::outputFiles() const
{
    return d->outputFiles;
}

QString RunController::outputFilesDir() const
{
    return d->runDir.isEmpty() ? QString() : d->runDir + QStringLiteral("/files-out");
}

bool RunController::isActive() const
{
    return d->active;
}

RunStatus RunController::status() const
{
    return d->record.status;
}

const RunRecord &RunController::record() const
{
    return d->record;
}

StepEngine *RunController::engine() const
{
    return d->thread.session() ? d->thread.session()->engine() : nullptr;
}

Journal *RunController::journal() const
{
    return d->thread.journal();
}

// --- Durable steps (issue 5); see runcontroller.h and docs/steps.md ---

namespace {

/// Starts what `next` plans (nothing when it is empty: its factory set `error`), with
/// `scriptPath`, else the script the recorded run ran. start() takes `next` over, so
/// the path is copied first.
bool startNext(RunController &controller, const std::optional<DurableStart> &next, const Project &project,
               const QString &scriptPath, QString *error)
{
    if (!next)
        return false;
    const QString script = scriptPath.isEmpty() ? next->scriptPath : scriptPath;
    return controller.start(project, script, error);
}

} // namespace

bool RunController::startReplay(const Project &project, const QString &runId, QString *error)
{
    QString local;
    error = error ? error : &local;
    d->next = DurableStart::replay(d->journalPathFor(project), runId, error);
    return startNext(*this, d->next, project, {}, error);
}

bool RunController::resume(const Project &project, const QString &runId, QString *error)
{
    QString local;
    error = error ? error : &local;
    d->next = DurableStart::resume(d->journalPathFor(project), runId, error);
    return startNext(*this, d->next, project, {}, error);
}

bool RunController::rerunFrom(const Project &project, const QString &runId, int sequence,
                              const std::optional<nlohmann::json> &editedArgs, QString *error)
{
    QString local;
    error = error ? error : &local;
    d->next = DurableStart::rerun(d->journalPathFor(project), project, runId, sequence, editedArgs, error);
    return startNext(*this, d->next, project, {}, error);
}

bool RunController::startWithCassette(const Project &project, const QString &cassettePath, const QString &scriptPath,
                                      QString *error)
{
    QString local;
    error = error ? error : &local;
    d->next = DurableStart::cassette(cassettePath, error);
    return startNext(*this, d->next, project, scriptPath, error);
}

bool RunController::saveCassette(const Project &project, const QString &runId, const QString &path, QString *error)
{
    QString local;
    error = error ? error : &local;
    auto source = loadReplaySource(d->journalPathFor(project), runId, error);
    if (!source)
        return false;
    // A script inside the project is kept relative to it, so the cassette still names it
    // when the project is copied or moved (the model-agent example ships one).
    if (const QString relative = QDir(project.dir).relativeFilePath(source->run.scriptPath);
        !source->run.scriptPath.isEmpty() && !relative.startsWith(QLatin1String("../")))
        source->run.scriptPath = relative;
    return ::saveCassette(*source, path, error);
}

void RunController::prepareServed(const QList<QPair<QString, QByteArray>> &files,
                                  const std::optional<QByteArray> &program)
{
    d->nextServed = true;
    d->nextInputFiles = files;
    d->nextProgram = program;
}

void RunController::setStepMode(bool on)
{
    d->stepMode = on;
    if (RunSession *session = d->thread.session(); session && d->active)
        d->thread.post([session, on] { session->engine()->setStepMode(on); });
}

bool RunController::stepMode() const
{
    return d->stepMode;
}

void RunController::setApprovesToolCalls(bool on)
{
    d->approvesToolCalls = on;
    if (RunSession *session = d->thread.session(); session && d->active)
        d->thread.post([session, on] { session->engine()->setApprovesToolCalls(on); });
}

bool RunController::approvesToolCalls() const
{
    return d->approvesToolCalls;
}

void RunController::continueToEnd()
{
    d->stepMode = false;
    if (RunSession *session = d->thread.session(); session && d->active)
        d->thread.post([session] { session->engine()->continueToEnd(); });
}

qint64 RunController::runClockMs() const
{
    return d->clocks.runClockMs();
}

qint64 RunController::waitClockMs() const
{
    return d->clocks.waitClockMs();
}
