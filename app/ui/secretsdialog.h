// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "python/secrets.h"

#include <QDialog>

#include <functional>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

/// Tools ▸ Secrets… (issue 6 item 5; docs/python-tools.md "Secrets"): the project's
/// secrets — names, with every value masked (••••••••) until its row's "Show" box is
/// ticked — and Add / Replace / Remove. Each change is saved at once with
/// `Secrets::save()` (the file outside the project, mode 0600); the tool worker picks
/// the change up before its next call. Values never go to a log or the status bar.
///
/// Refused, with the reason under the form and nothing saved: an empty name, a name
/// that is not an environment variable name (`Secrets::isValidName`), an empty value.
/// A value under 4 characters is saved with a warning: `Secrets::mask` skips it.
class SecretsDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column { NameColumn, ValueColumn, ShowColumn };
    /// What a masked value shows.
    static QString maskedText();

    explicit SecretsDialog(const QString &projectDir, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QLineEdit *nameEdit() const { return m_nameEdit; }
    QLineEdit *valueEdit() const { return m_valueEdit; }
    QPushButton *addButton() const { return m_addButton; }
    QPushButton *removeButton() const { return m_removeButton; }
    /// The reason the last Add or Remove was refused or failed ("" after a success).
    QString errorText() const;
    /// Asks before a secret is removed; the default shows a question box. Tests
    /// replace it.
    void setConfirmation(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }

private:
    void rebuild();
    void add();
    void removeSelected();
    void updateAddButton();
    void showError(const QString &message);
    bool save();

    Secrets m_secrets;
    QTableWidget *m_table = nullptr;
    QLineEdit *m_nameEdit = nullptr;
    QLineEdit *m_valueEdit = nullptr;
    QPushButton *m_addButton = nullptr;
    QPushButton *m_removeButton = nullptr;
    QLabel *m_errorLabel = nullptr;
    std::function<bool(const QString &)> m_confirm;
};
