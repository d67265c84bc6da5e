// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QStackedWidget;
class SchemaValidator;

namespace schemaform {
class Field;
}

/// A form generated from a JSON Schema (draft 7) for a tool's arguments or a pending
/// call's result (issue 7 "Schema forms"). It handles string (enum as a combo box,
/// format hints), number/integer (min/max), boolean, null, arrays (add, remove,
/// reorder), nested objects, anyOf/oneOf and type lists (a branch selector, "null"
/// included); defaults are pre-filled. An optional property is *omitted* until its
/// checkbox is ticked, so omitted, null and a value stay distinct. A raw JSON toggle
/// shows the same value as text and stays in sync both ways. Every change is validated
/// (SchemaValidator, i.e. valijson) and the message is shown at the field it names.
/// Typed numbers become JSON numbers; text that is not a number is a field error.
///
/// A string field with `"format": "password"` or `"writeOnly": true` is masked.
///
/// Controls are addressed by the JSON pointer of their field and a role: "editor"
/// (line edit, combo box, check box), "include" (optional property), "add" (array),
/// "remove"/"up"/"down" (an array item, by the item's pointer), "branch" (anyOf).
class SchemaForm : public QWidget
{
    Q_OBJECT
public:
    explicit SchemaForm(QWidget *parent = nullptr);
    ~SchemaForm() override;

    /// Builds the form for `schema`. `order`: property order of the top-level object
    /// (nlohmann::json sorts keys; Tool::parameterOrder keeps the declared order).
    void setSchema(const nlohmann::json &schema, const QStringList &order = {});
    const nlohmann::json &schema() const { return m_schema; }

    /// The value the form holds now (in raw mode: the last text that parsed).
    nlohmann::json value() const;
    /// Shows `value` in the form (and the raw text); keys the schema does not know are kept.
    void setValue(const nlohmann::json &value);

    bool isRawMode() const;
    void setRawMode(bool raw);
    QPlainTextEdit *rawEdit() const { return m_rawEdit; }
    QCheckBox *rawToggle() const { return m_rawToggle; }

    /// The first problem: a field's own error (a number that is not one, malformed raw
    /// JSON) or the validator's first failure. nullopt when the value is valid.
    struct Problem
    {
        QString pointer;
        QString message;
        QString toString() const;
    };
    std::optional<Problem> problem() const { return m_problem; }
    bool isValid() const { return !m_problem.has_value(); }
    /// The required properties whose value is still an empty string the person has not
    /// edited (pointers, in form order): "" is valid for a plain string schema, but a
    /// person reads "Valid" as "ready", so the form says "Required, still empty: base and
    /// quote" instead (issue 20, neutral colour; Send stays allowed).
    QStringList untouchedEmptyFields() const;
    /// Shows every problem at its field, required properties still missing included
    /// (Send was pressed). Until then only the fields the person edited show their
    /// errors, so a fresh form is not covered in red. setSchema() hides them again.
    void revealErrors();
    bool errorsRevealed() const { return m_revealAll; }
    /// Hides the raw JSON toggle (a form holding secrets: raw text would unmask them).
    void setRawToggleVisible(bool visible);
    /// Hides the line under the fields ("Valid", "Required, still empty: …", the first
    /// problem): for a caller that says in its own words what is missing (a sampling
    /// reply: "Write the reply (required)"). Errors at the fields still show.
    void setStatusLineVisible(bool visible);
    /// The message shown at the field for `pointer`; empty when none.
    QString errorAt(const QString &pointer) const;
    /// The widget with `role` for the field at `pointer`; nullptr when there is none.
    QWidget *control(const QString &pointer, const QString &role = QStringLiteral("editor")) const;

Q_SIGNALS:
    void valueChanged();
    /// Ctrl+Enter anywhere in the form.
    void submitted();

private:
    void fieldChanged();
    void rawTextChanged();
    void validate();
    schemaform::Field *fieldAt(const QString &pointer) const;

    nlohmann::json m_schema;
    std::unique_ptr<SchemaValidator> m_validator;
    schemaform::Field *m_root = nullptr;
    QWidget *m_formPage = nullptr;
    QStackedWidget *m_stack = nullptr;
    QPlainTextEdit *m_rawEdit = nullptr;
    QCheckBox *m_rawToggle = nullptr;
    QLabel *m_problemLabel = nullptr;
    std::optional<Problem> m_problem;
    std::optional<nlohmann::json> m_rawValue; ///< raw mode: last parsed text
    QString m_rawError;
    bool m_updating = false;
    bool m_revealAll = false;
};
