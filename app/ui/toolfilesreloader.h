// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QStringList>

#include <functional>

class RunController;

/// Loads the project again when a `tools/*.py` file is saved, added or removed
/// (ToolWorker::toolFilesChanged), so the tool list and the schemas a model sees follow
/// the files (issue 6 item 1, "Saving a tool file reloads it"). While a run is active
/// the project is not replaced under it: the reload waits for the run's end
/// (RunController::finished), and notice() says so at once ("tools/x.py changed; the
/// tools reload when this run ends"). Changes during one run are gathered into one
/// reload.
class ToolFilesReloader : public QObject
{
    Q_OBJECT
public:
    /// `reload` loads the project again (MainWindow::reloadProject).
    ToolFilesReloader(RunController *run, std::function<void()> reload, QObject *parent = nullptr);

    /// Follows the tool files of `projectDir` from now on (empty: none); a reload that
    /// was waiting for the run's end is dropped (the new project is loaded fresh).
    void setProjectDir(const QString &projectDir);
    /// True while a change waits for the run to end.
    bool reloadPending() const { return !m_waiting.isEmpty(); }

Q_SIGNALS:
    /// Words for the status bar: a change seen during a run, and when it was applied.
    void notice(const QString &text, int timeoutMs);

private:
    void filesChanged(const QStringList &paths);
    void runFinished();

    RunController *m_run;
    std::function<void()> m_reload;
    QMetaObject::Connection m_connection;
    QStringList m_waiting; ///< files changed during the active run (a folder change: "tools/")
};
