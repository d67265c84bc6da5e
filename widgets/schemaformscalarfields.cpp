// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaformfield.h"

#include "jsoninput.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>

#include <cmath>

namespace schemaform {

namespace {

QString formatHint(const json &schema)
{
    if (!schema.contains("format") || !schema["format"].is_string())
        return {};
    const std::string format = schema["format"].get<std::string>();
    if (format == "date-time")
        return QStringLiteral("2026-01-31T12:00:00Z");
    if (format == "date")
        return QStringLiteral("2026-01-31");
    if (format == "time")
        return QStringLiteral("12:00:00Z");
    if (format == "email")
        return QStringLiteral("name@example.com");
    if (format == "uri" || format == "url")
        return QStringLiteral("https://example.com/");
    return QString::fromStdString(format);
}

class StringField : public Field
{
public:
    StringField(const json &schema, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
    {
        m_edit = new QLineEdit(this);
        m_edit->setObjectName(QStringLiteral("editor"));
        const bool secret = (schema.contains("format") && schema["format"] == "password")
            || (schema.contains("writeOnly") && schema["writeOnly"] == true);
        if (secret)
            m_edit->setEchoMode(QLineEdit::Password);
        else
            m_edit->setPlaceholderText(formatHint(schema));
        if (schema.contains("description") && schema["description"].is_string())
            m_edit->setToolTip(text(schema["description"]));
        m_body->addWidget(m_edit);
        showDefault();
        QObject::connect(m_edit, &QLineEdit::textEdited, this, [this] { this->changed(); });
    }
    json value() const override { return m_edit->text().toStdString(); }
    void setValue(const json &value) override { m_edit->setText(text(value)); }
    QWidget *control(const QString &role) const override { return role == QLatin1String("editor") ? m_edit : nullptr; }

private:
    QLineEdit *m_edit = nullptr;
};

/// `enum` and `const`: a combo box of the allowed values (any JSON type).
class EnumField : public Field
{
public:
    EnumField(const json &schema, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
    {
        m_values = schema.contains("enum") ? schema["enum"] : json::array({schema["const"]});
        m_combo = new QComboBox(this);
        m_combo->setObjectName(QStringLiteral("editor"));
        for (const json &v : m_values)
            m_combo->addItem(text(v));
        m_body->addWidget(m_combo);
        showDefault();
        QObject::connect(m_combo, &QComboBox::activated, this, [this] { this->changed(); });
    }
    json value() const override
    {
        const int i = m_combo->currentIndex();
        return i >= 0 && std::size_t(i) < m_values.size() ? m_values[std::size_t(i)] : json();
    }
    void setValue(const json &value) override
    {
        for (std::size_t i = 0; i < m_values.size(); ++i)
            if (m_values[i] == value)
                m_combo->setCurrentIndex(int(i));
    }
    QWidget *control(const QString &role) const override { return role == QLatin1String("editor") ? m_combo : nullptr; }

private:
    json m_values;
    QComboBox *m_combo = nullptr;
};

class NumberField : public Field
{
public:
    NumberField(const json &schema, bool integer, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
        , m_integer(integer)
    {
        m_edit = new QLineEdit(this);
        m_edit->setObjectName(QStringLiteral("editor"));
        QString hint = integer ? SchemaForm::tr("integer") : SchemaForm::tr("number");
        const bool hasMin = schema.contains("minimum") && schema["minimum"].is_number();
        const bool hasMax = schema.contains("maximum") && schema["maximum"].is_number();
        if (hasMin && hasMax)
            hint = SchemaForm::tr("%1 from %2 to %3").arg(hint, text(schema["minimum"]), text(schema["maximum"]));
        else if (hasMin)
            hint = SchemaForm::tr("%1 ≥ %2").arg(hint, text(schema["minimum"]));
        else if (hasMax)
            hint = SchemaForm::tr("%1 ≤ %2").arg(hint, text(schema["maximum"]));
        m_edit->setPlaceholderText(hint);
        m_body->addWidget(m_edit);
        showDefault();
        QObject::connect(m_edit, &QLineEdit::textEdited, this, [this] { this->changed(); });
    }

    std::optional<json> parsed() const
    {
        const QString t = m_edit->text().trimmed();
        if (t.isEmpty())
            return std::nullopt;
        bool ok = false;
        const qlonglong asInt = t.toLongLong(&ok);
        if (ok)
            return json(std::int64_t(asInt));
        const double asDouble = t.toDouble(&ok);
        if (!ok || !std::isfinite(asDouble))
            return std::nullopt;
        // "1e3" or "2.0" in an integer field is the integer 1000 or 2 (issue 17 §4): sent,
        // journaled and exported as an integer, never as 1000.0 (which `integer` refuses).
        constexpr double Int64Bound = 9223372036854775808.0; // 2^63
        if (m_integer && asDouble == std::floor(asDouble) && asDouble >= -Int64Bound && asDouble < Int64Bound)
            return json(std::int64_t(asDouble));
        return json(asDouble);
    }
    json value() const override { return parsed().value_or(json()); }
    void setValue(const json &value) override { m_edit->setText(value.is_null() ? QString() : text(value)); }
    QWidget *control(const QString &role) const override { return role == QLatin1String("editor") ? m_edit : nullptr; }
    void collectLocalErrors(const QString &pointer, QList<SchemaForm::Problem> &out) const override
    {
        const QString t = m_edit->text().trimmed();
        if (t.isEmpty())
            out.append({pointer, m_integer ? SchemaForm::tr("enter an integer") : SchemaForm::tr("enter a number")});
        else if (!parsed())
            out.append({pointer, SchemaForm::tr("“%1” is not a number").arg(t)});
    }

private:
    bool m_integer = false;
    QLineEdit *m_edit = nullptr;
};

class BooleanField : public Field
{
public:
    BooleanField(const json &schema, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
    {
        m_check = new QCheckBox(SchemaForm::tr("true"), this);
        m_check->setObjectName(QStringLiteral("editor"));
        m_body->addWidget(m_check);
        showDefault();
        QObject::connect(m_check, &QCheckBox::toggled, this, [this] {
            m_check->setText(m_check->isChecked() ? SchemaForm::tr("true") : SchemaForm::tr("false"));
            this->changed();
        });
        m_check->setText(m_check->isChecked() ? SchemaForm::tr("true") : SchemaForm::tr("false"));
    }
    json value() const override { return m_check->isChecked(); }
    void setValue(const json &value) override
    {
        m_check->setChecked(value.is_boolean() && value.get<bool>());
        m_check->setText(m_check->isChecked() ? SchemaForm::tr("true") : SchemaForm::tr("false"));
    }
    QWidget *control(const QString &role) const override { return role == QLatin1String("editor") ? m_check : nullptr; }

private:
    QCheckBox *m_check = nullptr;
};

class NullField : public Field
{
public:
    NullField(const json &schema, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
    {
        auto *label = new QLabel(QStringLiteral("null"), this); // not translated: the JSON value
        label->setEnabled(false);
        m_body->addWidget(label);
    }
    json value() const override { return nullptr; }
    void setValue(const json &) override {}
};

/// Any JSON as text: untyped schemas, free-form objects, `$ref`.
class RawField : public Field
{
public:
    RawField(const json &schema, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
    {
        m_edit = new QLineEdit(this);
        m_edit->setObjectName(QStringLiteral("editor"));
        m_edit->setPlaceholderText(SchemaForm::tr("JSON value"));
        m_body->addWidget(m_edit);
        bool has = false;
        const json initial = defaultOf(schema, &has);
        const QStringList t = types(schema);
        if (has)
            m_edit->setText(QString::fromStdString(initial.dump()));
        else if (t.contains(QLatin1String("object")))
            m_edit->setText(QStringLiteral("{}"));
        QObject::connect(m_edit, &QLineEdit::textEdited, this, [this] { this->changed(); });
    }
    std::optional<json> parsed() const
    {
        const json v = JsonInput::read<json>(m_edit->text().toStdString());
        if (v.is_discarded())
            return std::nullopt;
        return v;
    }
    json value() const override { return parsed().value_or(json()); }
    void setValue(const json &value) override { m_edit->setText(QString::fromStdString(value.dump())); }
    QWidget *control(const QString &role) const override { return role == QLatin1String("editor") ? m_edit : nullptr; }
    void collectLocalErrors(const QString &pointer, QList<SchemaForm::Problem> &out) const override
    {
        if (!parsed())
            out.append({pointer, SchemaForm::tr("not valid JSON")});
    }

private:
    QLineEdit *m_edit = nullptr;
};

} // namespace

Field *createStringField(const json &schema, const Callback &changed, QWidget *parent)
{
    return new StringField(schema, changed, parent);
}

Field *createEnumField(const json &schema, const Callback &changed, QWidget *parent)
{
    return new EnumField(schema, changed, parent);
}

Field *createNumberField(const json &schema, bool integer, const Callback &changed, QWidget *parent)
{
    return new NumberField(schema, integer, changed, parent);
}

Field *createBooleanField(const json &schema, const Callback &changed, QWidget *parent)
{
    return new BooleanField(schema, changed, parent);
}

Field *createNullField(const json &schema, const Callback &changed, QWidget *parent)
{
    return new NullField(schema, changed, parent);
}

Field *createRawField(const json &schema, const Callback &changed, QWidget *parent)
{
    return new RawField(schema, changed, parent);
}

} // namespace schemaform
