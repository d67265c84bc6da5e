// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pythontoolsloader.h"

PythonToolsLoader::PythonToolsLoader(QObject *parent)
    : QObject(parent)
{}

std::optional<Project> PythonToolsLoader::load(const QString &dir, ProjectError *error)
{
    // A description is only ever of its own folder.
    std::optional<Project> project
        = Project::loadManifest(dir, error, Project::folderPath(dir) == m_describedDir ? &m_description : nullptr);
    if (project && project->pythonLoading)
        describe(project->dir);
    return project;
}

void PythonToolsLoader::describe(const QString &dir)
{
    const QString print = Project::pythonFingerprint(dir);
    if (m_describing == dir && m_describingPrint == print)
        return; // these very files are being described already
    m_describing = dir;
    m_describingPrint = print;
    m_job.schedule(
        this, [dir] { return Project::describePython(dir); },
        [this, dir](PythonDescription description) {
            m_describing.clear();
            m_describingPrint.clear();
            m_describedDir = dir;
            m_description = std::move(description);
            Q_EMIT described(dir);
        });
}
