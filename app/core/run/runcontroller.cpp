// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runcontroller.h"

#include "bridgechannel.h"
#include "engine/replaysource.h"
#include "engine/stepbatcher.h"
#include "engine/stepengine.h"
#include "exchange/typings.h"
#include "journal/journal.h"
#include "outputpipes.h"
#include "project/printabletext.h"
#include "project/projecttrust.h"
#include "run/dirtree.h"
#include "run/runfolder.h"
#include "run/warmlauncher.h"
#include "run/workdirbudget.h"
#include "sandboxprocess.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMetaMethod>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

static void initRuntimeResources()
{
    Q_INIT_RESOURCE(runtime);
}

namespace {

constexpr std::size_t FrameSlackBytes = 64 * 1024; // envelope around a call's args
// Files the script leaves are kept with the run up to these caps (issue 3, "Run files").
constexpr int MaxOutputFiles = 100;
constexpr qint64 MaxOutputFileBytes = 64 * 1024 * 1024;
// Stop/timeout: how long the process group may take to be confirmed gone.
constexpr int KillConfirmRounds = 5; // × SandboxProcess::killGroup()'s ~1 s

QString makeRunId()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss")) + QLatin1Char('-')
        + QString::number(QRandomGenerator::global()->generate() & 0xffff, 16).rightJustified(4, QLatin1Char('0'));
}

bool copyTree(const QString &from, const QString &to, QString *error)
{
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info = it.fileInfo();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(path);
        if (info.isSymLink())
            continue; // never follow links out of the project
        if (info.isDir()) {
            if (!QDir().mkpath(target)) {
                *error = QObject::tr("cannot create %1").arg(target);
                return false;
            }
        } else if (!QFile::copy(path, target)) {
            *error = QObject::tr("cannot copy %1 into the run's work dir").arg(path);
            return false;
        }
    }
    return true;
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(data) != data.size()) {
        *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

/// Makes `dir` and everything below it readable (and dirs traversable) by every user.
void makeWorldReadable(const QString &dir)
{
    const auto dirPerms = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
        | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther;
    const auto filePerms
        = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
    QFile::setPermissions(dir, dirPerms);
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile::setPermissions(path, it.fileInfo().isDir() ? dirPerms : filePerms);
    }
}

} // namespace

class RunControllerState
{
public:
    RunController *q = nullptr;
    QString journalPath;
    bool journalPathSet = false;
    // The run thread (issue 4 item 8): the bridge channel, the engine (with its
    // handlers and batcher) and the journal live there, so a busy GUI thread never
    // delays a reply. Created and deleted on that thread; the GUI thread reaches them
    // only through onRunThread()/postToRunThread().
    QThread runThread;
    QObject *runContext = nullptr;     ///< lives on the run thread; parent of the run's objects
    std::unique_ptr<Journal> journal;  ///< opened, used and closed on the run thread
    StepEngine *engine = nullptr;      ///< run thread
    StepBatcher *batcher = nullptr;    ///< run thread, child of engine
    BridgeChannel *bridge = nullptr;   ///< run thread
    OutputPipes *output = nullptr;     ///< run thread: the script's stdout and stderr
    SandboxProcess *process = nullptr; ///< GUI thread (exit, policy events)
    /// The next run's pre-warmed launcher (docs/sandbox.md "Pre-warmed start").
    WarmLauncher warm;
    RunRecord record;
    bool active = false;
    bool waitQueued = false; ///< run thread: a wait hint is queued and no call came since
    int callsReceived = 0;   ///< run thread: calls the bridge read in this run (sent with a wait hint)
    bool ending = false;     ///< the script is gone, the run thread finishes the run (finishRun follows)
    bool stopRequested = false;
    bool timedOut = false;
    QString failure; ///< set when the studio ends the run (protocol error, limits)
    QString runDir;
    RunFolder folder; ///< runDir, locked; removed when the run ends (files-out/ kept until the next run)
    QString workDir;
    bool seccompOnlyAllowed = false;
    int landlockAbi = -1;
    RunFiles::Snapshot inputFiles; ///< the work dir as prepared, to tell what the script left
    WorkDirBudget diskBudget;      ///< limits.work_dir_mb while the script runs
    quint64 runSerial = 0;         ///< counts start()s: a late message of an earlier run is ignored
    QList<RunFile> outputFiles;    ///< filled on the run thread at the end of a run, read after finished()
    ProjectLimits limits;
    // The output caps: used on the run thread (onOutput), reset by start() before the
    // run's objects are made there.
    std::size_t outputBytes[3] = {0, 0, 0};
    bool outputTruncated[3] = {false, false, false};
    qint64 outputDropped[3] = {0, 0, 0}; ///< bytes past the cap read before the pipe discarded them

    // Run timeout, paused while a call waits for a person.
    QTimer runTimer;
    qint64 runBudgetMs = 0; ///< time left when the timer was last (re)started
    QElapsedTimer runClock;
    QElapsedTimer waitClock; ///< valid while the run clock is paused for a person
    qint64 waitTotalMs = 0;  ///< time spent waiting for a person, not counted

    // Durable steps (issue 5): what the next start() replays, and step mode.
    std::optional<ReplayPlan> nextPlan;
    QString nextRunId; ///< resume: the run keeps its id
    RunKind nextKind = RunKind::Run;
    QList<QPair<QString, QByteArray>> nextInputFiles; ///< prepareServed: written into the work dir
    QString nextSourceRun;
    QHash<QString, QString> interpreterOverrides; ///< "python"/"node" → path (Preferences)
    bool stepMode = false;

