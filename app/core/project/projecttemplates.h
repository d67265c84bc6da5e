// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

/// One starting point for a new project (issue 20 "Start from nothing"): a folder of
/// files compiled into the studio (resources/templates.qrc: two of its own and the
/// shipped examples of resources/examples, read from where they are).
struct ProjectTemplate
{
    QString name;        ///< what `toolstudio init --template NAME` takes, e.g. "exchange-rate"
    QString title;       ///< one line for a list, translated
    QString description; ///< a sentence or two: what it shows
    /// What to add to `toolstudio run --trust DIR` for it to complete without a
    /// person at the terminal, relative to the project (e.g. "--answers answers.json").
    QStringList runArguments;
};

/// The templates and how a project is made from one.
namespace ProjectTemplates {

/// Every template, the default ("empty") first.
const std::vector<ProjectTemplate> &all();
/// The template called `name`, or nullptr.
const ProjectTemplate *find(const QString &name);
/// The names of all(), in order.
QStringList names();

/// Writes template `name` into `dir` (created when missing) and names the project
/// after the folder (the manifest's "name"). Refuses, writing nothing, when `dir`
/// already has a toolstudio.json, when any file the template would write exists
/// already (named in `error`), or when the name is not a template (the names are
/// listed). `written` gets the files made, relative to `dir`, sorted.
bool create(const QString &name, const QString &dir, QStringList *written, QString *error);

} // namespace ProjectTemplates
