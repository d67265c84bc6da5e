// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "projectsession.h"

#include "mcp/mcpprojecttools.h"
#include "mcp/mcpserverpool.h"
#include "project/projecttrust.h"
#include "run/runcontroller.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLockFile>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace {

/// What the tool worker's description of `dir/tools/*.py` depends on: each file's
/// name, size and modification time. Cheap (a directory listing), for the GUI thread.
QString pythonFingerprint(const QString &dir)
{
    QStringList parts;
    const QFileInfoList files
        = QDir(dir + QStringLiteral("/tools")).entryInfoList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
    for (const QFileInfo &file : files)
        parts << QStringLiteral("%1:%2:%3")
                     .arg(file.fileName())
                     .arg(file.size())
                     .arg(file.lastModified().toMSecsSinceEpoch());
    return parts.join(QLatin1Char('/'));
}

} // namespace

ProjectSession::ProjectSession(RunController *run, QObject *parent)
    : QObject(parent)
    , m_run(run)
    , m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &ProjectSession::watchedFileChanged);
    // The run keeps the manifest it started with; a change meanwhile reloads at its end.
    connect(m_run, &RunController::finished, this, [this] {
        if (std::exchange(m_manifestChangedDuringRun, false))
            Q_EMIT manifestChangedOnDisk();
    });
}

ProjectSession::~ProjectSession() = default;

bool ProjectSession::pythonToolsLoading() const
{
    return m_project && m_project->pythonToolsPending;
}

QString ProjectSession::runRefusal() const
{
    if (pythonToolsLoading())
        return tr("Python tools are loading…");
    return m_pythonProblem;
}

std::unique_ptr<QLockFile> ProjectSession::lockFor(const QString &dir, QString *error) const
{
    if (m_project && m_project->dir == dir)
        return nullptr; // this window has it open: its lock is held already
    const QString stateDir = QDir(dir).filePath(QStringLiteral(".toolstudio"));
    QDir().mkpath(stateDir);
    auto lock = std::make_unique<QLockFile>(QDir(stateDir).filePath(QStringLiteral("window.lock")));
    lock->setStaleLockTime(0);
    if (lock->tryLock(0))
        return lock;
    qint64 pid = 0;
    QString host;
    QString app;
    lock->getLockInfo(&pid, &host, &app);
    *error = tr("%1 is already open in another Tool Studio window (process %2). Switch to that window, or close it "
                "first.")
                 .arg(QDir::toNativeSeparators(dir))
                 .arg(pid);
    return nullptr;
}

void ProjectSession::open(Project project, std::unique_ptr<QLockFile> lock)
{
    if (lock)
        m_lock = std::move(lock);
    m_project = std::move(project);
    m_manifestChangedDuringRun = false;
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_watcher->addPath(m_project->manifestPath());
    loadPythonTools();
    Q_EMIT projectChanged();
    startMcpServers();
}

bool ProjectSession::reload(ProjectError *error)
{
    if (!m_project)
        return false;
    std::optional<Project> reloaded = Project::loadManifest(m_project->dir, error);
    if (!reloaded)
        return false;
    m_project = std::move(reloaded);
    loadPythonTools();
    Q_EMIT projectChanged();
    startMcpServers();
    return true;
}

bool ProjectSession::trust(QString *error, QString *note)
{
    if (!m_project || !ProjectTrust::grant(m_project->dir, error, note))
        return false;
    ProjectError loadError;
    if (!reload(&loadError)) {
        *error = loadError.toString();
        return false;
    }
    return true;
}

void ProjectSession::loadPythonTools()
{
    m_pythonProblem.clear();
    if (!m_project->pythonToolsPending) {
        m_pythonJob.cancel(); // a load for the replaced project is stale
        return;
    }
    const QString fingerprint = pythonFingerprint(m_project->dir);
    if (m_pythonJob.busy() && fingerprint == m_loadingFingerprint)
        return; // the load in flight describes these very files: its result serves this project
    if (m_described && fingerprint == m_describedFingerprint) { // unchanged files: no worker
        m_pythonJob.cancel();
        ProjectError error;
        if (!m_project->addPythonTools(*m_described, &error))
            m_pythonProblem = error.toString();
        return;
    }
    m_loadingFingerprint = fingerprint;
    m_pythonJob.schedule( // supersedes a load in flight: its result is dropped
        this, [dir = m_project->dir] { return Project::describePythonTools(dir); },
        [this, fingerprint](const PythonToolsDescription &description) {
            pythonToolsDescribed(description, fingerprint);
        });
}

void ProjectSession::pythonToolsDescribed(const PythonToolsDescription &description, const QString &fingerprint)
{
    if (!m_project || !m_project->pythonToolsPending)
        return;
    // Kept for reloads only when every file loaded: a missing module may be installed
    // meanwhile (the venv is not in the fingerprint), so a file with a problem loads again.
    const bool clean = description.files
        && std::none_of(description.files->begin(), description.files->end(), [](const nlohmann::json &file) {
                           return file.contains("error") || file.contains("missing_module");
                       });
    m_described = clean ? std::optional(description) : std::nullopt;
    m_describedFingerprint = fingerprint;
    ProjectError error;
    if (!m_project->addPythonTools(description, &error))
        m_pythonProblem = error.toString();
    addMcpTools(); // held back until the Python tools were in: a name clash is theirs
    Q_EMIT pythonToolsLoaded(m_pythonProblem);
}

/// The project's MCP servers start in the background (the window never waits on one);
/// once none is starting, their tools join the project's (docs/mcp.md). Only for a
/// trusted project: starting a server runs its code.
void ProjectSession::startMcpServers()
{
    if (m_pool)
        disconnect(m_pool.data(), nullptr, this, nullptr);
    m_pool = nullptr;
    m_mcpToolsAdded = false;
    if (m_project && !m_project->mcpServers.empty() && m_project->trusted)
        m_pool = McpProjectTools::startAll(*m_project);
    Q_EMIT mcpPoolChanged(m_pool);
    if (!m_pool)
        return;
    if (m_pool->settled())
        QTimer::singleShot(0, this, &ProjectSession::addMcpTools);
    else
        connect(m_pool.data(), &McpServerPool::serverChanged, this, &ProjectSession::addMcpTools);
    // A server's tools changed (notifications/tools/list_changed): they are listed again.
    connect(m_pool.data(), &McpServerPool::toolsChanged, this, [this] {
        if (!m_project || m_project->pythonToolsPending || !m_pool->settled())
            return;
        Q_EMIT mcpToolsChanged(McpProjectTools::replaceTools(*m_project, *m_pool).join(QStringLiteral("; ")));
    });
}

void ProjectSession::addMcpTools()
{
    if (!m_pool || !m_pool->settled() || !m_project || m_project->pythonToolsPending || m_mcpToolsAdded)
        return;
    m_mcpToolsAdded = true;
    disconnect(m_pool.data(), &McpServerPool::serverChanged, this, &ProjectSession::addMcpTools);
    Q_EMIT mcpToolsChanged(McpProjectTools::addTools(*m_project, *m_pool).join(QStringLiteral("; ")));
}

void ProjectSession::watchedFileChanged(const QString &path)
{
    // Editors that save atomically replace the file: watch the new one.
    if (QFileInfo::exists(path) && !m_watcher->files().contains(path))
        m_watcher->addPath(path);
    if (!m_project || path != m_project->manifestPath()) {
        Q_EMIT fileChangedOnDisk(path);
        return;
    }
    if (m_run->isActive())
        m_manifestChangedDuringRun = true; // the run keeps the manifest it started with
    else
        Q_EMIT manifestChangedOnDisk();
}
