// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class MainWindow;
class QAction;
class QMenu;
class QPushButton;
class QWidget;
class QTimer;
class RerunDialog;
struct Step;

/// The window's Rerun from Step and cassette commands (issue 5 items 10 and 12;
/// docs/steps.md): Run ▸ Rerun from Step… (Ctrl+Shift+F5, also in the Runs dock and
/// its context menu), the trace's context menu "Rerun from This Step…", Run ▸ Save
/// Cassette… and Run ▸ Run with Cassette…. Each action is disabled with the reason in
/// its tooltip when it cannot apply (no project, a run is active, the trace shows an
/// imported run, the run has no steps). A replay's or cassette run's divergence is
/// written to the console like the CLI's stderr line.
///
/// The run acted on (targetRun()) is the Runs dock's current run, else the run the
/// trace shows (a journal run, or the current/last run).
class DurableRunActions : public QObject
{
    Q_OBJECT
public:
    /// Creates the actions (children of this object); connectWindow() once the
    /// window's docks exist.
    explicit DurableRunActions(MainWindow *window);
    /// Puts the actions in the Runs dock's and the trace's context menus and follows
    /// the window's changes (selection, run status, imported runs) to update them.
    void connectWindow();
    /// A Runs dock button for Rerun from Step (follows the action's state and tooltip).
    QPushButton *makeRunsButton(QWidget *parent) const;

    QAction *rerunAction() const { return m_rerun; }
    QAction *traceRerunAction() const { return m_traceRerun; }
    QAction *saveCassetteAction() const { return m_saveCassette; }
    QAction *runWithCassetteAction() const { return m_runWithCassette; }
    /// Adds Rerun from Step, Save Cassette and Run with Cassette to `menu`.
    void addTo(QMenu *menu) const;

    /// The run the Run menu's and the Runs dock's commands act on; empty when none.
    QString targetRun() const;
    /// Opens the Rerun dialog (non-blocking, window-modal) for step `sequence` of
    /// `runId`; `chooseStep` lets the person pick another step. OK starts the rerun.
    /// nullptr with the error reported when the run cannot be read.
    RerunDialog *openRerunDialog(const QString &runId, int sequence, bool chooseStep);
    /// Writes run `runId`'s results as a cassette to `path` (empty: asks for a file).
    /// The status bar confirms with the path and the step count; failures are reported.
    bool saveCassette(const QString &runId, QString path);
    /// Runs the project's current script offline against the cassette at `path`
    /// (empty: asks for a file). A file that is not a cassette is refused with the
    /// reason (the CLI's message) and nothing is recorded.
    bool runWithCassette(QString path);
    /// The console line for a divergence: what happens from this step on, which
    /// depends on whether the run is offline (a cassette) or may call real tools.
    static QString divergenceNotice(const Step &step, bool offline);

    /// Re-evaluates which actions apply (also done on the window's changes).
    void updateActions();

private:
    /// The run shown in the trace (journal run, or the current/last run); empty for an imported run.
    QString traceRun() const;
    /// Why a command cannot act on run `runId` now; empty when it can. `needsRun`
    /// false (Run with Cassette): only a project and no active run are needed;
    /// otherwise the run must be in the journal with at least one step.
    QString blocker(const QString &runId, bool needsRun) const;
    void scheduleUpdate();

    MainWindow *m_window;
    QAction *m_rerun = nullptr;
    QAction *m_traceRerun = nullptr;
    QAction *m_saveCassette = nullptr;
    QAction *m_runWithCassette = nullptr;
    QTimer *m_update = nullptr;
    QPointer<RerunDialog> m_dialog;
};
