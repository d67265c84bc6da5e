// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QWidget>

class Project;
class QLabel;
class QListWidget;
class QPushButton;

/// The load problems of the project's tool files under the Project dock's tool list
/// (issue 6 "Frontmatter and dependencies"): one warning row per Project::problems()
/// line, its tooltip the full text (a load error's traceback too). Hidden when there
/// are none. A row of a file that failed because a module is missing
/// (PythonToolFile::missingModule) and that names `requirements:` enables "Install
/// Requirements…": it asks, then runs RequirementsInstallDialog; after a successful
/// install requirementsInstalled() asks the window to load the project again.
class ToolProblemsView : public QWidget
{
    Q_OBJECT
public:
    explicit ToolProblemsView(QWidget *parent = nullptr);

    /// Shows `project`'s problems (nullptr: none).
    void setProject(const Project *project);
    QListWidget *list() const { return m_list; }
    QPushButton *installButton() const { return m_install; }

Q_SIGNALS:
    void requirementsInstalled();

private:
    void updateButton();
    void installClicked();

    QString m_projectDir;
    QLabel *m_title = nullptr;
    QListWidget *m_list = nullptr;
    QPushButton *m_install = nullptr;
};
