// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/project.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>

class McpServerPool;
class PythonToolsLoader;
class QLockFile;

/// The window's open project (DESIGN.md "The window"): it reads toolstudio.json at once
/// and has the Python tool files described off the GUI thread (PythonToolsLoader), holds
/// the one-window-per-project lock, and starts a trusted project's MCP servers in the
/// background, adding their tools once none is starting (docs/mcp.md). The window
/// shows what it holds and what it signals.
class ProjectSession : public QObject
{
    Q_OBJECT
public:
    explicit ProjectSession(QObject *parent);
    ~ProjectSession() override;

    /// The open project, or nullptr.
    const Project *project() const { return m_project ? &*m_project : nullptr; }

    /// Reads the project in `dir`; its Python tools come from the last description while
    /// the files are unchanged, else `pythonLoading` is set until pythonToolsDescribed().
    std::optional<Project> read(const QString &dir, ProjectError *error);
    /// One window per project: takes the lock in `project`'s .toolstudio/ into `lock`
    /// (nothing to take for the open project). False with `error` naming the process
    /// that holds it.
    bool lock(const Project &project, std::unique_ptr<QLockFile> *lock, QString *error) const;
    /// `project` becomes the open one (with `lock` from lock() when it is another
    /// folder); its MCP servers start when it is trusted.
    void adopt(Project project, std::unique_ptr<QLockFile> lock = nullptr);

Q_SIGNALS:
    /// The open project's Python tool files were described: read() gives them now.
    void pythonToolsDescribed();
    /// The open project's MCP servers were handed to `pool` (nullptr: none start).
    void mcpServersStarted(McpServerPool *pool);
    /// The servers' tools joined the open project's tools, or changed; `problems` has a
    /// line per server that failed, tool skipped and server whose tools changed.
    void mcpToolsChanged(const QStringList &problems);

private:
    void startMcpServers();

    std::optional<Project> m_project;
    std::unique_ptr<QLockFile> m_lock;
    PythonToolsLoader *m_loader;
};
