// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <map>
#include <utility>
#include <vector>

/// A `tools/*.py` file as the tool worker described it (docs/python-tools.md).
struct PythonToolFile
{
    QString path;                                          ///< relative to the project, e.g. "tools/weather.py"
    nlohmann::json frontmatter = nlohmann::json::object(); ///< title, author, version, description, requirements …
    QString error;                                         ///< why the file did not load (then it has no tools)
    /// The module the file failed to import because it is not installed (the worker's
    /// "missing_module", toolworker.py), e.g. "bs4"; empty when the file loaded or
    /// failed for another reason. Install Requirements… offers itself on this.
    QString missingModule;
    QStringList tools; ///< the tools it added to Project::tools
    /// Tool → the schema of its return annotation (for typings only; never validated).
    std::map<QString, nlohmann::json> resultSchemas;
    std::vector<std::pair<QString, QString>> toolErrors; ///< method → why it is not a tool
    /// `{"schema": <object schema>, "defaults": {...}}` of `class Valves` / `class
    /// UserValves`, `{"error": …}` when they cannot be derived, null when absent.
    nlohmann::json valves;
    nlohmann::json userValves;
};
