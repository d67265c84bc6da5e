// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaform.h"

#include "project/jsonerror.h"
#include "project/schemavalidator.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <functional>
#include <limits>

using json = nlohmann::json;

namespace schemaform {

using Callback = std::function<void()>;

QString text(const json &value)
{
    return QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
}

// The schema's types as a list ("type": "x" or ["x", "null"]); empty when untyped.
QStringList types(const json &schema)
{
    QStringList out;
    if (!schema.is_object() || !schema.contains("type"))
        return out;
    const json &type = schema["type"];
    if (type.is_string())
        out.append(QString::fromStdString(type.get<std::string>()));
    else if (type.is_array())
        for (const json &t : type)
            if (t.is_string())
                out.append(QString::fromStdString(t.get<std::string>()));
    return out;
}

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

Field *createField(const json &schema, const Callback &changed, QWidget *parent, const QStringList &order = {});

json defaultOf(const json &schema, bool *has)
{
    *has = schema.is_object() && schema.contains("default");
    return *has ? schema["default"] : json();
}

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
        bool has = false;
        const json initial = defaultOf(schema, &has);
        if (has)
            m_edit->setText(text(initial));
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
        bool has = false;
        const json initial = defaultOf(schema, &has);
        if (has)
            setValue(initial);
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
        bool has = false;
        const json initial = defaultOf(schema, &has);
        if (has)
            setValue(initial);
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
        bool has = false;
        const json initial = defaultOf(schema, &has);
        if (has)
            setValue(initial);
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
        auto *label = new QLabel(QStringLiteral("null"), this);
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
            if (required.contains(name)) {
                auto *label = new QLabel(name + QStringLiteral(" *"), box);
                label->setToolTip(tip.isEmpty() ? SchemaForm::tr("required") : tip);
                label->setBuddy(row.field->control(QStringLiteral("editor")));
                form->addRow(label, row.field);
            } else {
                row.include = new QCheckBox(name, box);
                row.include->setObjectName(QStringLiteral("include"));
                // Issue 20 "Forms that send what the person means": an optional property
                // is sent only when ticked; its default shows (greyed) in the field and is
                // not sent, so the tool applies its own default.
                bool hasDefault = false;
                const json fallback = defaultOf(property, &hasDefault);
                QString hint
                    = tip.isEmpty() ? SchemaForm::tr("Tick to send this property; unticked it is omitted") : tip;
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
            if (!row.include || row.include->isChecked())
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
    QCheckBox *includeOf(const std::string &token) const
    {
        for (const Row &row : m_rows)
            if (row.name == token)
                return row.include;
        return nullptr;
    }
    void collectLocalErrors(const QString &pointer, QList<SchemaForm::Problem> &out) const override
    {
        for (const Row &row : m_rows)
            if (!row.include || row.include->isChecked())
                row.field->collectLocalErrors(pointer + QLatin1Char('/') + QString::fromStdString(row.name), out);
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
            if (!row.include || row.include->isChecked())
                row.field->visit(pointer + QLatin1Char('/') + QString::fromStdString(row.name), fn);
    }

private:
    struct Row
    {
        std::string name;
        Field *field = nullptr;
        QCheckBox *include = nullptr; ///< nullptr for required properties
    };
    std::vector<Row> m_rows;
    json m_extra = json::object();
};

class ArrayField : public Field
{
public:
    ArrayField(const json &schema, Callback changed, QWidget *parent)
        : Field(schema, std::move(changed), parent)
    {
        m_itemSchema = schema.value("items", json::object());
        m_items = new QVBoxLayout;
        m_items->setContentsMargins(0, 0, 0, 0);
        m_body->addLayout(m_items);
        m_add = new QPushButton(SchemaForm::tr("Add item"), this);
        m_add->setObjectName(QStringLiteral("add"));
        auto *addRow = new QHBoxLayout;
        addRow->addWidget(m_add);
        addRow->addStretch();
        m_body->addLayout(addRow);
        QObject::connect(m_add, &QPushButton::clicked, this, [this] {
            addItem(std::nullopt);
            this->changed();
        });
        bool has = false;
        const json initial = defaultOf(schema, &has);
        if (has)
            setValue(initial);
    }
    json value() const override
    {
        json out = json::array();
        for (const Item &item : m_list)
            out.push_back(item.field->value());
        return out;
    }
    void setValue(const json &value) override
    {
        while (!m_list.empty())
            removeItem(0);
        if (!value.is_array())
            return;
        for (const json &v : value)
            addItem(v);
    }
    Field *child(const std::string &token) const override
    {
        bool ok = false;
        const int i = QString::fromStdString(token).toInt(&ok);
        return ok && i >= 0 && std::size_t(i) < m_list.size() ? m_list[std::size_t(i)].field : nullptr;
    }
    QWidget *control(const QString &role) const override { return role == QLatin1String("add") ? m_add : nullptr; }
    QWidget *itemControl(const std::string &token, const QString &role) const
    {
        bool ok = false;
        const int i = QString::fromStdString(token).toInt(&ok);
        if (!ok || i < 0 || std::size_t(i) >= m_list.size())
            return nullptr;
        const Item &item = m_list[std::size_t(i)];
        if (role == QLatin1String("remove"))
            return item.remove;
        if (role == QLatin1String("up"))
            return item.up;
        if (role == QLatin1String("down"))
            return item.down;
        return nullptr;
    }
    void collectLocalErrors(const QString &pointer, QList<SchemaForm::Problem> &out) const override
    {
        for (std::size_t i = 0; i < m_list.size(); ++i)
            m_list[i].field->collectLocalErrors(pointer + QLatin1Char('/') + QString::number(i), out);
    }
    void clearErrors() override
    {
        setError({});
        for (const Item &item : m_list)
            item.field->clearErrors();
    }
    void visit(const QString &pointer, const std::function<void(Field *, const QString &)> &fn) override
    {
        fn(this, pointer);
        for (std::size_t i = 0; i < m_list.size(); ++i)
            m_list[i].field->visit(pointer + QLatin1Char('/') + QString::number(i), fn);
    }

private:
    struct Item
    {
        QWidget *row = nullptr;
        Field *field = nullptr;
        QToolButton *up = nullptr;
        QToolButton *down = nullptr;
        QToolButton *remove = nullptr;
    };

