// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemaformfield.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QToolButton>

namespace schemaform {

namespace {

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
        showDefault();
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
    QWidget *memberControl(const std::string &token, const QString &role) const override
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

} // namespace

Field *createArrayField(const json &schema, const Callback &changed, QWidget *parent)
{
    return new ArrayField(schema, changed, parent);
}

} // namespace schemaform