    /// Runs `f` on the run thread and waits for it. The run thread never waits for the
    /// GUI thread, so this cannot deadlock.
    template<typename F>
    void onRunThread(F &&f)
    {
        QMetaObject::invokeMethod(runContext, std::forward<F>(f), Qt::BlockingQueuedConnection);
    }
    /// Queues `f` on the run thread (in order with everything else queued there).
    template<typename F>
    void postToRunThread(F &&f)
    {
        QMetaObject::invokeMethod(runContext, std::forward<F>(f), Qt::QueuedConnection);
    }
    /// Journal write from the GUI thread: queued on the run thread.
    template<typename F>
    void journalWrite(F &&f)
    {
        if (Journal *j = journal.get())
            postToRunThread([j, f = std::forward<F>(f)] { f(j); });
    }

    /// Deletes the last run's bridge, engine and journal on the run thread.
    void tearDownRun()
    {
        onRunThread([this] {
            delete bridge;
            bridge = nullptr;
            delete output;
            output = nullptr;
            delete engine; // its batcher with it; pending journal writes go out first
            engine = nullptr;
            batcher = nullptr;
            journal.reset();
        });
    }

    QString journalPathFor(const Project &project) const
    {
        return journalPathSet ? journalPath : project.journalPath();
    }

    void setStatus(RunStatus status)
    {
        if (record.status == status || ending)
            return;
        record.status = status;
        journalWrite([run = record](Journal *j) { j->recordRun(run); });
        Q_EMIT q->statusChanged(status);
    }

    void pauseRunClock()
    {
        if (!runTimer.isActive())
            return;
        runBudgetMs = std::max<qint64>(0, runBudgetMs - runClock.elapsed());
        runTimer.stop();
        waitClock.start();
    }

    void resumeRunClock()
    {
        if (runTimer.isActive() || !active)
            return;
        if (waitClock.isValid()) {
            waitTotalMs += waitClock.elapsed();
            waitClock.invalidate();
        }
        runClock.restart();
        runTimer.start(int(std::min<qint64>(runBudgetMs, std::numeric_limits<int>::max())));
    }

    /// After a pending call closed or a held step was released: the run is running
    /// again (and its clock too) once no call waits for a person. Checked on the next
    /// turn of the event loop, because the engine signals a close while the step's
    /// status still says `waiting`.
    /// (Called on the run thread, which then tells the GUI thread.)
    void resumeWhenNobodyWaits()
    {
        StepEngine *e = engine;
        QTimer::singleShot(0, e, [this, e] {
            if (e->pendingCount() != 0 || e->pausedCount() != 0)
                return;
            QMetaObject::invokeMethod(
                q,
                [this] {
                    if (active && !ending) {
                        setStatus(RunStatus::Running);
                        resumeRunClock();
                    }
                },
                Qt::QueuedConnection);
        });
    }

    /// Script output, on the run thread (docs/trace.md "Console order"): capped at
    /// limits.outputBytes per stream (then a truncation notice, and nothing more),
    /// journaled, and queued in the batcher behind the steps that changed before it was
    /// read, so the views get steps and output in one order without ever waiting.
    void onOutput(int stream, const QByteArray &chunk)
    {
        if (outputTruncated[stream])
            return;
        QByteArray data = chunk;
        const std::size_t left = limits.outputBytes - outputBytes[stream];
        if (std::size_t(data.size()) >= left) {
            // Never half a character, also when this chunk ends inside one at the cap.
            const ClippedText clipped = clipUtf8Stream(data, qsizetype(left));
            if (std::size_t(data.size()) > left || clipped.dropped > 0) {
                outputDropped[stream] = clipped.dropped;
                data = clipped.kept;
                outputTruncated[stream] = true;
            }
        }
        outputBytes[stream] += std::size_t(data.size());
        if (!data.isEmpty()) {
            if (journal)
                journal->appendOutput(record.id, stream, data);
            batcher->addOutput(stream, data);
        }
        if (outputTruncated[stream]) {
            if (output) // the rest is dropped without being read into the studio (issue 16)
                output->discard(stream);
            const QByteArray notice = QObject::tr("\n[%1 truncated at %2 bytes; the rest was discarded]\n")
                                          .arg(stream == 1 ? QStringLiteral("stdout") : QStringLiteral("stderr"))
                                          .arg(outputBytes[stream])
                                          .toUtf8();
            batcher->addOutput(stream, notice);
        }
    }

    /// Ends the run from the studio's side (protocol error, timeout): kills the group.
    void abort(const QString &reason, bool isTimeout)
    {
        if (!active || ending || !failure.isEmpty() || stopRequested)
            return;
        failure = reason;
        timedOut = isTimeout;
        if (!killAndConfirm())
            failure += QObject::tr(" (some processes of the script's group could not be confirmed gone yet)");
        cancelCallsLater(reason);
    }

    /// Stop and the run timeout never wait for the run thread (issue 16): it may be
    /// validating a call or inside a handler. The script's group is killed at once by
    /// the caller; the calls are cancelled when the run thread gets here, queued before
    /// the run's end (onProcessFinished), so they end as "stopped", not "the script ended".
    void cancelCallsLater(const QString &reason)
    {
        StepEngine *e = engine;
        postToRunThread([e, reason] { e->cancelAll(reason); });
    }

    /// Kills the script's whole process group and confirms it is gone (also members
    /// that forked meanwhile; setsid/setpgid are refused by seccomp, so none can leave
    /// the group). False when some could not be confirmed gone after ~5 s.
    bool killAndConfirm()
    {
        if (!process)
            return true;
        for (int round = 0; round < KillConfirmRounds; ++round) {
            if (process->killGroup())
                return true;
        }
        return false;
    }