    QToolButton *button(QWidget *parent, const QString &label, const QString &tip, const char *name)
    {
        auto *b = new QToolButton(parent);
        b->setText(label);
        b->setToolTip(tip);
        b->setObjectName(QString::fromLatin1(name));
        b->setAutoRaise(true);
        return b;
    }

    void addItem(const std::optional<json> &value)
    {
        Item item;
        item.row = new QWidget(this);
        auto *layout = new QHBoxLayout(item.row);
        layout->setContentsMargins(0, 0, 0, 0);
        item.field = createField(m_itemSchema, m_changed, item.row);
        if (value)
            item.field->setValue(*value);
        layout->addWidget(item.field, 1);
        item.up = button(item.row, QStringLiteral("↑"), SchemaForm::tr("Move up"), "up");
        item.down = button(item.row, QStringLiteral("↓"), SchemaForm::tr("Move down"), "down");
        item.remove = button(item.row, QStringLiteral("✕"), SchemaForm::tr("Remove this item"), "remove");
        for (QToolButton *b : {item.up, item.down, item.remove})
            layout->addWidget(b, 0, Qt::AlignTop);
        QWidget *row = item.row;
        QObject::connect(item.up, &QToolButton::clicked, this, [this, row] { move(row, -1); });
        QObject::connect(item.down, &QToolButton::clicked, this, [this, row] { move(row, +1); });
        QObject::connect(item.remove, &QToolButton::clicked, this, [this, row] {
            removeItem(indexOf(row));
            this->changed();
        });
        m_items->addWidget(item.row);
        m_list.push_back(item);
    }
    int indexOf(QWidget *row) const
    {
        for (std::size_t i = 0; i < m_list.size(); ++i)
            if (m_list[i].row == row)
                return int(i);
        return -1;
    }
    void removeItem(int index)
    {
        if (index < 0 || std::size_t(index) >= m_list.size())
            return;
        QWidget *row = m_list[std::size_t(index)].row;
        m_list.erase(m_list.begin() + index);
        m_items->removeWidget(row);
        row->deleteLater();
        row->hide();
    }
    void move(QWidget *row, int delta)
    {
        const int from = indexOf(row);
        const int to = from + delta;
        if (from < 0 || to < 0 || std::size_t(to) >= m_list.size())
            return;
        std::swap(m_list[std::size_t(from)], m_list[std::size_t(to)]);
        m_items->removeWidget(row);
        m_items->insertWidget(to, row);
        changed();
    }

