// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaformfield.h"

#include <QComboBox>
#include <QStackedWidget>

namespace schemaform {

namespace {

/// anyOf / oneOf / a list of types: a selector for the branch and the branch's field.
class UnionField : public Field
{
public:
    UnionField(const json &schema, const json &branches, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
    {
        m_combo = new QComboBox(this);
        m_combo->setObjectName(QStringLiteral("branch"));
        m_stack = new QStackedWidget(this);
        m_body->addWidget(m_combo);
        m_body->addWidget(m_stack);
        int n = 0;
        for (const json &branch : branches) {
            ++n;
            QString label;
            if (branch.contains("title") && branch["title"].is_string())
                label = text(branch["title"]);
            else if (!types(branch).isEmpty())
                label = types(branch).join(QStringLiteral(" | "));
            else
                label = SchemaForm::tr("option %1").arg(n);
            m_combo->addItem(label);
            Field *field = createField(branch, m_changed, m_stack);
            m_stack->addWidget(field);
            m_fields.push_back(field);
            m_validators.push_back(SchemaValidator::compile(branch));
        }
        QObject::connect(m_combo, &QComboBox::activated, this, [this](int index) {
            m_stack->setCurrentIndex(index);
            this->changed();
        });
        showDefault();
    }
    json value() const override
    {
        const int i = m_stack->currentIndex();
        return i >= 0 ? m_fields[std::size_t(i)]->value() : json();
    }
    void setValue(const json &value) override
    {
        for (std::size_t i = 0; i < m_fields.size(); ++i) {
            if (m_validators[i] && !m_validators[i]->validate(value)) {
                m_combo->setCurrentIndex(int(i));
                m_stack->setCurrentIndex(int(i));
                m_fields[i]->setValue(value);
                return;
            }
        }
    }
    Field *child(const std::string &token) const override
    {
        const int i = m_stack->currentIndex();
        return i >= 0 ? m_fields[std::size_t(i)]->child(token) : nullptr;
    }
    bool requiresMember(const std::string &token) const override
    {
        const int i = m_stack->currentIndex();
        return i >= 0 && m_fields[std::size_t(i)]->requiresMember(token);
    }
    QWidget *control(const QString &role) const override
    {
        if (role == QLatin1String("branch"))
            return m_combo;
        const int i = m_stack->currentIndex();
        return i >= 0 ? m_fields[std::size_t(i)]->control(role) : nullptr;
    }
    void collectLocalErrors(const QString &pointer, QList<SchemaForm::Problem> &out) const override
    {
        const int i = m_stack->currentIndex();
        if (i >= 0)
            m_fields[std::size_t(i)]->collectLocalErrors(pointer, out);
    }
    void clearErrors() override
    {
        setError({});
        for (Field *f : m_fields)
            f->clearErrors();
    }
    void visit(const QString &pointer, const std::function<void(Field *, const QString &)> &fn) override
    {
        fn(this, pointer);
        const int i = m_stack->currentIndex();
        if (i >= 0)
            m_fields[std::size_t(i)]->visit(pointer, fn);
    }

private:
    QComboBox *m_combo = nullptr;
    QStackedWidget *m_stack = nullptr;
    std::vector<Field *> m_fields;
    std::vector<std::unique_ptr<SchemaValidator>> m_validators;
};

} // namespace

Field *createUnionField(const json &schema, const json &branches, const Callback &changed, QWidget *parent)
{
    return new UnionField(schema, branches, changed, parent);
}

} // namespace schemaform
