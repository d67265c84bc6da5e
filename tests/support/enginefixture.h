// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The set-up the engine and run suites share: loading a project (an example or one a
// test wrote) and running a script to its end through a RunController.
#pragma once

#include "engine/stepengine.h"
#include "project/project.h"
#include "run/runcontroller.h"
#include "trustedproject.h"

#include <QByteArray>
#include <QDebug>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QString>

#include <optional>
#include <vector>

/// The source tree's example projects (resources/examples; TOOLSTUDIO_SOURCE_DIR, which
/// CTest sets).
inline QString examplesDir()
{
    return qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR") + QStringLiteral("/resources/examples");
}

/// The project in `dir`; nothing (with the load error as a warning) when it does not load.
inline std::optional<Project> loadProject(const QString &dir)
{
    ProjectError error;
    auto project = loadTrusted(dir, &error);
    if (!project)
        qWarning() << error.toString();
    return project;
}

/// resources/examples/`name`, loaded in place (a run journals under it; copyExample()
/// in testfiles.h makes a scratch copy instead).
inline std::optional<Project> loadExample(const QString &name)
{
    return loadProject(examplesDir() + QLatin1Char('/') + name);
}

/// What one run left: its record and steps as the controller has them at the end, the
/// script's output by stream, the files it wrote, and the wall time from start to end.
struct RunResult
{
    RunRecord record;
    std::vector<Step> steps;
    QByteArray stdoutText;
    QByteArray stderrText;
    QList<RunFile> files;
    qint64 elapsedMs = 0;
};

/// Starts `script` (the default script when empty) of `project` on `controller` and
/// waits up to `timeoutMs` for it to finish. A start that fails is a warning and an
/// empty result; a run that does not finish in time returns what the controller has
/// then (the test's own checks fail on it).
inline RunResult runToEnd(RunController &controller, const Project &project, const QString &script = {},
                          int timeoutMs = 30000)
{
    RunResult result;
    const auto connection = QObject::connect(&controller, &RunController::outputReceived, &controller,
                                             [&result](int stream, const QByteArray &chunk) {
                                                 (stream == 1 ? result.stdoutText : result.stderrText) += chunk;
                                             });
    QSignalSpy finished(&controller, &RunController::finished);
    QString error;
    QElapsedTimer clock;
    clock.start();
    if (!controller.start(project, script, &error)) {
        qWarning() << "start failed:" << error;
        QObject::disconnect(connection);
        return result;
    }
    if (finished.isEmpty())
        finished.wait(timeoutMs);
    QObject::disconnect(connection);
    result.elapsedMs = clock.elapsed();
    result.record = controller.record();
    result.steps = controller.engine()->steps();
    result.files = controller.outputFiles();
    return result;
}