    json m_itemSchema;
    QVBoxLayout *m_items = nullptr;
    QPushButton *m_add = nullptr;
    std::vector<Item> m_list;
};

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
        bool has = false;
        const json initial = defaultOf(schema, &has);
        if (has)
            setValue(initial);
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

Field *createField(const json &schema, const Callback &changed, QWidget *parent, const QStringList &order)
{
    if (!schema.is_object())
        return new RawField(json::object(), changed, parent);
    for (const char *key : {"anyOf", "oneOf"}) {
        if (schema.contains(key) && schema[key].is_array() && !schema[key].empty())
            return new UnionField(schema, schema[key], changed, parent);
    }
    if (schema.contains("enum") && schema["enum"].is_array() && !schema["enum"].empty())
        return new EnumField(schema, changed, parent);
    if (schema.contains("const"))
        return new EnumField(schema, changed, parent);
    const QStringList t = types(schema);
    if (t.size() > 1) {
        json branches = json::array();
        for (const QString &type : t) {
            json branch = schema;
            branch["type"] = type.toStdString();
            branch.erase("default");
            branches.push_back(branch);
        }
        return new UnionField(schema, branches, changed, parent);
    }
    const QString type = t.value(0);
    if (type == QLatin1String("string"))
        return new StringField(schema, changed, parent);
    if (type == QLatin1String("integer") || type == QLatin1String("number"))
        return new NumberField(schema, type == QLatin1String("integer"), changed, parent);
    if (type == QLatin1String("boolean"))
        return new BooleanField(schema, changed, parent);
    if (type == QLatin1String("null"))
        return new NullField(schema, changed, parent);
    if (type == QLatin1String("array"))
        return new ArrayField(schema, changed, parent);
    if ((type == QLatin1String("object") || (type.isEmpty() && schema.contains("properties")))
        && schema.contains("properties") && schema["properties"].is_object())
        return new ObjectField(schema, changed, parent, order,
                               parent && parent->objectName() != QLatin1String("formPage"));
    return new RawField(schema, changed, parent);
}

// RFC 6901 tokens of a pointer.
std::vector<std::string> tokens(const QString &pointer)
{
    std::vector<std::string> out;
    const QStringList parts = pointer.split(QLatin1Char('/'));
    for (qsizetype i = 1; i < parts.size(); ++i) {
        QString part = parts[i];
        part.replace(QStringLiteral("~1"), QStringLiteral("/")).replace(QStringLiteral("~0"), QStringLiteral("~"));
        out.push_back(part.toStdString());
    }
    return out;
}

} // namespace schemaform

using namespace schemaform;

QString SchemaForm::Problem::toString() const
{
    return (pointer.isEmpty() ? QStringLiteral("(root)") : pointer) + QStringLiteral(": ") + message;
}

