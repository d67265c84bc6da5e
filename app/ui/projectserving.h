// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

#include <memory>

class Journal;
class JournalWatch;
class MainWindow;
class QAction;
class QLabel;
class QTimer;
class ServeProjectDialog;
class StepModeActions;
class StudioServer;

/// *File ▸ Serve Project…* (issue 22; docs/server.md "Serving from the window"): the
/// window serves its open project as `toolstudio serve` does (StudioServer: the routes
/// and serve.json), shows the address in the status bar while it serves, and stops when
/// asked (the action unchecked), when another project opens or when the window closes.
/// An untrusted project is not served. While it serves, the served runs show live: the
/// journal is read when it changed (JournalWatch's PRAGMA data_version, every PollMs;
/// a quiet journal costs the GUI thread one pragma) — the Runs dock follows the runs, the trace follows the
/// served run it shows, and a served call waiting for a person joins Pending Calls, where
/// an answer goes through the journal (PendingAnswerIntake, as `toolstudio answer` and
/// `POST /v1/runs/{run}/calls/{id}` do); the client's later result for that call is then
/// refused (409 already_ended). With Step Mode on, the served MCP sessions' calls are
/// held (StudioServer::stepMode) and decided in Pending Calls like a run's held calls.
class ProjectServing : public QObject
{
    Q_OBJECT
public:
    static constexpr int PollMs = 250;

    explicit ProjectServing(MainWindow *window);
    ~ProjectServing() override;

    /// The checkable File menu action: checking opens the dialog, unchecking stops.
    QAction *serveAction() const { return m_action; }
    /// The permanent status bar label, "Serving on http://127.0.0.1:3112"; hidden when not serving.
    QLabel *addressLabel() const { return m_label; }
    /// The dialog the action opened last; nullptr before.
    ServeProjectDialog *dialog() const;

    /// Serves the open project on `host`:`port` (a token read from `tokenFile` when not
    /// empty). False with the reason reported to the person (and in `error`): no project,
    /// an untrusted one, a host that needs a token, a port in use, ….
    bool serve(int port, const QString &host, const QString &tokenFile, QString *error = nullptr);
    /// Stops serving (serve.json removed). Nothing when not serving.
    void stop();
    bool isServing() const;
    /// "http://127.0.0.1:3112"; empty when not serving.
    QString url() const;
    /// The window loaded its project again (the manifest changed): the served MCP sessions
    /// serve its tools from now on (StudioServer::setProject, as `toolstudio serve` does).
    /// A project that is no longer trusted, or whose Python tool files are still loading,
    /// is not handed over: the tools before the change stay served (the status says why).
    void projectReloaded();
    /// Reads the journal now for the served runs (done whenever it changed).
    void poll();
    /// Step Mode (F10) and Continue to End (F8) of the window hold and release the served
    /// MCP sessions' calls too (docs/server.md "Step mode for served calls"): a held call
    /// joins Pending Calls and is decided there, in this process.
    void followStepMode(StepModeActions *actions);

private:
    void openDialog();
    void updateAction();
    bool answerServedCall(const QString &runId, const QString &callId, int attempt, const ManualAnswer &answer,
                          QString *reason);
    /// Shows the held served call `step` of `runId` in Pending Calls (once).
    void showHeldCall(const QString &runId, const Step &step);
    /// Re-reads the trace when it shows served run `runId` and its steps changed.
    void followTrace(const RunRecord &run);

    MainWindow *m_window;
    StudioServer *m_server = nullptr;
    QAction *m_action = nullptr;
    QLabel *m_label = nullptr;
    JournalWatch *m_watch = nullptr; ///< polls only after another connection committed
    QPointer<ServeProjectDialog> m_dialog;
    std::unique_ptr<Journal> m_journal;
    QString m_runsSignature;     ///< the runs' ids and statuses last seen (the Runs dock follows a change)
    QString m_traceSignature;    ///< the shown served run's steps last seen
    QSet<QString> m_servedCalls; ///< served calls shown in Pending Calls
    StepModeActions *m_stepActions = nullptr;
};
