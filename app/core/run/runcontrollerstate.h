// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "journal/journal.h"
#include "project/project.h"
#include "project/step.h"
#include "run/durablestart.h"
#include "run/interpreters.h"
#include "run/runclocks.h"
#include "run/runcontroller.h"
#include "run/runend.h"
#include "run/runfiles.h"
#include "run/runfolder.h"
#include "run/runsession.h"
#include "run/runthread.h"
#include "run/warmlauncher.h"
#include "run/workdirbudget.h"
#include "sandboxprocess.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

/// RunController's state, and the run's events on the controller's (GUI or main)
/// thread: its status, the sandbox's reports, the script's exit and the run's end
/// (RunEnd), the feed from the run thread's RunSession. Private to RunController.
class RunControllerState
{
public:
    explicit RunControllerState(RunController *controller)
        : q(controller)
        , thread(controller)
    {}

    RunController *q = nullptr;
    QString journalPath;
    bool journalPathSet = false;
    // The run thread (issue 4 item 8): the run's session (bridge channel, engine with
    // its handlers and batcher, output pipes) and the journal live there, so a busy GUI
    // thread never delays a reply.
    RunThread thread;
    SandboxProcess *process = nullptr; ///< GUI thread (exit, policy events)
    /// The next run's pre-warmed launcher (docs/sandbox.md "Pre-warmed start").
    WarmLauncher warm;
    Interpreters interpreters;
    RunClocks clocks; ///< the run timeout, paused while a call waits for a person
    RunRecord record;
    bool active = false;
    bool ending = false; ///< the script is gone, the run thread finishes the run (finishRun follows)
    bool stopRequested = false;
    bool detached = false; ///< detach(): the run is left live in the journal, nothing more recorded
    bool timedOut = false;
    QString failure; ///< set when the studio ends the run (protocol error, limits)
    QString runDir;
    RunFolder folder; ///< runDir, locked; removed when the run ends (files-out/ kept until the next run)
    bool seccompOnlyAllowed = false;
    int landlockAbi = -1;
    RunFiles::Snapshot inputFiles; ///< the work dir as prepared, to tell what the script left
    WorkDirBudget diskBudget;      ///< limits.work_dir_mb while the script runs
    quint64 runSerial = 0;         ///< counts start()s: a late message of an earlier run is ignored
    QList<RunFile> outputFiles;    ///< filled on the run thread at the end of a run, read after finished()
    ProjectLimits limits;

    // Durable steps (issue 5): what the next start() replays, and step mode.
    std::optional<DurableStart> next;
    QList<QPair<QString, QByteArray>> nextInputFiles; ///< prepareServed: written into the work dir
    std::optional<QByteArray> nextProgram;            ///< prepareServed: the script's bytes
    bool nextServed = false;
    bool stepMode = false;
    bool approvesToolCalls = false;

    QString journalPathFor(const Project &project) const
    {
        return journalPathSet ? journalPath : project.journalPath();
    }

    void setStatus(RunStatus status)
    {
        if (record.status == status || ending)
            return;
        // Running <-> waiting only: the run thread's engine writes it to the journal with
        // the commit of the step that made the change (StepEngine::setRecordsRunStatus).
        record.status = status;
        Q_EMIT q->statusChanged(status);
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
        RunSession *s = thread.session();
        thread.post([s, reason] { s->engine()->cancelAll(reason); });
    }

    /// Kills the script's whole process group and confirms it is gone (also members
    /// that forked meanwhile; setsid/setpgid are refused by seccomp, so none can leave
    /// the group). False when some could not be confirmed gone after ~5 s.
    bool killAndConfirm()
    {
        if (!process)
            return true;
        for (int round = 0; round < RunEnd::KillConfirmRounds; ++round) {
            if (process->killGroup())
                return true;
        }
        return false;
    }

    void connectSession(RunSession *s);
    void connectProcess();
    void onLandlockApplied(int abi);
    void onProcessFinished(int exitCode, bool crashed, const QString &launcherFailure);
    void finishRun();
};