SchemaForm::SchemaForm(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_rawToggle = new QCheckBox(SchemaForm::tr("Raw &JSON"), this);
    m_rawToggle->setObjectName(QStringLiteral("rawToggle"));
    m_rawToggle->setToolTip(SchemaForm::tr("Edit the value as JSON text; the form follows"));
    layout->addWidget(m_rawToggle);
    m_stack = new QStackedWidget(this);
    auto *scroll = new QScrollArea(m_stack);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_formPage = new QWidget(scroll);
    m_formPage->setObjectName(QStringLiteral("formPage"));
    auto *formLayout = new QVBoxLayout(m_formPage);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addStretch();
    scroll->setWidget(m_formPage);
    m_stack->addWidget(scroll);
    m_rawEdit = new QPlainTextEdit(m_stack);
    m_rawEdit->setObjectName(QStringLiteral("rawEdit"));
    m_rawEdit->setTabChangesFocus(true);
    // The form's height follows its fields, not the text edit's default size hint.
    m_rawEdit->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    m_stack->addWidget(m_rawEdit);
    layout->addWidget(m_stack, 1);
    m_problemLabel = new QLabel(this);
    m_problemLabel->setObjectName(QStringLiteral("problem"));
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_problemLabel);

    connect(m_rawToggle, &QCheckBox::toggled, this, &SchemaForm::setRawMode);
    connect(m_rawEdit, &QPlainTextEdit::textChanged, this, &SchemaForm::rawTextChanged);
    for (const QKeySequence &key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(key, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &SchemaForm::submitted);
    }
}

SchemaForm::~SchemaForm() = default;

void SchemaForm::setSchema(const nlohmann::json &schema, const QStringList &order)
{
    m_schema = schema;
    QString error;
    m_validator = SchemaValidator::compile(schema, &error);
    delete m_root;
    m_root = createField(
        schema, [this] { fieldChanged(); }, m_formPage, order);
    static_cast<QVBoxLayout *>(m_formPage->layout())->insertWidget(0, m_root);
    m_rawValue.reset();
    m_rawError.clear();
    m_revealAll = false;
    m_updating = true;
    m_rawEdit->setPlainText(QString::fromStdString(m_root->value().dump(2)));
    m_updating = false;
    setTabOrder(m_rawToggle, m_root);
    validate();
}

nlohmann::json SchemaForm::value() const
{
    if (isRawMode() && m_rawValue)
        return *m_rawValue;
    return m_root ? m_root->value() : json();
}

void SchemaForm::setValue(const nlohmann::json &value)
{
    if (!m_root)
        return;
    m_updating = true;
    m_root->setValue(value);
    m_rawValue = value;
    m_rawError.clear();
    m_rawEdit->setPlainText(QString::fromStdString(value.dump(2)));
    m_updating = false;
    validate();
    Q_EMIT valueChanged();
}

bool SchemaForm::isRawMode() const
{
    return m_stack->currentIndex() == 1;
}

void SchemaForm::setRawMode(bool raw)
{
    if (raw == isRawMode())
        return;
    const QSignalBlocker blocker(m_rawToggle);
    m_rawToggle->setChecked(raw);
    if (raw) {
        m_updating = true;
        const json v = m_root ? m_root->value() : json();
        m_rawEdit->setPlainText(QString::fromStdString(v.dump(2)));
        m_rawValue = v;
        m_rawError.clear();
        m_updating = false;
    }
    m_stack->setCurrentIndex(raw ? 1 : 0);
    validate();
}

void SchemaForm::fieldChanged()
{
    if (m_updating)
        return;
    m_updating = true;
    m_rawEdit->setPlainText(QString::fromStdString(m_root->value().dump(2)));
    m_updating = false;
    validate();
    Q_EMIT valueChanged();
}

void SchemaForm::rawTextChanged()
{
    if (m_updating)
        return;
    const QByteArray text = m_rawEdit->toPlainText().toUtf8();
    JsonInput::Problem refused;
    const json v = JsonInput::read<json>(std::string_view(text.constData(), std::size_t(text.size())), &refused);
    if (v.is_discarded()) {
        m_rawValue.reset();
        m_rawError = SchemaForm::tr("malformed JSON at %1").arg(describeJsonProblem(text, refused));
    } else {
        m_rawValue = v;
        m_rawError.clear();
        m_updating = true;
        if (m_root)
            m_root->setValue(v); // the form follows the text
        m_updating = false;
    }
    validate();
    Q_EMIT valueChanged();
}

