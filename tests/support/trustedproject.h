// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Trust for the suites that open projects and run them (docs/sandbox.md "Trust before
// code runs"): each grants it explicitly, per project, through the API or --trust;
// there is no variable that trusts everything.
#pragma once

#include "project/project.h"
#include "project/projecttrust.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QThread>

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

/// Waits until the window's project has its Python tools: the window describes
/// `tools/*.py` off the GUI thread (Project::pythonLoading), at most the worker's own
/// limit. False when they are still loading then.
template<typename Window>
bool waitForPythonTools(Window &window)
{
    const QDeadlineTimer deadline(Project::pythonTimeoutMs + 10000);
    const auto loading = [&] { return window.project() && window.project()->pythonLoading; };
    while (loading() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    return !loading();
}

/// MainWindow::openProject of a project this suite trusts (trustProject(), then open),
/// then waitForPythonTools(): the project is whole when this returns true.
template<typename Window>
bool openTrusted(Window &window, const QString &dir)
{
    trustProject(dir);
    return window.openProject(dir) && waitForPythonTools(window);
}
