// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/jobslot.h"
#include "project/project.h"

#include <QObject>
#include <QString>

#include <optional>

/// Loads a project for the window without waiting on the tool worker (issue 18 item 2):
/// load() reads the manifest at once (Project::loadManifest) and takes the Python tool
/// files from the last description of that folder while `tools/*.py` keep their
/// fingerprint. When they changed (or were never described), the project comes back
/// with pythonLoading set, and the worker describes them on a pool thread (JobSlot);
/// described() then says that load() will give the whole project. Only the newest
/// description counts: a later load() of other files, or of another folder, drops an
/// older one still running.
class PythonToolsLoader : public QObject
{
    Q_OBJECT
public:
    explicit PythonToolsLoader(QObject *parent = nullptr);

    /// The project in `dir` (see above); nullopt and `error` as Project::load.
    std::optional<Project> load(const QString &dir, ProjectError *error);
    /// True while the worker describes a folder's tool files.
    bool busy() const { return !m_describing.isEmpty(); }

Q_SIGNALS:
    /// The tool files of `dir` (absolute) were described; load() uses the description.
    void described(const QString &dir);

private:
    void describe(const QString &dir);

    JobSlot m_job;
    QString m_describedDir; ///< the folder m_description is of
    PythonDescription m_description;
    QString m_describing;      ///< the folder being described ("" when none)
    QString m_describingPrint; ///< its fingerprint when the job started
};
