// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "schemaform.h"

#include "project/schemavalidator.h"

#include <QLabel>
#include <QVBoxLayout>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>

/// The fields a SchemaForm is built of, one kind per schema shape. createField() picks
/// the kind; each kind lives in a file of its own (schemaformscalarfields.cpp: string,
/// enum/const, number/integer, boolean, null, raw JSON; schemaformobjectfield.cpp,
/// schemaformarrayfield.cpp, schemaformunionfield.cpp).
namespace schemaform {

using json = nlohmann::json;
using Callback = std::function<void()>;

/// A JSON string's text, any other value's JSON.
QString text(const json &value);
/// The schema's types as a list ("type": "x" or ["x", "null"]); empty when untyped.
QStringList types(const json &schema);
/// The schema's `default`; `has` tells whether it has one.
json defaultOf(const json &schema, bool *has);

/// One field of the form: an editor row and the error message under it.
class Field : public QWidget
{
public:
    Field(const json &schema, Callback changed, QWidget *parent)
        : QWidget(parent)
        , m_schema(schema)
        , m_changed(std::move(changed))
    {
        auto *outer = new QVBoxLayout(this);
        outer->setContentsMargins(0, 0, 0, 0);
        outer->setSpacing(2);
        m_body = new QVBoxLayout;
        m_body->setContentsMargins(0, 0, 0, 0);
        outer->addLayout(m_body);
        m_errorLabel = new QLabel(this);
        m_errorLabel->setObjectName(QStringLiteral("fieldError"));
        m_errorLabel->setWordWrap(true);
        QPalette pal = m_errorLabel->palette();
        pal.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
        m_errorLabel->setPalette(pal);
        m_errorLabel->hide();
        outer->addWidget(m_errorLabel);
    }

    virtual json value() const = 0;
    virtual void setValue(const json &value) = 0;
    virtual Field *child(const std::string &) const { return nullptr; }
    virtual QWidget *control(const QString &) const { return nullptr; }
    /// The control with `role` of this field's member `token` ("include" of an optional
    /// property, "remove"/"up"/"down" of an array item); nullptr when there is none.
    virtual QWidget *memberControl(const std::string &token, const QString &role) const
    {
        Q_UNUSED(token);
        Q_UNUSED(role);
        return nullptr;
    }
    /// The field's own problem (not the validator's), reported with its pointer.
    virtual void collectLocalErrors(const QString &pointer, QList<SchemaForm::Problem> &out) const
    {
        Q_UNUSED(pointer);
        Q_UNUSED(out);
    }
    virtual void clearErrors() { setError({}); }
    /// Calls `fn` for this field and every field under it that is part of the value.
    virtual void visit(const QString &pointer, const std::function<void(Field *, const QString &)> &fn)
    {
        fn(this, pointer);
    }
    /// Whether the object this field edits requires its property `token` (an object's
    /// `required`; a union asks its current branch). False for every other kind.
    virtual bool requiresMember(const std::string &token) const
    {
        Q_UNUSED(token);
        return false;
    }
    /// True once the person changed this field (its own editor, not a child's).
    bool isEdited() const { return m_edited; }
    /// The field's value checked against its own schema alone; nullopt when valid or
    /// when the subschema does not compile on its own (a `$ref` into the root).
    std::optional<SchemaValidator::Failure> check() const
    {
        if (!m_validatorCompiled) {
            m_validator = SchemaValidator::compile(m_schema);
            m_validatorCompiled = true;
        }
        return m_validator ? m_validator->validate(value()) : std::nullopt;
    }

    void setError(const QString &message)
    {
        m_errorLabel->setText(message);
        m_errorLabel->setVisible(!message.isEmpty());
    }
    QString error() const { return m_errorLabel->text(); }

protected:
    /// Shows the schema's `default` when it has one (the kinds' constructors).
    void showDefault()
    {
        bool has = false;
        const json initial = defaultOf(m_schema, &has);
        if (has)
            setValue(initial);
    }
    void changed() const
    {
        m_edited = true;
        if (m_changed)
            m_changed();
    }
    json m_schema;
    Callback m_changed;
    QVBoxLayout *m_body = nullptr;
    QLabel *m_errorLabel = nullptr;
    mutable bool m_edited = false;
    mutable std::unique_ptr<SchemaValidator> m_validator;
    mutable bool m_validatorCompiled = false;
};

/// The field for `schema`: a branch selector for anyOf/oneOf and type lists, a combo
/// box for enum/const, then by type; raw JSON for what has no editor of its own.
/// `order`: property order of a top-level object.
Field *createField(const json &schema, const Callback &changed, QWidget *parent, const QStringList &order = {});

// The kinds of field, for createField().
Field *createStringField(const json &schema, const Callback &changed, QWidget *parent);
Field *createEnumField(const json &schema, const Callback &changed, QWidget *parent);
Field *createNumberField(const json &schema, bool integer, const Callback &changed, QWidget *parent);
Field *createBooleanField(const json &schema, const Callback &changed, QWidget *parent);
Field *createNullField(const json &schema, const Callback &changed, QWidget *parent);
Field *createRawField(const json &schema, const Callback &changed, QWidget *parent);
Field *createObjectField(const json &schema, const Callback &changed, QWidget *parent, const QStringList &order,
                         bool framed);
Field *createArrayField(const json &schema, const Callback &changed, QWidget *parent);
Field *createUnionField(const json &schema, const json &branches, const Callback &changed, QWidget *parent);

} // namespace schemaform
