// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracefiltermodel.h"

#include "tracemodel.h"

#include <algorithm>

TraceFilterModel::TraceFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
}

void TraceFilterModel::setTraceModel(TraceModel *model)
{
    m_trace = model;
    setSourceModel(model);
}

void TraceFilterModel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

void TraceFilterModel::setTool(const QString &tool)
{
    if (tool == m_tool)
        return;
    m_tool = tool;
    invalidateFilter();
}

void TraceFilterModel::setStatusFilter(StatusFilter filter)
{
    if (filter == m_status)
        return;
    m_status = filter;
    invalidateFilter();
}

bool TraceFilterModel::isFailed(const Step &step)
{
    if (step.status == StepStatus::Failed)
        return true;
    return std::any_of(step.attempts.begin(), step.attempts.end(),
                       [](const Attempt &a) { return a.endedAt > 0 && !a.succeeded; });
}

bool TraceFilterModel::isPending(const Step &step)
{
    return step.status == StepStatus::Waiting || step.paused;
}

bool TraceFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid() || !m_trace)
        return true;
    const Step *step = m_trace->step(sourceRow);
    if (!step)
        return false;
    if (!m_tool.isEmpty() && step->tool != m_tool)
        return false;
    if (m_status == StatusFilter::FailedOnly && !isFailed(*step))
        return false;
    if (m_status == StatusFilter::PendingOnly && !isPending(*step))
        return false;
    if (m_text.isEmpty())
        return true;
    if (step->tool.contains(m_text, Qt::CaseInsensitive) || step->callId.contains(m_text, Qt::CaseInsensitive))
        return true;
    const QString summary = m_trace->index(sourceRow, TraceModel::Summary).data().toString();
    return summary.contains(m_text, Qt::CaseInsensitive);
}

QModelIndex TraceFilterModel::nextStep(const QModelIndex &from, StepStatus status, Direction direction) const
{
    const int rows = rowCount();
    if (rows == 0)
        return {};
    QModelIndex top = from;
    while (top.parent().isValid())
        top = top.parent();
    const int step = direction == Direction::Forward ? 1 : -1;
    int start = top.isValid() ? top.row() : (direction == Direction::Forward ? -1 : rows);
    for (int i = 1; i <= rows; ++i) {
        const int row = ((start + step * i) % rows + rows) % rows;
        const QModelIndex candidate = index(row, 0);
        const Step *s = m_trace ? m_trace->step(mapToSource(candidate).row()) : nullptr;
        if (!s)
            continue;
        const bool match = status == StepStatus::Waiting ? isPending(*s)
                           : status == StepStatus::Failed ? isFailed(*s)
                                                          : s->status == status;
        if (match)
            return candidate;
    }
    return {};
}
