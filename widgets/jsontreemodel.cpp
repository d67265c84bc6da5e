// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsontreemodel.h"

#include <QColor>
#include <QHash>

#include <vector>

struct JsonTreeNode
{
    const nlohmann::json *value = nullptr;
    JsonTreeNode *parent = nullptr;
    int row = 0;
    QString key;
    QString pointer;
    /// Children made on demand, by row.
    QHash<int, JsonTreeNode *> children;
    /// Objects: their members in order, made on the first child lookup (O(keys) once).
    std::vector<nlohmann::json::const_iterator> members;
    bool membersBuilt = false;

    ~JsonTreeNode() { qDeleteAll(children); }
    int count() const { return value && value->is_structured() ? int(value->size()) : 0; }
};

namespace {

QString escapePointer(QString token)
{
    token.replace(QLatin1Char('~'), QStringLiteral("~0"));
    token.replace(QLatin1Char('/'), QStringLiteral("~1"));
    return token;
}

QString dump(const nlohmann::json &value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

JsonTreeModel::JsonTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<JsonTreeNode>())
{}

JsonTreeModel::~JsonTreeModel() = default;

void JsonTreeModel::setJson(const nlohmann::json &value, const QString &rootName)
{
    beginResetModel();
    m_json = value;
    m_root = std::make_unique<JsonTreeNode>();
    auto *top = new JsonTreeNode;
    top->value = &m_json;
    top->parent = m_root.get();
    top->key = rootName;
    m_root->children.insert(0, top);
    m_built = 1;
    endResetModel();
}

void JsonTreeModel::clear()
{
    beginResetModel();
    m_root = std::make_unique<JsonTreeNode>();
    m_json = nullptr;
    m_built = 0;
    endResetModel();
}

bool JsonTreeModel::isEmpty() const
{
    return m_root->children.isEmpty();
}

JsonTreeNode *JsonTreeModel::node(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<JsonTreeNode *>(index.internalPointer()) : m_root.get();
}

JsonTreeNode *JsonTreeModel::child(JsonTreeNode *parent, int row) const
{
    if (JsonTreeNode *existing = parent->children.value(row))
        return existing;
    if (parent == m_root.get() || row < 0 || row >= parent->count())
        return nullptr;
    auto *n = new JsonTreeNode;
    n->parent = parent;
    n->row = row;
    if (parent->value->is_array()) {
        n->value = &(*parent->value)[size_t(row)];
        n->key = QString::number(row);
    } else {
        if (!parent->membersBuilt) {
            parent->members.reserve(parent->value->size());
            for (auto it = parent->value->cbegin(); it != parent->value->cend(); ++it)
                parent->members.push_back(it);
            parent->membersBuilt = true;
        }
        const auto it = parent->members[size_t(row)];
        n->value = &*it;
        n->key = QString::fromStdString(it.key());
    }
    n->pointer = parent->pointer + QLatin1Char('/') + escapePointer(n->key);
    parent->children.insert(row, n);
    ++m_built;
    return n;
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= NUM_COLUMNS || (parent.isValid() && parent.column() != 0))
        return {};
    JsonTreeNode *p = node(parent);
    if (row >= (p == m_root.get() ? int(p->children.size()) : p->count()))
        return {};
    JsonTreeNode *c = child(p, row);
    return c ? createIndex(row, column, c) : QModelIndex();
}

QModelIndex JsonTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    JsonTreeNode *p = node(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, p);
}

int JsonTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    JsonTreeNode *p = node(parent);
    return p == m_root.get() ? int(p->children.size()) : p->count();
}

int JsonTreeModel::columnCount(const QModelIndex &) const
{
    return NUM_COLUMNS;
}

bool JsonTreeModel::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

QString JsonTreeModel::valueText(const nlohmann::json &value, int maxChars)
{
    if (value.is_array())
        return value.empty()    ? QStringLiteral("[]")
            : value.size() == 1 ? tr("[1 item]")
                                : tr("[%1 items]").arg(value.size());
    if (value.is_object())
        return value.empty()    ? QStringLiteral("{}")
            : value.size() == 1 ? tr("{1 key}")
                                : tr("{%1 keys}").arg(value.size());
    if (value.is_string()) {
        const std::string &s = value.get_ref<const std::string &>();
        if (maxChars >= 0 && s.size() > size_t(maxChars) * 4) {
            // Cut before converting so a huge string costs little to show.
            const QString head = QString::fromUtf8(s.data(), qsizetype(maxChars) * 4).left(maxChars);
            return dump(nlohmann::json(head.toStdString()), -1).chopped(1) + QChar(0x2026) + QLatin1Char('"');
        }
        const QString text = dump(value, -1);
        if (maxChars >= 0 && text.size() > maxChars + 2)
            return text.left(maxChars + 1) + QChar(0x2026) + QLatin1Char('"');
        return text;
    }
    return dump(value, -1);
}

QVariant JsonTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const JsonTreeNode *n = node(index);
    const nlohmann::json &value = *n->value;
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == Key ? QVariant(n->key) : QVariant(valueText(value));
    case Qt::ToolTipRole:
        if (index.column() == Value && value.is_string() && data(index, IsElidedRole).toBool())
            return tr("%1 characters; choose \"Show All\" to see the whole string")
                .arg(QString::fromStdString(value.get<std::string>()).size());
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Value && !value.is_structured())
            return value.is_string() ? QColor(0x2e, 0x7d, 0x32) : QColor(0x15, 0x65, 0xc0);
        return {};
    case FullTextRole:
        return value.is_string() ? QString::fromStdString(value.get<std::string>()) : dump(value, 2);
    case IsElidedRole:
        return value.is_string() && valueText(value) != valueText(value, -1);
    case JsonPointerRole:
        return n->pointer;
    default:
        return {};
    }
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Key:
        return tr("Key");
    case Value:
        return tr("Value");
    default:
        return {};
    }
}

nlohmann::json JsonTreeModel::jsonAt(const QModelIndex &index) const
{
    return index.isValid() ? *node(index)->value : nlohmann::json();
}
