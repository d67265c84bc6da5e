// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QSet>
#include <QWidget>

class QAction;
class QComboBox;
class QLineEdit;
class QModelIndex;
class QToolButton;
class QTreeView;
class QVBoxLayout;
class TimelineWidget;
class TraceFilterModel;
class TraceModel;

/// The Trace dock's contents (issue 8 items 1 and 2; docs/trace.md): two filter rows —
/// text (debounced) and tool; "Failed" (ended failed), "Had failures" (any failed
/// attempt) and "Pending" only toggles, Follow, and Next pending / Next failed buttons —
/// then an optional header (the run's budget meters), then the timeline above the step
/// tree, both showing the same TraceModel through one TraceFilterModel. Selecting a bar
/// on the timeline selects its row. With Follow on, the tree scrolls to each new step;
/// scrolling up turns Follow off, scrolling back to the end turns it on again.
class TracePanel : public QWidget
{
    Q_OBJECT
public:
    /// How long typing in the filter waits before it filters (ms).
    static constexpr int FilterDebounceMs = 200;

    explicit TracePanel(TraceModel *model, QWidget *parent = nullptr);

    /// Puts `header` between the filter rows and the timeline.
    void setHeader(QWidget *header);

    QTreeView *view() const { return m_view; }
    TraceFilterModel *filterModel() const { return m_filter; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QComboBox *toolCombo() const { return m_toolCombo; }
    QToolButton *failedOnlyButton() const { return m_failedOnly; }
    QToolButton *hadFailuresButton() const { return m_hadFailures; }
    QToolButton *pendingOnlyButton() const { return m_pendingOnly; }
    QToolButton *followButton() const { return m_follow; }
    TimelineWidget *timeline() const { return m_timeline; }
    /// Run ▸ Next Pending Step (Ctrl+J) and Next Failed Step (Ctrl+E), behind the jump
    /// buttons too; their shortcuts also work while the filter has the focus.
    QAction *nextPendingAction() const { return m_nextPending; }
    QAction *nextFailedAction() const { return m_nextFailed; }

    /// Selects the step with `callId` in the tree and the timeline; a filter that
    /// hides it is cleared first. False when the trace has no such step.
    bool selectStep(const QString &callId);
    /// Selects the next step after the current one that is pending (`Waiting`) or
    /// failed (`Failed`), wrapping around. False (notice()) when there is none.
    bool jumpToStep(StepStatus status);

Q_SIGNALS:
    /// A short note for the status bar ("No failed step").
    void notice(const QString &text, int timeoutMs);
    /// The current row changed to the step `callId` (empty: none).
    void currentStepChanged(const QString &callId);
    /// A row was activated (double-click, Enter).
    void stepActivated(const QString &callId);

protected:
    void changeEvent(QEvent *event) override;

private:
    /// The columns' widths for the view's font (at start and after View ▸ Zoom).
    void sizeColumns();
    void buildFilterBar();
    void buildViews();
    void updateStatusFilter();
    void addToolFilters();
    /// Follow on: scroll to the newest row (after the view has laid the rows out).
    void followNewRows();
    /// The user scrolled: Follow goes off above the end, on again at the end.
    void scrolled(int value);

    TraceModel *m_model;
    QAction *m_nextPending;
    QAction *m_nextFailed;
    QVBoxLayout *m_layout = nullptr;
    TraceFilterModel *m_filter = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_toolCombo = nullptr;
    QToolButton *m_failedOnly = nullptr;
    QToolButton *m_hadFailures = nullptr;
    QToolButton *m_pendingOnly = nullptr;
    QToolButton *m_follow = nullptr;
    bool m_followScrollPending = false; ///< a scroll to the end is queued
    TimelineWidget *m_timeline = nullptr;
    QTreeView *m_view = nullptr;
    QSet<QString> m_knownTools;
};
