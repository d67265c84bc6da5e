// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "editorarea.h"

#include "editoractions.h"
#include "findbar.h"
#include "project/project.h"
#include "project/projecttrust.h"
#include "scripteditor.h"
#include "scripttabs.h"
#include "trustbar.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QVBoxLayout>

EditorArea::EditorArea(Reporter report, QWidget *parent)
    : QWidget(parent)
    , m_watcher(new QFileSystemWatcher(this))
    , m_tabs(new ScriptTabs(m_watcher, report, this))
    , m_findBar(new FindBar(this))
    , m_trustBar(new TrustBar(this))
{
    setObjectName(QStringLiteral("editorArea"));
    m_findBar->setObjectName(QStringLiteral("findBar"));
    m_findBar->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_trustBar);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_findBar);
    m_actions = new EditorActions(m_tabs, m_findBar, this, std::move(report));

    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &EditorArea::fileChangedOnDisk);
    connect(m_trustBar, &TrustBar::trustRequested, this, &EditorArea::trustRequested);
    connect(m_trustBar, &TrustBar::stayRestricted, this, [this] { m_stayRestricted = true; });
    connect(m_tabs, &ScriptTabs::notice, this, &EditorArea::notice);
    connect(m_actions, &EditorActions::notice, this, &EditorArea::notice);
    connect(m_actions, &EditorActions::saved, this, [this](const QString &path) {
        if (!m_manifestPath.isEmpty() && path == QFileInfo(m_manifestPath).absoluteFilePath())
            Q_EMIT manifestChanged();
    });
    connect(m_tabs, &QTabWidget::tabCloseRequested, m_tabs, &ScriptTabs::closeTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { m_findBar->setEditor(m_tabs->current()); });
}

void EditorArea::switchTo(const Project &project)
{
    m_tabs->closeAll();
    m_stayRestricted = false;
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_manifestPath = project.manifestPath();
    m_watcher->addPath(m_manifestPath);
}

void EditorArea::showTrustFor(const Project *project)
{
    if (!project || project->trusted) {
        m_stayRestricted = false;
        m_trustBar->hide();
    } else if (!m_stayRestricted) {
        m_trustBar->showFor(ProjectTrust::check(project->dir));
    }
}

void EditorArea::completeTools(const Project *project)
{
    QStringList entries;
    if (project) {
        for (const Tool &tool : project->tools) {
            const QString params = tool.parameterOrder.join(QStringLiteral(", "));
            entries.append(QStringLiteral("tools.%1(%2)").arg(tool.name, params));
            entries.append(QStringLiteral("%1(%2)").arg(tool.name, params));
        }
    }
    m_tabs->setToolCompletions(entries);
}

void EditorArea::fileChangedOnDisk(const QString &path)
{
    // Editors that save atomically replace the file: watch the new one.
    if (QFileInfo::exists(path) && !m_watcher->files().contains(path))
        m_watcher->addPath(path);
    if (!m_manifestPath.isEmpty() && path == m_manifestPath)
        Q_EMIT manifestChanged();
    else
        m_tabs->reloadChanged(path);
}