Field *SchemaForm::fieldAt(const QString &pointer) const
{
    Field *field = m_root;
    for (const std::string &token : tokens(pointer)) {
        if (!field)
            return nullptr;
        field = field->child(token);
    }
    return field;
}

void SchemaForm::validate()
{
    m_problem.reset();
    if (m_root)
        m_root->clearErrors();
    QList<Problem> local;
    if (isRawMode() && !m_rawError.isEmpty()) {
        m_problem = Problem{QString(), m_rawError};
    } else {
        if (m_root && !isRawMode())
            m_root->collectLocalErrors(QString(), local);
        if (!local.isEmpty()) {
            m_problem = local.first();
        } else if (m_validator) {
            if (const auto failure = m_validator->validate(value()))
                m_problem = Problem{failure->pointer, failure->message};
        }
    }

    // What is shown: before Send only the errors of fields the person edited, and of
    // those only the field's own value (a required property still missing waits for
    // Send); after Send every error, starting with problem().
    std::optional<Problem> shown;
    const auto show = [&](const Problem &p) {
        // At the deepest field that exists on the way to the pointer.
        QString pointer = p.pointer;
        Field *field = fieldAt(pointer);
        while (!field && !pointer.isEmpty()) {
            pointer.truncate(pointer.lastIndexOf(QLatin1Char('/')));
            field = fieldAt(pointer);
        }
        if (field && !isRawMode() && field->error().isEmpty())
            field->setError(p.message);
        if (!shown)
            shown = p;
    };
    if (m_problem && (m_revealAll || isRawMode()))
        show(*m_problem);
    if (m_root && !isRawMode()) {
        for (const Problem &p : std::as_const(local)) {
            Field *field = fieldAt(p.pointer);
            if (m_revealAll || (field && field->isEdited()))
                show(p);
        }
        m_root->visit(QString(), [&](Field *field, const QString &pointer) {
            if (!m_revealAll && !field->isEdited())
                return;
            for (const Problem &p : std::as_const(local))
                if (p.pointer == pointer)
                    return;
            if (const auto failure = field->check(); failure && failure->pointer.isEmpty())
                show(Problem{pointer, failure->message});
        });
    }
    if (shown) {
        m_problemLabel->setText(shown->toString());
        m_problemLabel->setStyleSheet(QStringLiteral("color: #c62828"));
    } else {
        m_problemLabel->setText(m_problem ? QString() : SchemaForm::tr("Valid"));
        m_problemLabel->setStyleSheet(QString());
    }
}

void SchemaForm::revealErrors()
{
    m_revealAll = true;
    validate();
}

void SchemaForm::setRawToggleVisible(bool visible)
{
    m_rawToggle->setVisible(visible);
}

QString SchemaForm::errorAt(const QString &pointer) const
{
    const Field *field = fieldAt(pointer);
    return field ? field->error() : QString();
}

QWidget *SchemaForm::control(const QString &pointer, const QString &role) const
{
    const std::vector<std::string> path = tokens(pointer);
    if (role == QLatin1String("include") || role == QLatin1String("remove") || role == QLatin1String("up")
        || role == QLatin1String("down")) {
        if (path.empty())
            return nullptr;
        QString parentPointer = pointer.left(pointer.lastIndexOf(QLatin1Char('/')));
        Field *parent = fieldAt(parentPointer);
        if (auto *object = dynamic_cast<ObjectField *>(parent))
            return role == QLatin1String("include") ? object->includeOf(path.back()) : nullptr;
        if (auto *array = dynamic_cast<ArrayField *>(parent))
            return array->itemControl(path.back(), role);
        return nullptr;
    }
    Field *field = fieldAt(pointer);
    return field ? field->control(role) : nullptr;
}
