// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "projectsession.h"

#include "mcp/mcpprojecttools.h"
#include "mcp/mcpserverpool.h"
#include "pythontoolsloader.h"

#include <QDir>
#include <QLockFile>
#include <QTimer>

ProjectSession::ProjectSession(QObject *parent)
    : QObject(parent)
    , m_loader(new PythonToolsLoader(this))
{
    connect(m_loader, &PythonToolsLoader::described, this, [this](const QString &dir) {
        if (m_project && m_project->dir == dir)
            Q_EMIT pythonToolsDescribed();
    });
}

ProjectSession::~ProjectSession() = default;

std::optional<Project> ProjectSession::read(const QString &dir, ProjectError *error)
{
    return m_loader->load(dir, error);
}

bool ProjectSession::lock(const Project &project, std::unique_ptr<QLockFile> *lock, QString *error) const
{
    if (m_project && m_project->dir == project.dir)
        return true;
    const QString stateDir = QDir(project.dir).filePath(QStringLiteral(".toolstudio"));
    QDir().mkpath(stateDir);
    auto taken = std::make_unique<QLockFile>(QDir(stateDir).filePath(QStringLiteral("window.lock")));
    taken->setStaleLockTime(0);
    if (!taken->tryLock(0)) {
        qint64 pid = 0;
        QString host;
        QString app;
        taken->getLockInfo(&pid, &host, &app);
        *error = tr("%1 is already open in another Tool Studio window (process %2). "
                    "Switch to that window, or close it first.")
                     .arg(QDir::toNativeSeparators(project.dir))
                     .arg(pid);
        return false;
    }
    *lock = std::move(taken);
    return true;
}

void ProjectSession::adopt(Project project, std::unique_ptr<QLockFile> lock)
{
    if (lock)
        m_lock = std::move(lock);
    m_project = std::move(project); // in place: the panels' pointers stay valid
    startMcpServers();
}

/// The servers start in the background (the window never waits on one); once none is
/// starting, their tools join the project's. Only for a trusted project: starting a
/// server runs its code.
void ProjectSession::startMcpServers()
{
    if (m_project->mcpServers.empty() || !m_project->trusted) {
        Q_EMIT mcpServersStarted(nullptr);
        return;
    }
    McpServerPool *pool = McpProjectTools::startAll(*m_project);
    // In the window a call of a changed tool waits while a person is asked (headless
    // commands refuse it at once: docs/mcp.md "Tools that change").
    pool->setAsksBeforeChangedTools(true);
    Q_EMIT mcpServersStarted(pool);
    auto connection = std::make_shared<QMetaObject::Connection>();
    const auto addWhenSettled = [this, pool, connection, dir = m_project->dir] {
        if (!pool->settled())
            return;
        QObject::disconnect(*connection);
        if (m_project && m_project->dir == dir)
            Q_EMIT mcpToolsChanged(McpProjectTools::addTools(*m_project, *pool));
    };
    if (pool->settled()) {
        // Already running (a reload before Run): the tools join now, so the run that
        // follows the reload has them; the window hears of it on the next turn.
        const QStringList problems = McpProjectTools::addTools(*m_project, *pool);
        QTimer::singleShot(0, this, [this, problems, dir = m_project->dir] {
            if (m_project && m_project->dir == dir)
                Q_EMIT mcpToolsChanged(problems);
        });
    } else
        *connection = connect(pool, &McpServerPool::serverChanged, this, addWhenSettled);
    // A server's tools changed (notifications/tools/list_changed): they are listed again.
    disconnect(pool, &McpServerPool::toolsChanged, this, nullptr);
    connect(pool, &McpServerPool::toolsChanged, this, [this, pool, dir = m_project->dir](const QString &) {
        if (m_project && m_project->dir == dir && pool->settled())
            Q_EMIT mcpToolsChanged(McpProjectTools::replaceTools(*m_project, *pool));
    });
}
