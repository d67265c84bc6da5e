// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/steprows.h"

#include <QSortFilterProxyModel>

#include <vector>

class TraceModel;

/// Filters a TraceModel's steps (top-level rows) by text, tool and status; attempt
/// rows always follow their step, policy-event rows show only while nothing is
/// filtered. Text matches the tool, call id and the result/error summary,
/// case-insensitively (a journal-backed run: ASCII letters only, SQL LIKE).
///
/// A change of filter never removes rows one by one: the kept steps are computed at
/// once — an indexed query for a journal-backed run, a scan of the light rows for a
/// live one — and the proxy re-maps in one layout change. The trace dock debounces
/// typing before calling setText (STYLE.md "Models and views").
class TraceFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using StatusFilter = StepQuery::Status;
    enum class Direction { Forward, Backward };

    explicit TraceFilterModel(QObject *parent = nullptr);

    void setTraceModel(TraceModel *model);
    TraceModel *traceModel() const { return m_trace; }

    void setText(const QString &text);
    QString text() const { return m_query.text; }
    /// Only steps of `tool`; empty = every tool.
    void setTool(const QString &tool);
    QString tool() const { return m_query.tool; }
    void setStatusFilter(StatusFilter filter);
    StatusFilter statusFilter() const { return m_query.status; }
    /// True when any of text, tool or status filters.
    bool isFiltering() const;

    /// The next visible step after `from` (a proxy index; invalid = before the first
    /// row) whose status is `status` (Waiting also matches a step held by step mode;
    /// Failed only a step that ended failed), wrapping around; invalid when none.
    /// Failed and Waiting are looked up in the model's sorted lists (O(log n) per
    /// candidate); other statuses scan the visible rows.
    QModelIndex nextStep(const QModelIndex &from, StepStatus status, Direction direction = Direction::Forward) const;

    /// Children (attempts) are never filtered, so a row has children when its source
    /// row has. Unlike QSortFilterProxyModel::hasChildren this builds no mapping for
    /// the row: a QTreeView asks every top-level row, and a mapping per row makes each
    /// insert at the top level cost O(rows) (issue 8 streaming benchmark).
    bool hasChildren(const QModelIndex &parent = {}) const override;
    /// TraceModel::RowFlags for every valid row, without mapping it to the source
    /// (QSortFilterProxyModel::flags maps each row QTreeView asks about per layout).
    Qt::ItemFlags flags(const QModelIndex &index) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    void refilter();
    void computeAccepted();

    TraceModel *m_trace = nullptr;
    StepQuery m_query;
    /// Journal-backed runs: whether each step (by ordinal) is kept; empty otherwise.
    std::vector<bool> m_accepted;
};
