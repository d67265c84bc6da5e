// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;

/// File ▸ New Project… (issue 20 "Start from nothing"): a folder and a template
/// (ProjectTemplates); Create writes the project there and emits projectCreated. A
/// folder that is a project already, or has a file the template would write, is refused
/// under the form with the reason, nothing written, and the dialog stays open.
class NewProjectDialog : public QDialog
{
    Q_OBJECT
public:
    /// `folder`: filled in (e.g. a folder opened without a manifest; `note` says so).
    explicit NewProjectDialog(const QString &folder = QString(), const QString &note = QString(),
                              QWidget *parent = nullptr);

    /// Selects template `name` (false when there is none).
    bool selectTemplate(const QString &name);
    void setFolder(const QString &folder);

    /// Makes the project (as Create does). False with the reason shown in the dialog.
    bool create();

Q_SIGNALS:
    /// The project was written into `dir` (absolute).
    void projectCreated(const QString &dir);

private:
    void browse();
    void updateDescription();

    QLineEdit *m_folder = nullptr;
    QListWidget *m_templates = nullptr;
    QLabel *m_description = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};
