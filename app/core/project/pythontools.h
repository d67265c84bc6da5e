// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QSet>
#include <QString>

class Project;
struct PythonDescription;

/// The Python half of Project::load (docs/python-tools.md): the tools of `tools/*.py`.
namespace PythonTools {
/// Adds the tools of `tools/*.py` to `project`; `names` and `origin` (tool name -> where
/// it is declared) are the tools declared so far. The description is `described` when
/// its fingerprint fits the files, else the tool worker's (ToolWorker::describeSync) when
/// `describeNow`, else the files are listed as loading (Project::loadManifest). A
/// duplicate name throws ManifestReader's ManifestError; a file or method that fails to
/// load is listed in project.pythonFiles with the reason.
void addTo(Project &project, QSet<QString> &names, QHash<QString, QString> &origin, const PythonDescription *described,
           bool describeNow);
} // namespace PythonTools
