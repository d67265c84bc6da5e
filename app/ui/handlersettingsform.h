// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/projectwriter.h"

#include <QWidget>

#include <vector>

class Project;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

/// The Tool dock's *Handler* page (issue 7 "Tool dock"): the selected tool's mock
/// sequence, command line and retry policy (max attempts, initial backoff, factor,
/// cap, jitter, attempt and total timeout; for a manual tool the attempt timeout is
/// how long a person may take) as editable fields. A field is applied when editing
/// ends (Enter, leaving it, or *Apply* for the sequence): a valid change becomes one
/// ProjectWriter edit, requested through editRequested() so that the window runs it
/// as an undoable command. Bad input is refused with the message at the field and the
/// text is kept, so nothing the person typed is lost.
class HandlerSettingsForm : public QWidget
{
    Q_OBJECT
public:
    explicit HandlerSettingsForm(QWidget *parent = nullptr);

    /// Shows `tool` of `project`. For the same tool again (after a reload) fields the
    /// person is still editing keep their text; the others show the new values.
    void setTool(const Project *project, const QString &tool);

    /// The editor of `key`: a retry key (docs/project-format.md "retry", e.g.
    /// "initial_backoff_seconds"), "command" (QLineEdit) or "sequence" (QPlainTextEdit).
    QWidget *editor(const QString &key) const;
    QPushButton *applySequenceButton() const { return m_applySequence; }
    /// The message shown at the field of `key`; empty when none.
    QString errorAt(const QString &key) const;
    /// Whether the row of `key` is shown for the current tool.
    bool isRowShown(const QString &key) const;

public Q_SLOTS:
    /// Checks the field of `key` and requests the edit when it changed. False when the
    /// input was refused (message at the field) or nothing changed.
    bool apply(const QString &key);

Q_SIGNALS:
    /// A structured edit of toolstudio.json; `text` names it in Edit ▸ Undo.
    void editRequested(const QString &text, const ProjectWriter::Edit &edit);

private:
    struct Row
    {
        QString key;
        QWidget *editor = nullptr;
        QLabel *label = nullptr;
        QLabel *error = nullptr;
        QWidget *box = nullptr;
        QString loaded; ///< the text the tool's value gave; differing text is being edited
        double minimum = 0;
        double maximum = 0; ///< 0: no maximum
        bool integer = false;
    };
    Row *row(const QString &key);
    const Row *row(const QString &key) const;
    void addRow(const QString &key, const QString &label, QWidget *editor, const QString &tip);
    QString text(const Row &row) const;
    void setText(Row &row, const QString &text, bool force);
    void setError(Row &row, const QString &message);

    QFormLayout *m_form = nullptr;
    QLabel *m_kind = nullptr;
    QLabel *m_active = nullptr;
    QPushButton *m_applySequence = nullptr;
    std::vector<Row> m_rows;
    QString m_tool;
    QString m_projectDir;
    bool m_manual = false;
};
