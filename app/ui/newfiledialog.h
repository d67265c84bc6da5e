// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/projectwriter.h"

#include <QDialog>

#include <functional>

class Project;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

/// File ▸ New Tool… and File ▸ New Script… (issue 20 "Start from nothing"): a name and
/// a language (Python or Node); Create writes a small working file from a template into
/// the open project — a tool into tools/ (Python: a `class Tools` file; Node: a command
/// tool, declared in toolstudio.json), a script into scripts/ (declared in
/// toolstudio.json) — and emits fileCreated. A name that is not a plain identifier, is
/// taken in the project, or whose file exists already is refused under the form with
/// the reason; nothing is ever overwritten. The manifest edit is one undoable command
/// (undoing it leaves the new file on disk, which nothing then uses).
class NewFileDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Kind { Tool, Script };
    enum class Language { Python, Node };
    /// Applies a manifest edit as one undoable command (ManifestEditor::edit).
    using ManifestEdit = std::function<bool(const QString &text, const ProjectWriter::Edit &edit)>;

    NewFileDialog(Kind kind, const Project *project, ManifestEdit editManifest, QWidget *parent = nullptr);

    void setName(const QString &name);
    void setLanguage(Language language);
    /// Writes the file (as Create does). False with the reason shown in the dialog.
    bool create();
    /// The reason the last create() refused; empty after a success.
    QString error() const;

    /// The file `kind`/`language`/`name` would write, relative to the project.
    static QString relativePath(Kind kind, Language language, const QString &name);
    /// Why `name` cannot name a file of `kind`/`language` (empty, not an identifier of up
    /// to 64 characters, a Python keyword for a Python tool); empty when it can. What is
    /// taken in the project is checked apart.
    static QString nameRefusal(Kind kind, Language language, const QString &name);

Q_SIGNALS:
    /// The file was written at `path` (absolute) and declared where it needs to be.
    void fileCreated(const QString &path);

private:
    QString refusal(const QString &name, const QString &path) const;
    QByteArray contents(const QString &name) const;
    bool declare(const QString &name, const QString &path, QString *error);

    Kind m_kind;
    const Project *m_project;
    ManifestEdit m_editManifest;
    QLineEdit *m_name = nullptr;
    QComboBox *m_language = nullptr;
    QLabel *m_path = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};
