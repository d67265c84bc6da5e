// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <QSortFilterProxyModel>

class TraceModel;

/// Filters a TraceModel's steps (top-level rows) by text, tool and status; attempt
/// rows always follow their step. Text matches the tool, call id and the
/// result/error summary, case-insensitively. The trace dock debounces typing before
/// calling setText (STYLE.md "Models and views").
class TraceFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum class StatusFilter {
        All,
        FailedOnly,  ///< failed steps, and steps with a failed attempt (retrying)
        PendingOnly, ///< steps waiting for a person (manual tools, step mode)
    };
    enum class Direction { Forward, Backward };

    explicit TraceFilterModel(QObject *parent = nullptr);

    void setTraceModel(TraceModel *model);
    TraceModel *traceModel() const { return m_trace; }

    void setText(const QString &text);
    QString text() const { return m_text; }
    /// Only steps of `tool`; empty = every tool.
    void setTool(const QString &tool);
    QString tool() const { return m_tool; }
    void setStatusFilter(StatusFilter filter);
    StatusFilter statusFilter() const { return m_status; }

    /// The next visible step after `from` (a proxy index; invalid = before the first
    /// row) whose status is `status` (Waiting also matches a step held by step mode),
    /// wrapping around; invalid when none.
    QModelIndex nextStep(const QModelIndex &from, StepStatus status, Direction direction = Direction::Forward) const;

    static bool isFailed(const Step &step);
    static bool isPending(const Step &step);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    TraceModel *m_trace = nullptr;
    QString m_text;
    QString m_tool;
    StatusFilter m_status = StatusFilter::All;
};
