// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QComboBox>

class Project;

/// The toolbar's Script box: the manifest's scripts by name, the path as the tooltip
/// (two scripts may share a file, and a name says which entry Run starts). It follows
/// every load of the manifest (issue 20 "One source of truth"): setProject keeps the
/// chosen script when it is still there, else takes the project's default.
class ScriptBox : public QComboBox
{
    Q_OBJECT
public:
    /// Item data: the script's absolute path (what Run starts).
    static constexpr int PathRole = Qt::UserRole;
    /// Item data: the script's name in the manifest (empty for a default script
    /// that names no entry).
    static constexpr int NameRole = Qt::UserRole + 1;

    explicit ScriptBox(QWidget *parent = nullptr);

    /// Fills the box from `project` (nullptr: empty).
    void setProject(const Project *project);
    /// The chosen script's absolute path; empty when there is none.
    QString currentPath() const { return currentData(PathRole).toString(); }
    /// Chooses the (first) entry of the script at `path` (absolute), unless the chosen
    /// one is of that file already.
    bool selectPath(const QString &path);

private:
    void updateToolTip();
};
