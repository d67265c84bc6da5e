// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <nlohmann/json.hpp>

class Project;
class QGroupBox;
class QLabel;
class QPushButton;
class SchemaForm;

/// The Tool dock's *Valves* page (issue 6 "Valves"): the settings a Python tool file
/// declares in `class Valves` / `class UserValves`, as forms generated from their
/// schemas (SchemaForm), pre-filled with the model's defaults and the values stored in
/// ValveStore (`.toolstudio/valves.json`). *Save* stores the values that differ from
/// the defaults; the next call passes them to the tool worker. Fields that hold
/// secrets (`"format": "password"`, `writeOnly`, or a name like `api_key`, `token`,
/// `secret`, `password`) are masked, and the raw JSON toggle is hidden then.
class ValvesForm : public QWidget
{
    Q_OBJECT
public:
    explicit ValvesForm(QWidget *parent = nullptr);

    /// Shows the valves of the file that defines `tool`. Values typed but not saved are
    /// kept while the file stays the same (a reload after another edit).
    void setTool(const Project *project, const QString &tool);
    QString file() const { return m_file; }

    /// `kind` is "Valves" or "UserValves"; nullptr when the file has none.
    SchemaForm *form(const QString &kind) const;
    QPushButton *saveButton(const QString &kind) const;
    /// The line under the forms: what was saved, or why not.
    QString message() const;

    /// The schema as the form shows it: secret-looking string properties marked
    /// `writeOnly` (masked).
    static nlohmann::json maskedSchema(const nlohmann::json &schema);

public Q_SLOTS:
    /// Stores the form's values of `kind` that differ from the defaults. False (and the
    /// reason in message(); nothing stored) when the form is invalid or the file
    /// cannot be written.
    bool save(const QString &kind);

private:
    struct Section
    {
        QString kind;
        QGroupBox *box = nullptr;
        SchemaForm *form = nullptr;
        QPushButton *save = nullptr;
        nlohmann::json defaults = nlohmann::json::object();
    };
    Section *section(const QString &kind);
    const Section *section(const QString &kind) const;

    Section m_sections[2];
    QLabel *m_heading = nullptr;
    QLabel *m_message = nullptr;
    QString m_projectDir;
    QString m_file;
};