    /// Keeps what the script left in the work dir (new or changed regular files) in
    /// files-out/, within the caps, then removes the work dir. Returns the notice for
    /// stderr when some files were over the caps (else empty). On the run thread, once
    /// the script's group is gone (onProcessFinished).
    QByteArray keepOutputFilesAndRemoveWorkDir()
    {
        outputFiles.clear();
        if (diskBudget.exceeded()) { // over the run's disk limit: nothing is kept (the error says so)
            DirTree::remove(folder.fd(), "work");
            return {};
        }
        // Through the run folder's fd: a symlink put in its place meanwhile redirects
        // nothing, and a chain deeper than PATH_MAX hides no file (DirTree).
        const int workFd
            = folder.fd() < 0 ? -1 : ::openat(folder.fd(), "work", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (workFd < 0)
            return {};
        const RunFiles::Kept kept = RunFiles::keep(folder.fd(), workFd, inputFiles, MaxOutputFiles, MaxOutputFileBytes);
        ::close(workFd);
        outputFiles = kept.files;
        DirTree::remove(folder.fd(), "work");
        const int skipped = kept.skipped;
        const qint64 skippedBytes = kept.skippedBytes;
        const qint64 keptBytes = kept.keptBytes;
        const QString outDir = runDir + QStringLiteral("/files-out");
        if (skipped == 0)
            return {};
        return QObject::tr("\n[run files: kept %1 files (%2 bytes) in %3; %4 more files (%5 bytes) were "
                           "over the cap of %6 files / %7 MiB and were discarded]\n")
            .arg(outputFiles.size())
            .arg(keptBytes)
            .arg(outDir)
            .arg(skipped)
            .arg(skippedBytes)
            .arg(MaxOutputFiles)
            .arg(MaxOutputFileBytes / (1024 * 1024))
            .toUtf8();
    }

    void onProcessFinished(int exitCode, bool crashed, const QString &launcherFailure)
    {
        if (!active)
            return;
        runTimer.stop();
        diskBudget.stop();
        // Over the disk limit just as the script ended (before the kill got here): the
        // files are gone (keepOutputFilesAndRemoveWorkDir), so the run says why.
        if (diskBudget.exceeded() && failure.isEmpty() && !stopRequested && !timedOut)
            failure = diskBudget.message();
        if (waitClock.isValid()) { // the run ended while a call waited: that wait is over
            waitTotalMs += waitClock.elapsed();
            waitClock.invalidate();
        }
        // Whatever the script left behind in its group goes with it (background jobs);
        // the run is not cancelled/timed out until the group is confirmed gone.
        const bool groupGone = killAndConfirm();
        record.exitCode = crashed ? -1 : exitCode;
        record.endedAt = QDateTime::currentMSecsSinceEpoch();
        RunStatus status;
        if (stopRequested) {
            status = RunStatus::Cancelled;
            record.error = QObject::tr("stopped by the user; the script's process group was killed");
        } else if (timedOut) {
            status = RunStatus::TimedOut;
            record.error = failure;
        } else if (!launcherFailure.isEmpty()) {
            status = RunStatus::Failed;
            record.error = launcherFailure;
        } else if (!failure.isEmpty()) {
            status = RunStatus::Failed;
            record.error = failure;
        } else if (const auto memory = process->memoryLimit(); memory.oomKills > 0) {
            // The run's tasks together reached the run's memory bound (its memory
            // cgroup): the kernel killed one or more of them, whatever the script did next.
            status = RunStatus::Failed;
            record.error = QObject::tr("memory limit: the run's processes together reached the run's memory limit of "
                                       "%1 MiB (memory cgroup); the kernel killed %2 of them")
                               .arg(memory.bytes >> 20)
                               .arg(memory.oomKills);
        } else if (crashed && exitCode == SIGSYS) {
            status = RunStatus::Failed;
            record.error = QObject::tr("the script was killed by the sandbox (signal SIGSYS): it made a system call "
                                       "from a foreign architecture (x32 or int 0x80), or one that is not on the "
                                       "allow-list in the kill-on-unlisted mode");
        } else if (crashed && exitCode == SIGXCPU) {
            status = RunStatus::Failed;
            record.error = QObject::tr("the script used up its CPU time limit (RLIMIT_CPU) and was killed (SIGXCPU)");
        } else if (crashed && exitCode == SIGXFSZ) {
            status = RunStatus::Failed;
            record.error
                = QObject::tr("the script wrote past the file size limit (RLIMIT_FSIZE) and was killed (SIGXFSZ)");
        } else if (crashed) {
            status = RunStatus::Failed;
            record.error = QObject::tr("the script was killed by signal %1").arg(exitCode);
        } else if (exitCode != 0) {
            status = RunStatus::Failed;
            record.error = QObject::tr("the script exited with status %1").arg(exitCode);
        } else {
            status = RunStatus::Completed;
        }
        if (!groupGone) {
            // Not cancelled/timed out while something of it may still run.
            status = RunStatus::Failed;
            record.error += QObject::tr(" — some processes of the script's group could not be confirmed gone "
                                        "after %1 s; check with: ps -g %2")
                                .arg(KillConfirmRounds)
                                .arg(process->pid());
        }
        // The rest happens on the run thread, and the GUI thread does not wait for it
        // (file copies and the journal's commit take tens of ms, more on a busy disk):
        // the files the script left are kept, its folder emptied; what its group wrote
        // is all in the pipes now (its writers are gone) and is read in order behind the
        // steps; its last calls are cancelled (no step can be answered any more); the
        // final record is committed. Then finishRun() is queued behind everything the
        // views get (the last batches and output, the per-step signals), so they have
        // it all before finished(), and the record is in the journal for its readers.
        // Until then the status stays final: late Running/Waiting changes are ignored.
        ending = true;
        record.status = status;
        // Said at once: the run thread may still be busy (a long validation, a handler),
        // and the window need not wait for it to show that the run is over.
        Q_EMIT q->statusChanged(status);
        const QString ended = record.error.isEmpty() ? QObject::tr("the script ended") : record.error;
        postToRunThread([this, ended, run = record] {
            const QByteArray filesNotice = keepOutputFilesAndRemoveWorkDir();
            folder.keepOnly(QStringLiteral("files-out")); // the shims, script copy and policy go
            // Closing the read ends: a writer that outlived its group writes into EPIPE.
            if (output) {
                output->drain();
                for (const int stream : {OutputPipes::Stdout, OutputPipes::Stderr}) {
                    if (const qint64 dropped = outputDropped[stream] + output->discardedBytes(stream); dropped > 0)
                        batcher->addOutput(stream,
                                           QObject::tr("[%1: %2 more bytes past the cap were discarded]\n")
                                               .arg(stream == 1 ? QStringLiteral("stdout") : QStringLiteral("stderr"))
                                               .arg(dropped)
                                               .toUtf8());
                }
            }
            delete output;
            output = nullptr;
            if (bridge)
                bridge->close();
            engine->cancelAll(ended);
            if (!filesNotice.isEmpty())
                onOutput(2, filesNotice);
            batcher->flush();
            if (journal)
                journal->recordRun(run);
            QMetaObject::invokeMethod(
                q, [this] { finishRun(); }, Qt::QueuedConnection);
            if (journal)
                journal->checkpoint(); // the run is over: fold the WAL in
        });
    }

    /// The end of a run on the GUI thread, after onProcessFinished's work on the run
    /// thread and everything it sent to the views.
    void finishRun()
    {
        active = false;
        ending = false;
        Q_EMIT q->finished(record); // statusChanged went out in onProcessFinished
        // The next run's launcher, once those who wait for finished() had their turn.
        QTimer::singleShot(0, q, [this] {
            if (!active)
                warm.prepare(RunFolder::runsDir());
        });
    }
};

RunController::RunController(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<RunControllerState>())
{
    initRuntimeResources();
    d->q = this;
    d->runThread.setObjectName(QStringLiteral("toolstudio-run"));
    d->runThread.start();
    d->runContext = new QObject;
    d->runContext->moveToThread(&d->runThread);
    d->runTimer.setSingleShot(true);
    connect(&d->runTimer, &QTimer::timeout, this, [this] {
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
    d->tearDownRun();
    d->runContext->deleteLater(); // on the run thread, as its event loop ends
    d->runThread.quit();
    d->runThread.wait();
}

void RunController::setJournalPath(const QString &path)
{
    d->journalPath = path;
    d->journalPathSet = true;
}

QString RunController::interpreterFor(const QString &scriptPath)
{
    const QString suffix = QFileInfo(scriptPath).suffix().toLower();
    QStringList candidates;
    QString name;
    if (suffix == QLatin1String("py")) {
        candidates = {QStringLiteral("/usr/bin/python3")};
        name = QStringLiteral("python3");
    } else if (suffix == QLatin1String("sh") || suffix == QLatin1String("bash")) {
        candidates = {QStringLiteral("/bin/bash"), QStringLiteral("/usr/bin/bash")};
        name = QStringLiteral("bash");
    } else if (suffix == QLatin1String("js") || suffix == QLatin1String("cjs")) {
        candidates = {QStringLiteral("/usr/bin/node")};
        name = QStringLiteral("node");
    } else {
        return {};
    }
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo(candidate).isExecutable())
            return candidate;
    }
    return QStandardPaths::findExecutable(name);
}

void RunController::setInterpreter(const QString &language, const QString &path)
{
    d->interpreterOverrides.insert(language, path.trimmed());
}

bool RunController::start(const Project &project, const QString &scriptPath, QString *error)
{
    // Set by startReplay/resume/rerunFrom/startWithCassette for this start only.
    std::optional<ReplayPlan> plan = std::exchange(d->nextPlan, std::nullopt);
    const QString presetRunId = std::exchange(d->nextRunId, QString());
    const RunKind kind = std::exchange(d->nextKind, RunKind::Run);
    const QList<QPair<QString, QByteArray>> inputFiles = std::exchange(d->nextInputFiles, {});
    const QString sourceRun = std::exchange(d->nextSourceRun, QString());
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
    QString interpreter = interpreterFor(script);
    const QString suffix = QFileInfo(script).suffix().toLower();
    const QString language = suffix == QLatin1String("py")                  ? QStringLiteral("python")
        : (suffix == QLatin1String("js") || suffix == QLatin1String("cjs")) ? QStringLiteral("node")
                                                                            : QString();
    const QString chosen = d->interpreterOverrides.value(language);
    if (!language.isEmpty() && !chosen.isEmpty()) {
        const QFileInfo chosenInfo(chosen);
        if (!chosenInfo.isFile() || !chosenInfo.isExecutable()) {
            *error = tr("the %1 interpreter set in the preferences (%2) is not an executable file; "
                        "correct it, or clear it to use the default")
                         .arg(language, chosen);
            return false;
        }
        interpreter = chosenInfo.absoluteFilePath();
    }
    if (interpreter.isEmpty()) {
        const QString suffix = QFileInfo(script).suffix();
        *error = (suffix == QLatin1String("py") || suffix == QLatin1String("sh") || suffix == QLatin1String("js"))
            ? tr("no interpreter for %1 is installed (python3, bash or node)").arg(script)
            : tr("unknown script language for %1: use .py, .sh or .js").arg(script);
        return false;
    }

    // Journal.
    // Journal: opened on the run thread, which owns its SQLite connection.
    const QString journalPath = d->journalPathSet ? d->journalPath : project.journalPath();
    d->tearDownRun();
    if (!journalPath.isEmpty()) {
        QString journalError;
        d->onRunThread([this, &journalPath, &journalError] {
            auto journal = std::make_unique<Journal>();
            if (journal->open(journalPath, &journalError)) {
                // Step commits go to the journal's tail and into SQLite in groups every
                // 10 ms (docs/steps.md "The commit path"): this thread runs an event loop.
                journal->setGroupCommit(10);
                d->journal = std::move(journal);
            }
        });
        if (!d->journal) {
            *error = tr("cannot open the journal %1: %2").arg(journalPath, journalError);
            return false;
        }
    }

    // Run folder: work/ (the project's files/), runtime/ (shim + script); the policy goes as an fd.
    const QString runId = presetRunId.isEmpty() ? makeRunId() : presetRunId;
    const QString runsDir = RunFolder::runsDir(error);
    if (runsDir.isEmpty())
        return false;
    d->runDir = runsDir + QLatin1Char('/') + runId;
    // A pre-warmed launcher for the same interpreter and policy: its run folder becomes
    // this run's (renamed), and the script is handed over with go() below.
    // A model frame has its own cap (limits.model_request_bytes): the line bound takes
    // the larger when the project declares models; the engine checks each kind's own.
    const std::size_t maxLineBytes
        = (project.models.empty() ? project.limits.requestBytes
                                  : std::max(project.limits.requestBytes, project.limits.modelRequestBytes))
        + FrameSlackBytes;
    SandboxPolicy policy = runSandboxPolicy(d->runDir, interpreter, runId, project.limits, d->seccompOnlyAllowed);
    d->warm.remember(project.dir, interpreter, project.limits, d->seccompOnlyAllowed, maxLineBytes);
    std::unique_ptr<SandboxProcess> warm(d->warm.take(project.dir, policy, maxLineBytes, d->runDir, &d->folder));
    if (!warm && !d->folder.create(d->runDir, error))
        return false;
    // A run that does not start leaves no folder behind.
    auto removeFolder = qScopeGuard([this] { d->folder.remove(); });
    const QString workDir = d->runDir + QStringLiteral("/work");
    const QString runtimeDir = d->runDir + QStringLiteral("/runtime");
    const QString pythonDir = runtimeDir + QStringLiteral("/python");
    const QString nodeDir = runtimeDir + QStringLiteral("/node");
    if (!QDir().mkpath(workDir) || !QDir().mkpath(pythonDir + QStringLiteral("/toolstudio"))
        || !QDir().mkpath(pythonDir + QStringLiteral("/inngest_tools"))
        || !QDir().mkpath(nodeDir + QStringLiteral("/toolstudio"))
        || !QDir().mkpath(nodeDir + QStringLiteral("/inngest_tools"))
        || !QDir().mkpath(runtimeDir + QStringLiteral("/bash"))) {
        *error = tr("cannot create the run folder %1").arg(d->runDir);
        return false;
    }
    // Private to the studio's user and the sandbox user (the launcher hands it over as root).
    QFile::setPermissions(workDir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const QString filesDir = project.dir + QStringLiteral("/files");
    if (QFileInfo(filesDir).isDir() && !copyTree(filesDir, workDir, error))
        return false;
    for (const auto &[name, bytes] : inputFiles) {
        const QString path = workDir + QLatin1Char('/') + name;
        if (!QDir().mkpath(QFileInfo(path).path()) || !writeFile(path, bytes, error))
            return false;
    }
    const int workFd = ::openat(d->folder.fd(), "work", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (workFd < 0) {
        *error = tr("cannot open the work dir %1").arg(workDir);
        return false;
    }
    auto closeWork = qScopeGuard([workFd] { ::close(workFd); });
    if (warm)
        RunFiles::giveToOwner(workFd);
    // Every language's shim: runtime/{python,node,bash}/… from the :/runtime resources.
    QDirIterator shim(QStringLiteral(":/runtime"), QDir::Files, QDirIterator::Subdirectories);
    while (shim.hasNext()) {
        const QString resource = shim.next();
        QFile in(resource);
        in.open(QIODevice::ReadOnly);
        if (!writeFile(runtimeDir + resource.mid(int(qstrlen(":/runtime"))), in.readAll(), error))
            return false;
    }
    const QStringList bound = project.boundTools(script);
    nlohmann::json declared = nlohmann::json::object();
    for (const QString &name : bound) {
        nlohmann::json params = nlohmann::json::array();
        if (const Tool *tool = project.tool(name)) {
            for (const QString &param : tool->parameterOrder)
                params.push_back(param.toStdString());
        }
        declared[name.toStdString()] = params;
    }
    if (!writeFile(pythonDir + QStringLiteral("/toolstudio/_tools.json"), QByteArray::fromStdString(declared.dump()),
                   error)
        || !writeFile(nodeDir + QStringLiteral("/toolstudio/_tools.json"), QByteArray::fromStdString(declared.dump()),
                      error))
        return false;
    // Typings of the bound tools beside the shims, for editors (docs/python-tools.md "Typings").
    const std::vector<Tool> boundList = Typings::toolsOf(project, bound);
    if (!writeFile(pythonDir + QStringLiteral("/toolstudio/__init__.pyi"),
                   Typings::python(boundList, project.name).toUtf8(), error)
        || !writeFile(nodeDir + QStringLiteral("/toolstudio/index.d.ts"),
                      Typings::typescript(boundList, project.name).toUtf8(), error))
        return false;
    const QString scriptCopy = runtimeDir + QStringLiteral("/script/") + QFileInfo(script).fileName();
    QDir().mkpath(runtimeDir + QStringLiteral("/script"));
    if (!QFile::copy(script, scriptCopy)) {
        *error = tr("cannot copy %1 into the run folder").arg(script);
        return false;
    }
    // Readable by the sandbox user; others cannot reach it: the run folder is 0700, or
    // 0710 with the sandbox user's group as root (LaunchWorkDir::handOver).
    makeWorldReadable(runtimeDir);

    policy.argv.push_back(scriptCopy.toStdString());

    d->limits = project.limits;
    d->record = RunRecord{};
    d->record.id = runId;
    d->record.projectDir = project.dir;
    d->record.scriptPath = script;
    d->record.status = RunStatus::Running;
    d->record.startedAt = QDateTime::currentMSecsSinceEpoch();
    d->record.kind = kind;
    d->record.sourceRun = sourceRun;
    d->waitClock.invalidate();
    d->waitTotalMs = 0;
    d->stopRequested = false;
    d->ending = false;
    d->timedOut = false;
    d->workDir = workDir;
    d->inputFiles = RunFiles::snapshot(workFd);
    d->outputFiles.clear();
    d->landlockAbi = -1;
    d->failure.clear();
    std::fill(std::begin(d->outputBytes), std::end(d->outputBytes), 0);
    std::fill(std::begin(d->outputTruncated), std::end(d->outputTruncated), false);
    std::fill(std::begin(d->outputDropped), std::end(d->outputDropped), 0);

    delete d->process;
    // The pre-warmed launcher execs the script now (nothing it reports is read before
    // start() returns); one that died after it was found ready leaves the cold path.
    if (warm && !warm->go({policy.workDir, {policy.argv.back()}, policy.env}))
        warm.reset();
    const bool prewarmed = bool(warm);
    if (prewarmed)
        warm->setParent(this);
    d->process = prewarmed ? warm.release() : new SandboxProcess(this);

    connect(d->process, &SandboxProcess::policyEvent, this, [this](const SandboxPolicyEvent &refusal) {
        // A run-level policy event (sequence 0) of kind "sandbox_refused" in the
        // journal's policy_events table.
        PolicyEvent event;
        event.runId = d->record.id;
        event.at = refusal.time.toMSecsSinceEpoch();
        event.kind = refusal.total > 0 ? PolicyEventKind::SandboxRefusedSummary : PolicyEventKind::SandboxRefused;
        event.detail = {{"syscall", refusal.syscall.toStdString()},
                        {"arguments", refusal.arguments.toStdString()},
                        {"pid", refusal.pid},
                        {"errno", refusal.error},
                        {"errno_name", strerrorname_np(refusal.error) ? strerrorname_np(refusal.error) : ""},
                        {"text", refusal.describe().toStdString()}};
        if (refusal.total > 0) { // the listener's count (PolicyListener::RecordedPerSyscall)
            event.detail["count"] = refusal.total;
            event.detail["recorded"] = PolicyListener::RecordedPerSyscall;
        }
        d->journalWrite([event](Journal *j) { j->recordEvent(event); });
        Q_EMIT policyEvent(event);
    });
    const auto onLandlockApplied = [this](int abi) {
        d->landlockAbi = abi;
        PolicyEvent event;
        event.runId = d->record.id;
        event.at = QDateTime::currentMSecsSinceEpoch();
        event.kind = PolicyEventKind::SandboxApplied;
        // How the run's tasks are bounded: its own pids cgroup, run uid or user namespace,
        // or the shared RLIMIT_NPROC (ProcessIsolation).
        const SandboxProcess::ProcessLimit processes = d->process->processLimit();
        event.detail
            = {{"landlock_abi", abi},
               {"seccomp_only", abi == 0},
               {"process_limit", processes.mechanism.toStdString()},
               {"max_tasks", processes.maxTasks},
               {"pids_cgroup", processes.cgroup.toStdString()},
               {"process_limit_note",
                (processes.fallbackReason
                 + (processes.sharedReason.isEmpty() ? QString() : QStringLiteral("; ") + processes.sharedReason))
                    .toStdString()}};
        d->journalWrite([event](Journal *j) { j->recordEvent(event); });
        Q_EMIT sandboxApplied(abi);
    };
    connect(d->process, &SandboxProcess::landlockApplied, this, onLandlockApplied);
    connect(d->process, &SandboxProcess::finished, this,
            [this](int exitCode, bool crashed, const QString &launcherFailure) {
                d->onProcessFinished(exitCode, crashed, launcherFailure);
            });

    d->journalWrite([run = d->record](Journal *j) { j->recordRun(run); });

    QString startError;
    if (!prewarmed && !d->process->start(policy, maxLineBytes, &startError)) {
        d->record.status = RunStatus::Failed;
        d->record.error = startError;
        d->record.endedAt = QDateTime::currentMSecsSinceEpoch();
        d->journalWrite([run = d->record](Journal *j) { j->recordRun(run); });
        *error = tr("cannot start the sandbox: %1").arg(startError);
        return false;
    }
    if (prewarmed && d->process->landlockAbi() >= 0)
        onLandlockApplied(d->process->landlockAbi()); // reported while it was warming up

    // Calls are served on the run thread: the bridge's fd moves to a channel there,
    // next to the engine and the journal. The GUI thread gets batched step updates,
    // pending-call open/close, step-mode holds and divergences through queued signals.
    const int bridgeFd = d->process->bridge()->releaseFd();
    // So do the script's stdout and stderr pipes: output is ordered against the calls
    // there (docs/trace.md "Console order").
    const std::pair<int, int> outputFds = d->process->releaseOutputFds();
    // Per-step signals cross threads only for those who listen (headless, tests).
    const bool forwardAdded = isSignalConnected(QMetaMethod::fromSignal(&RunController::stepAdded));
    const bool forwardChanged = isSignalConnected(QMetaMethod::fromSignal(&RunController::stepChanged));
    const bool forwardWait = isSignalConnected(QMetaMethod::fromSignal(&RunController::scriptWaiting));
    d->onRunThread([&, this] {
        auto *engine = new StepEngine(project, runId, d->journal.get(), bound, d->runContext);
        d->engine = engine;
        d->waitQueued = false;
        d->callsReceived = 0;
        if (plan)
            engine->setReplayPlan(std::move(*plan));
        engine->setStepMode(d->stepMode);
        engine->setWorkDir(d->workDir);
        StepBatcher *batcher = new StepBatcher(engine, 16, engine);
        d->batcher = batcher;
        // One ordered feed: steps and output reach the GUI thread in the order the
        // batcher emits them (queued, same sender thread and receiver).
        connect(batcher, &StepBatcher::stepsUpdated, this, &RunController::stepsUpdated);
        connect(batcher, &StepBatcher::outputReady, this, &RunController::outputReceived);
        auto *output = new OutputPipes(outputFds.first, outputFds.second, d->runContext);
        d->output = output;
        connect(output, &OutputPipes::output, batcher,
                [this](int stream, const QByteArray &chunk) { d->onOutput(stream, chunk); });
        if (forwardAdded)
            connect(engine, &StepEngine::stepAdded, this, &RunController::stepAdded);
        if (forwardChanged)
            connect(engine, &StepEngine::stepChanged, this, &RunController::stepChanged);
        // The views learn of a step (batch) before they are told it waits or diverged.
        connect(engine, &StepEngine::pendingCallOpened, batcher, [this, batcher](const Step &step) {
            batcher->flush();
            QMetaObject::invokeMethod(
                this,
                [this, step] {
                    d->pauseRunClock();
                    d->setStatus(RunStatus::Waiting);
                    Q_EMIT pendingCallOpened(step);
                },
                Qt::QueuedConnection);
        });
        connect(engine, &StepEngine::pendingCallClosed, batcher, [this](const QString &callId) {
            d->resumeWhenNobodyWaits();
            QMetaObject::invokeMethod(
                this, [this, callId] { Q_EMIT pendingCallClosed(callId); }, Qt::QueuedConnection);
        });
        // Step mode: a held call waits for a person like a pending call does.
        connect(engine, &StepEngine::stepPaused, batcher, [this, batcher](const Step &step) {
            batcher->flush();
            QMetaObject::invokeMethod(
                this,
                [this, step] {
                    d->pauseRunClock();
                    d->setStatus(RunStatus::Waiting);
                    Q_EMIT stepPaused(step);
                },
                Qt::QueuedConnection);
        });
        connect(engine, &StepEngine::stepReleased, batcher, [this](const QString &) { d->resumeWhenNobodyWaits(); });
        // Retries, timeouts, step-mode decisions: rows of the live trace, after their step.
        connect(engine, &StepEngine::policyEvent, batcher, [this, batcher](const PolicyEvent &event) {
            batcher->flush();
            QMetaObject::invokeMethod(
                this, [this, event] { Q_EMIT stepEvent(event); }, Qt::QueuedConnection);
        });
        connect(engine, &StepEngine::divergenceFound, batcher, [this, batcher](const Step &step) {
            batcher->flush();
            QMetaObject::invokeMethod(
                this, [this, step] { Q_EMIT divergenceFound(step); }, Qt::QueuedConnection);
        });

        auto *bridge = new BridgeChannel(bridgeFd, maxLineBytes, d->runContext);
        d->bridge = bridge;
        // Output the script wrote before a call is in its pipes when the call arrives:
        // read it first, so it is queued before the call's step.
        connect(bridge, &BridgeChannel::callReceived, engine, [this, engine](const BridgeCall &call) {
            if (d->output) // deleted at the run's end, before the bridge closes
                d->output->drain();
            d->waitQueued = false;
            ++d->callsReceived;
            engine->submitCall(call);
        });
        // The script's wait hint (docs/bridge.md "The wait hint"), after the calls it
        // follows (queued in order with pendingCallOpened). Repeated hints with no call
        // between them are one: a script sending them in a loop costs the GUI thread
        // one event per call it makes or reply it gets.
        connect(bridge, &BridgeChannel::waitReceived, engine, [this, forwardWait] {
            if (d->waitQueued || !forwardWait)
                return;
            d->waitQueued = true;
            const int callsMade = d->callsReceived;
            QMetaObject::invokeMethod(
                this, [this, callsMade] { Q_EMIT scriptWaiting(callsMade); }, Qt::QueuedConnection);
        });
        connect(engine, &StepEngine::replyReady, bridge, [this, bridge](const std::string &, const std::string &line) {
            d->waitQueued = false;
            if (bridge->isOpen())
                bridge->send(line);
        });
        // A malformed call that still names its id (bad UTF-8 or a lone surrogate in a
        // string, a bad "args"): only that call fails; the run and its other calls go on.
        connect(bridge, &BridgeChannel::callRefused, bridge, [bridge](const std::string &id, const QString &reason) {
            StepError refusal;
            refusal.code = ErrorCode::ProtocolError;
            refusal.message = reason.toStdString();
            if (bridge->isOpen())
                bridge->send(BridgeProtocol::encodeError(id, refusal.toBridge()));
        });
        // The run ends at the first protocol error: its calls are cancelled here at once
        // (later lines are refused, as before the run thread), then the GUI thread
        // kills the script.
        connect(bridge, &BridgeChannel::protocolError, engine, [this, engine](const QString &reason) {
            const QString message = tr("protocol error on the tools bridge: %1").arg(reason);
            engine->cancelAll(message);
            QMetaObject::invokeMethod(
                this, [this, message] { d->abort(message, false); }, Qt::QueuedConnection);
        });
    });

    // The run's disk bound (docs/sandbox.md "Disk: bounded per run"): over it, the run
    // ends like at its timeout, with the budget's message.
    const quint64 serial = ++d->runSerial;
    d->diskBudget.start(workFd, project.limits.workDirBytes, [this, serial](const QString &message) {
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
    d->runBudgetMs = project.limits.runTimeoutMs;
    d->runClock.start();
    d->runTimer.start(project.limits.runTimeoutMs);
    Q_EMIT started(runId);
    Q_EMIT statusChanged(RunStatus::Running);
    return true;
}

void RunController::stop()
{
    if (!d->active || d->ending || d->stopRequested)
        return;
    d->stopRequested = true;
    d->runTimer.stop();
    d->killAndConfirm();
    d->cancelCallsLater(tr("the run was stopped"));
}

bool RunController::answer(const QString &callId, int attempt, const ManualAnswer &answer, QString *reason)
{
    if (!d->engine) {
        if (reason)
            *reason = tr("no run is active");
        return false;
    }
    bool accepted = false;
    d->onRunThread([&] { accepted = d->engine->answer(callId, attempt, answer, reason); });
    return accepted;
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
    return d->engine;
}

Journal *RunController::journal() const
{
    return d->journal.get();
}

// --- Durable steps (issue 5); see runcontroller.h and docs/steps.md ---

bool RunController::startReplay(const Project &project, const QString &runId, QString *error)
{
    QString local;
    error = error ? error : &local;
    const auto source = loadReplaySource(d->journalPathFor(project), runId, error);
    if (!source)
        return false;
    ReplayPlan plan;
    plan.steps = source->steps;
    d->nextPlan = std::move(plan);
    d->nextKind = RunKind::Replay;
    d->nextSourceRun = runId;
    return start(project, source->run.scriptPath, error);
}

bool RunController::resume(const Project &project, const QString &runId, QString *error)
{
    QString local;
    error = error ? error : &local;
    const auto source = loadReplaySource(d->journalPathFor(project), runId, error);
    if (!source)
        return false;
    if (source->run.status != RunStatus::Suspended) {
        *error = tr("run %1 is %2; only a suspended run can be resumed").arg(runId, runStatusName(source->run.status));
        return false;
    }
    {
        // The script runs again from its start and prints everything again.
        Journal journal;
        if (journal.open(d->journalPathFor(project))) {
            journal.clearOutput(runId);
            journal.recordEvent({runId,
                                 0,
                                 QDateTime::currentMSecsSinceEpoch(),
                                 PolicyEventKind::Resumed,
                                 {{"steps_recorded", source->steps.size()}}});
        }
    }
    ReplayPlan plan;
    plan.mode = ReplayPlan::Mode::Resume;
    plan.steps = source->steps;
    d->nextPlan = std::move(plan);
    d->nextRunId = runId;
    d->nextKind = source->run.kind;
    d->nextSourceRun = source->run.sourceRun;
    return start(project, source->run.scriptPath, error);
}

bool RunController::rerunFrom(const Project &project, const QString &runId, int sequence,
                              const std::optional<nlohmann::json> &editedArgs, QString *error)
{
    QString local;
    error = error ? error : &local;
    const auto source = loadReplaySource(d->journalPathFor(project), runId, error);
    if (!source)
        return false;
    if (sequence < 1 || sequence > int(source->steps.size())) {
        *error = tr("run %1 has no step %2 (it has %3)").arg(runId).arg(sequence).arg(source->steps.size());
        return false;
    }
    ReplayPlan plan;
    plan.mode = ReplayPlan::Mode::Rerun;
    plan.steps = source->steps;
    plan.rerunFrom = sequence;
    plan.editedArgs = editedArgs;
    d->nextPlan = std::move(plan);
    d->nextKind = RunKind::Rerun;
    d->nextSourceRun = runId;
    return start(project, source->run.scriptPath, error);
}

bool RunController::startWithCassette(const Project &project, const QString &cassettePath, const QString &scriptPath,
                                      QString *error)
{
    QString local;
    error = error ? error : &local;
    const auto source = loadCassette(cassettePath, error);
    if (!source)
        return false;
    ReplayPlan plan;
    plan.mode = ReplayPlan::Mode::Cassette;
    plan.offline = true;
    plan.steps = source->steps;
    d->nextPlan = std::move(plan);
    d->nextKind = RunKind::Cassette;
    d->nextSourceRun = source->run.id;
    return start(project, scriptPath.isEmpty() ? source->run.scriptPath : scriptPath, error);
}

bool RunController::saveCassette(const Project &project, const QString &runId, const QString &path, QString *error)
{
    QString local;
    error = error ? error : &local;
    const auto source = loadReplaySource(d->journalPathFor(project), runId, error);
    return source && ::saveCassette(*source, path, error);
}

void RunController::setStepMode(bool on)
{
    d->stepMode = on;
    if (d->engine && d->active)
        d->onRunThread([this, on] { d->engine->setStepMode(on); });
}

bool RunController::stepMode() const
{
    return d->stepMode;
}

namespace {

bool noRun(QString *reason)
{
    if (reason)
        *reason = RunController::tr("no run is active");
    return false;
}

} // namespace

void RunController::prepareServed(const QList<QPair<QString, QByteArray>> &files)
{
    d->nextKind = RunKind::Served;
    d->nextInputFiles = files;
}

bool RunController::continueStep(const QString &callId, QString *reason)
{
    if (!d->engine || !d->active)
        return noRun(reason);
    bool done = false;
    d->onRunThread([&] { done = d->engine->continueStep(callId, reason); });
    return done;
}

bool RunController::answerStep(const QString &callId, const ManualAnswer &answer, QString *reason)
{
    if (!d->engine || !d->active)
        return noRun(reason);
    bool done = false;
    d->onRunThread([&] { done = d->engine->answerStep(callId, answer, reason); });
    return done;
}

bool RunController::timeOutStep(const QString &callId, QString *reason)
{
    if (!d->engine || !d->active)
        return noRun(reason);
    bool done = false;
    d->onRunThread([&] { done = d->engine->timeOutStep(callId, reason); });
    return done;
}

void RunController::continueToEnd()
{
    d->stepMode = false;
    if (d->engine && d->active)
        d->onRunThread([this] { d->engine->continueToEnd(); });
}

bool RunController::retryNow(const QString &callId, QString *reason)
{
    if (!d->engine || !d->active)
        return noRun(reason);
    bool done = false;
    d->onRunThread([&] { done = d->engine->retryNow(callId, reason); });
    return done;
}

qint64 RunController::runClockMs() const
{
    const qint64 running = d->runTimer.isActive() ? d->runClock.elapsed() : 0;
    return std::max<qint64>(0, d->limits.runTimeoutMs - d->runBudgetMs + running);
}

qint64 RunController::waitClockMs() const
{
    return d->waitTotalMs + (d->waitClock.isValid() ? d->waitClock.elapsed() : 0);
}
