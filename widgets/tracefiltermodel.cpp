// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracefiltermodel.h"

#include "tracemodel.h"

#include <set>

TraceFilterModel::TraceFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
}

void TraceFilterModel::setTraceModel(TraceModel *model)
{
    if (m_trace)
        disconnect(m_trace, nullptr, this, nullptr);
    m_trace = model;
    // Before setSourceModel, so that this runs before the proxy re-maps after a reset.
    connect(model, &QAbstractItemModel::modelReset, this, &TraceFilterModel::computeAccepted);
    computeAccepted();
    setSourceModel(model);
}

bool TraceFilterModel::isFiltering() const
{
    return !m_query.text.isEmpty() || !m_query.tool.isEmpty() || m_query.status != StatusFilter::All;
}

void TraceFilterModel::setText(const QString &text)
{
    if (text == m_query.text)
        return;
    m_query.text = text;
    refilter();
}

void TraceFilterModel::setTool(const QString &tool)
{
    if (tool == m_query.tool)
        return;
    m_query.tool = tool;
    refilter();
}

void TraceFilterModel::setStatusFilter(StatusFilter filter)
{
    if (filter == m_query.status)
        return;
    m_query.status = filter;
    refilter();
}

void TraceFilterModel::computeAccepted()
{
    m_accepted.clear();
    if (!m_trace || !m_trace->isJournalBacked() || !isFiltering())
        return;
    m_accepted.assign(size_t(m_trace->stepCount()), false);
    for (int ordinal : m_trace->matchingOrdinals(m_query))
        m_accepted[size_t(ordinal)] = true;
}

void TraceFilterModel::refilter()
{
    computeAccepted();
    // invalidate(), not invalidateFilter(): the latter removes and inserts the rows
    // range by range (a million signals for an interleaved tool); this drops the
    // mapping and rebuilds it on the next access, with one layout change.
    invalidate();
}

bool TraceFilterModel::hasChildren(const QModelIndex &parent) const
{
    if (!parent.isValid() || !sourceModel())
        return QSortFilterProxyModel::hasChildren(parent);
    const QModelIndex source = mapToSource(parent);
    return source.isValid() && sourceModel()->hasChildren(source);
}

Qt::ItemFlags TraceFilterModel::flags(const QModelIndex &index) const
{
    return index.isValid() && m_trace ? TraceModel::RowFlags : QSortFilterProxyModel::flags(index);
}

bool TraceFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid() || !m_trace)
        return true;
    if (!isFiltering())
        return true;
    const int ordinal = m_trace->ordinalOfRow(sourceRow);
    if (ordinal < 0)
        return false; // a policy event: shown with the whole trace only
    if (m_trace->isJournalBacked())
        return ordinal < int(m_accepted.size()) && m_accepted[size_t(ordinal)];
    return m_trace->matches(ordinal, m_query);
}

QModelIndex TraceFilterModel::nextStep(const QModelIndex &from, StepStatus status, Direction direction) const
{
    if (!m_trace || rowCount() == 0)
        return {};
    const bool forward = direction == Direction::Forward;
    QModelIndex top = from;
    while (top.parent().isValid())
        top = top.parent();
    const int sourceRow = top.isValid() ? mapToSource(top).row() : -1;

    if (status == StepStatus::Failed || status == StepStatus::Waiting) {
        const StatusFilter which = status == StepStatus::Failed ? StatusFilter::FailedOnly : StatusFilter::PendingOnly;
        // Where to start: the selected step, or the steps around a selected event.
        int start = -1;
        if (sourceRow >= 0) {
            start = m_trace->ordinalOfRow(sourceRow);
            if (start < 0) {
                const int before = m_trace->stepsBeforeRow(sourceRow);
                start = forward ? before - 1 : before;
            }
        }
        if (!forward && start >= m_trace->stepCount())
            start = -1;
        std::set<int> seen;
        int ordinal = start;
        for (;;) {
            int next = m_trace->nextOrdinal(ordinal, which, forward);
            if (next < 0)
                next = m_trace->nextOrdinal(-1, which, forward); // wrap around
            if (next < 0 || !seen.insert(next).second)
                return {};
            const QModelIndex candidate = mapFromSource(m_trace->index(m_trace->rowOfOrdinal(next), 0));
            if (candidate.isValid())
                return candidate;
            ordinal = next;
        }
    }

    const int rows = rowCount();
    const int step = forward ? 1 : -1;
    const int startRow = top.isValid() ? top.row() : (forward ? -1 : rows);
    for (int i = 1; i <= rows; ++i) {
        const int row = ((startRow + step * i) % rows + rows) % rows;
        const QModelIndex candidate = index(row, 0);
        if (candidate.data(TraceModel::RowKindRole).toInt() == int(TraceModel::RowKind::Step)
            && candidate.data(TraceModel::StatusRole).toInt() == int(status))
            return candidate;
    }
    return {};
}
