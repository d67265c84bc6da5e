// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobs/jobslot.h"
#include "project/project.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

class McpServerPool;
class QFileSystemWatcher;
class QLockFile;
class RunController;

/// The window's open project (MainWindow owns one): loading it in two phases — the
/// manifest at once, the Python tool files off the GUI thread (JobSlot) with their
/// tools swapped in when they arrive —, the window lock, watching toolstudio.json,
/// the MCP servers, and trust. It knows no widget: the window follows its signals.
///
/// A reload while Python tools load supersedes that load (its result is dropped).
/// The description of tools/*.py is kept: a reload whose tools/*.py files are
/// unchanged (names, sizes, modification times) adds the Python tools again at once.
class ProjectSession : public QObject
{
    Q_OBJECT
public:
    explicit ProjectSession(RunController *run, QObject *parent = nullptr);
    ~ProjectSession() override;

    /// The open project, or nullptr.
    Project *project() { return m_project ? &*m_project : nullptr; }
    const Project *project() const { return m_project ? &*m_project : nullptr; }
    /// Watches toolstudio.json (manifestChangedOnDisk) and the files the editor shows
    /// (fileChangedOnDisk).
    QFileSystemWatcher *watcher() const { return m_watcher; }
    /// True while the open project's Python tool files are being loaded.
    bool pythonToolsLoading() const;
    /// Why a run must not start now: the Python tools are loading, or their load failed
    /// the project (e.g. a tool declared twice); empty when it may.
    QString runRefusal() const;

    /// The window lock of the project in `dir`: one window per project. nullptr with
    /// `error` when another window holds it; a lock not taken (nullptr, no error) when
    /// this window has that project open already.
    std::unique_ptr<QLockFile> lockFor(const QString &dir, QString *error) const;
    /// Makes `project` (Project::loadManifest) the open one with `lock` (lockFor), then
    /// loads its Python tools and starts its MCP servers.
    void open(Project project, std::unique_ptr<QLockFile> lock);
    /// Reads toolstudio.json again (the Python tools follow as for open()). False with
    /// `error` when the manifest does not load; the project stays.
    bool reload(ProjectError *error);
    /// Trusts the open project (ProjectTrust::grant) and reloads it: its Python tool
    /// files load. False with `error`; `note` says what the grant changed, if anything.
    bool trust(QString *error, QString *note);

Q_SIGNALS:
    /// The open project was replaced (open, reload).
    void projectChanged();
    /// The Python tools of the open project arrived (or failed: `problem`, worded like
    /// a load error, is then runRefusal()).
    void pythonToolsLoaded(const QString &problem);
    /// The MCP servers of the open project: `pool` (nullptr: none) for the MCP dock.
    void mcpPoolChanged(McpServerPool *pool);
    /// The MCP servers' tools joined or changed; `problems` for the status bar.
    void mcpToolsChanged(const QString &problems);
    /// toolstudio.json changed on disk with no run active (or when the run ended).
    void manifestChangedOnDisk();
    /// A watched file other than toolstudio.json changed on disk.
    void fileChangedOnDisk(const QString &path);

private:
    void loadPythonTools();
    void pythonToolsDescribed(const PythonToolsDescription &description, const QString &fingerprint);
    void startMcpServers();
    void addMcpTools();
    void watchedFileChanged(const QString &path);

    RunController *m_run;
    QFileSystemWatcher *m_watcher;
    std::optional<Project> m_project;
    std::unique_ptr<QLockFile> m_lock;
    JobSlot m_pythonJob;
    /// The last description of tools/*.py and the files it described (pythonFingerprint).
    std::optional<PythonToolsDescription> m_described;
    QString m_describedFingerprint;
    QString m_loadingFingerprint; ///< the files the load in flight describes
    QString m_pythonProblem;      ///< the open project's Python tools failed it
    QPointer<McpServerPool> m_pool;
    bool m_mcpToolsAdded = false;            ///< the pool's tools joined the open project
    bool m_manifestChangedDuringRun = false; ///< reload when the run ends
};
