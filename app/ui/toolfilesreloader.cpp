// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "toolfilesreloader.h"

#include "python/toolworker.h"
#include "run/runcontroller.h"

ToolFilesReloader::ToolFilesReloader(RunController *run, std::function<void()> reload, QObject *parent)
    : QObject(parent)
    , m_run(run)
    , m_reload(std::move(reload))
{
    connect(m_run, &RunController::finished, this, &ToolFilesReloader::runFinished);
}

void ToolFilesReloader::setProjectDir(const QString &projectDir)
{
    disconnect(m_connection);
    m_waiting.clear();
    if (!projectDir.isEmpty())
        m_connection = connect(ToolWorker::forProject(projectDir), &ToolWorker::toolFilesChanged, this,
                               &ToolFilesReloader::filesChanged);
}

void ToolFilesReloader::filesChanged(const QStringList &paths)
{
    if (!m_run->isActive()) {
        m_reload();
        return;
    }
    const QStringList changed = paths.isEmpty() ? QStringList{QStringLiteral("tools/")} : paths;
    for (const QString &path : changed)
        if (!m_waiting.contains(path))
            m_waiting << path;
    Q_EMIT notice(tr("%1 changed; the tools reload when this run ends").arg(m_waiting.join(QStringLiteral(", "))),
                  10000);
}

void ToolFilesReloader::runFinished()
{
    if (m_waiting.isEmpty())
        return;
    const QString files = m_waiting.join(QStringLiteral(", "));
    m_waiting.clear();
    m_reload();
    Q_EMIT notice(tr("The tools were reloaded (%1 changed during the run)").arg(files), 5000);
}
