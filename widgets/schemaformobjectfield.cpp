// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaformfield.h"

#include "project/printabletext.h"
#include "project/schematext.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QFrame>
#include <QLineEdit>
#include <QSet>

#include <algorithm>

namespace schemaform {

namespace {

/// The JSON Pointer of the member `name` of the object at `pointer`, its name escaped
/// ('~' → "~0", '/' → "~1") as the validator's pointers and SchemaForm::control() have it.
QString memberPointer(const QString &pointer, const std::string &name)
{
    return pointer + QLatin1Char('/') + SchemaText::escapePointerToken(QString::fromStdString(name));
}

class ObjectField : public Field
{
public:
    ObjectField(const json &schema, Callback changed, QWidget *parent, const QStringList &order, bool framed)
        : Field(schema, std::move(changed), parent)
    {
        QWidget *box = this;
        if (framed) {
            auto *frame = new QFrame(this);
            frame->setFrameShape(QFrame::StyledPanel);
            m_body->addWidget(frame);
            box = frame;
        }
        auto *form = new QFormLayout;
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
        if (framed) {
            box->setLayout(form);
        } else {
            form->setContentsMargins(0, 0, 0, 0);
            m_body->addLayout(form);
        }

        QStringList names = order;
        QSet<QString> required;
        if (schema.contains("required") && schema["required"].is_array())
            for (const json &r : schema["required"])
                if (r.is_string())
                    required.insert(text(r));
        const json properties = schema.value("properties", json::object());
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            const QString name = QString::fromStdString(it.key());
            if (!names.contains(name))
                names.append(name);
        }
        names.erase(std::remove_if(names.begin(), names.end(),
                                   [&](const QString &n) { return !properties.contains(n.toStdString()); }),
                    names.end());
        for (const QString &name : std::as_const(names)) {
            const json &property = properties[name.toStdString()];
            Row row;
            row.name = name.toStdString();
            row.field = createField(property, m_changed, box);
            const QString tip = property.contains("description") ? text(property["description"]) : QString();
            // A `title` (an MCP elicitation's label) shown with the property's name, which the
            // JSON sent uses; a server's text, so plain text and elided.
            const QString title = property.contains("title") && property["title"].is_string()
                ? elidedText(text(property["title"]), 80)
                : QString();
            const QString shown = title.isEmpty() || title == name
                ? elidedText(name, 80)
                : QStringLiteral("%1 (%2)").arg(title, elidedText(name, 80));
            if (required.contains(name)) {
                auto *label = new QLabel(shown + QStringLiteral(" *"), box);
                label->setTextFormat(Qt::PlainText);
                label->setToolTip(tip.isEmpty() ? SchemaForm::tr("required") : tip);
                label->setBuddy(row.field->control(QStringLiteral("editor")));
                form->addRow(label, row.field);
            } else {
                row.include = new QCheckBox(shown, box);
                row.include->setObjectName(QStringLiteral("include"));
                // Issue 20 "Forms that send what the person means": an optional property
                // is sent only when ticked; its default shows (greyed) in the field and is
                // not sent, so the tool applies its own default.
                bool hasDefault = false;
                const json fallback = defaultOf(property, &hasDefault);
                QString hint = tip.isEmpty()
                    ? SchemaForm::tr("Tick to send this property; unticked or left empty it is omitted")
                    : tip;
                if (hasDefault)
                    hint += QLatin1Char('\n')
                        + SchemaForm::tr("Default %1: shown, not sent while unticked")
                              .arg(QString::fromStdString(fallback.dump()));
                row.include->setToolTip(hint);
                row.include->setChecked(false);
                row.field->setEnabled(false);
                Field *field = row.field;
                QCheckBox *include = row.include;
                QObject::connect(include, &QCheckBox::toggled, this, [this, field](bool on) {
                    field->setEnabled(on);
                    this->changed();
                });
                form->addRow(row.include, row.field);
            }
            m_rows.push_back(row);
        }
    }
    json value() const override
    {
        json out = m_extra;
        for (const Row &row : m_rows)
            if (sent(row))
                out[row.name] = row.field->value();
        return out;
    }
    void setValue(const json &value) override
    {
        m_extra = json::object();
        if (!value.is_object())
            return;
        for (auto it = value.begin(); it != value.end(); ++it) {
            const bool known
                = std::any_of(m_rows.begin(), m_rows.end(), [&](const Row &r) { return r.name == it.key(); });
            if (!known)
                m_extra[it.key()] = it.value();
        }
        for (const Row &row : m_rows) {
            const bool present = value.contains(row.name);
            if (present)
                row.field->setValue(value[row.name]);
            if (row.include) {
                const QSignalBlocker blocker(row.include);
                row.include->setChecked(present);
                row.field->setEnabled(present);
            }
        }
    }
    Field *child(const std::string &token) const override
    {
        for (const Row &row : m_rows)
            if (row.name == token)
                return row.field;
        return nullptr;
    }
    QWidget *control(const QString &role) const override
    {
        Q_UNUSED(role);
        return nullptr;
    }
    bool requiresMember(const std::string &token) const override
    {
        return std::any_of(m_rows.begin(), m_rows.end(),
                           [&](const Row &row) { return row.name == token && !row.include; });
    }
    QWidget *memberControl(const std::string &token, const QString &role) const override
    {
        if (role != QLatin1String("include"))
            return nullptr;
        for (const Row &row : m_rows)
            if (row.name == token)
                return row.include;
        return nullptr;
    }
    void collectLocalErrors(const QString &pointer, QList<SchemaForm::Problem> &out) const override
    {
        for (const Row &row : m_rows)
            if (sent(row))
                row.field->collectLocalErrors(memberPointer(pointer, row.name), out);
    }
    void clearErrors() override
    {
        setError({});
        for (const Row &row : m_rows)
            row.field->clearErrors();
    }
    void visit(const QString &pointer, const std::function<void(Field *, const QString &)> &fn) override
    {
        fn(this, pointer);
        for (const Row &row : m_rows)
            if (sent(row))
                row.field->visit(memberPointer(pointer, row.name), fn);
    }

private:
    struct Row
    {
        std::string name;
        Field *field = nullptr;
        QCheckBox *include = nullptr; ///< nullptr for required properties
    };
    /// Issue 20 item 6: an optional property is sent when ticked, unless its text field
    /// is empty — a cleared field is omitted, not sent as "" (or as null for a number).
    /// An empty string is still sent through the form's raw JSON.
    static bool sent(const Row &row)
    {
        if (!row.include)
            return true;
        if (!row.include->isChecked())
            return false;
        const auto *line = qobject_cast<const QLineEdit *>(row.field->control(QStringLiteral("editor")));
        return !line || !line->text().isEmpty();
    }

    std::vector<Row> m_rows;
    json m_extra = json::object();
};

} // namespace

Field *createObjectField(const json &schema, const Callback &changed, QWidget *parent, const QStringList &order,
                         bool framed)
{
    return new ObjectField(schema, changed, parent, order, framed);
}

} // namespace schemaform
