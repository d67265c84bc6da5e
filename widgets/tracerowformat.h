// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "project/steprows.h"

#include <QCoreApplication>
#include <QIcon>
#include <QString>
#include <QVariant>

#include <array>

/// A policy event's row in the trace: what TraceModel keeps of a PolicyEvent.
struct TraceEventRow
{
    int afterSteps = 0; ///< the event follows this many steps
    int sequence = 0;
    qint64 at = 0;
    QString kind;
    QString text;      ///< TraceModel::eventText(), cut
    QString detail;    ///< the detail as compact JSON, cut (tooltip)
    qint64 heldMs = 0; ///< a step_decision's `held_ms`: how long a person held the step
};

/// What the trace shows of a row, by column and role (TraceModel's columns and roles):
/// a step, one of its attempts, a policy event, or a journal-backed step whose page is
/// still being read. Keeps the status icons, made once. Its texts are translated in
/// TraceModel's context.
class TraceRowFormat
{
    Q_DECLARE_TR_FUNCTIONS(TraceModel)
public:
    QVariant stepData(const StepSummary &step, int column, int role) const;
    QVariant attemptData(const StepSummary &step, int attempt, int column, int role) const;
    QVariant eventData(const TraceEventRow &event, int column, int role) const;
    /// A step row whose page is not read yet: its sequence, and "loading…".
    QVariant placeholderData(int sequence, int column, int role) const;

    /// `text` cut to `maxChars` characters, the last one an ellipsis when cut.
    static QString elide(const QString &text, int maxChars);
    /// What the Summary column shows for a step (before eliding).
    static QString summaryText(const StepSummary &step);
    /// Translated display name of a step status ("succeeded", …).
    static QString statusText(StepStatus status);
    /// A run's status in the window's language ("waiting", "wartend").
    static QString runStatusText(RunStatus status);
    /// Compact JSON, never throwing on invalid UTF-8.
    static QString jsonText(const nlohmann::json &value, int indent = -1);
    /// One line for a policy event: what happened and to which call.
    static QString eventText(const PolicyEvent &event);
    /// The row of `event`, after `afterSteps` steps.
    static TraceEventRow eventRow(const PolicyEvent &event, int afterSteps);

private:
    QIcon statusIcon(StepStatus status) const;
    QIcon markerIcon(int which) const;

    mutable std::array<QIcon, 8> m_icons;
    mutable std::array<QIcon, 2> m_markers;
    mutable bool m_iconsLoaded = false;
};
