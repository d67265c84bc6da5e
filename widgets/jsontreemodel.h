// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>

#include <nlohmann/json.hpp>

#include <memory>

struct JsonTreeNode;

/// A read-only tree over one JSON value (the step inspector's arguments, result and
/// error). Lazy: a node for a member is made only when the view asks for its index, so
/// an array of 100 000 elements reports its row count without building its children,
/// and a 1 MiB result opens at once. Strings longer than MaxStringChars are elided in
/// the view; FullTextRole holds the whole value ("show all").
class JsonTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { Key, Value, NUM_COLUMNS };
    enum Roles {
        FullTextRole = Qt::UserRole, ///< QString: the value as pretty JSON (strings: the text itself), never elided
        IsElidedRole,                ///< bool: the Value column shows an elided string
        JsonPointerRole,             ///< QString: RFC 6901 pointer of the node ("/items/3")
    };
    /// Longest string shown in the Value column.
    static constexpr int MaxStringChars = 120;

    explicit JsonTreeModel(QObject *parent = nullptr);
    ~JsonTreeModel() override;

    /// Shows `value` (copied); `rootName` labels the single top-level row ("args").
    void setJson(const nlohmann::json &value, const QString &rootName = {});
    void clear();
    bool isEmpty() const;
    /// Nodes made so far (the root row included); for the laziness test.
    int builtNodeCount() const { return m_built; }
    /// The JSON value at `index` (a null json for an invalid index).
    nlohmann::json jsonAt(const QModelIndex &index) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "[3 items]", "{2 keys}", a scalar as compact JSON (strings elided when longer
    /// than `maxChars`; -1 = never).
    static QString valueText(const nlohmann::json &value, int maxChars = MaxStringChars);

private:
    JsonTreeNode *node(const QModelIndex &index) const;
    JsonTreeNode *child(JsonTreeNode *parent, int row) const;

    nlohmann::json m_json;
    std::unique_ptr<JsonTreeNode> m_root; ///< invisible root; its one child is the value
    mutable int m_built = 0;
};
