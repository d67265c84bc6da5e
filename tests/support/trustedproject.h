// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Trust for the suites that open projects and run them (docs/sandbox.md "Trust before
// code runs"): each grants it explicitly, per project, through the API or --trust;
// there is no variable that trusts everything.
#pragma once

#include "project/project.h"
#include "project/projecttrust.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <optional>

/// Points XDG_CONFIG_HOME (for this process and the toolstudio children it starts) at a
/// folder of its own, removed at exit, so no suite reads or writes a user's grants
/// (or another suite's); one the suite set into a temporary folder itself is kept.
/// For initTestCase(), before anything reads a standard path; a
/// suite in QStandardPaths test mode is isolated by that instead (grants there are
/// per process: trustProject()).
inline void isolateConfigDir()
{
    // A suite that already points it into a temporary folder of its own keeps it (its
    // children then read the secrets it saved there).
    if (qEnvironmentVariable("XDG_CONFIG_HOME").startsWith(QDir::tempPath() + QLatin1Char('/')))
        return;
    static QTemporaryDir config;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
}

/// Trusts `dir` in this process only (ProjectTrust::grantForThisProcess): nothing is
/// recorded, so suites running in parallel never share a trust file.
inline void trustProject(const QString &dir)
{
    ProjectTrust::grantForThisProcess(dir);
}

/// Project::load of a project this suite trusts (trustProject(), then load).
inline std::optional<Project> loadTrusted(const QString &dir, ProjectError *error)
{
    trustProject(dir);
    return Project::load(dir, error);
}

/// MainWindow::openProject of a project this suite trusts (trustProject(), then open).
template<typename Window>
bool openTrusted(Window &window, const QString &dir)
{
    trustProject(dir);
    return window.openProject(dir);
}
