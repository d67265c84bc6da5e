// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracerowformat.h"

#include "project/durationtext.h"
#include "project/printabletext.h"
#include "stepstatuscolors.h"
#include "tracemodel.h"

#include <QColor>
#include <QFile>
#include <QGuiApplication>
#include <QPainter>
#include <QPixmap>
#include <QPolygonF>

#include <algorithm>

namespace {

/// A step_decision's `held_ms` (how long a person held the step; a journal read back
/// may hold anything): 0 when absent, not a positive integer, or another event.
qint64 heldMsOf(const PolicyEvent &event)
{
    if (event.kind != PolicyEventKind::StepDecision || !event.detail.is_object())
        return 0;
    const auto held = event.detail.find("held_ms");
    return held != event.detail.end() && held->is_number_integer() ? std::max<qint64>(held->get<qint64>(), 0) : 0;
}

// The status an attempt row shows: its own outcome, or the step's state while open.
StepStatus attemptStatus(const StepSummary &step, int attempt)
{
    const AttemptSummary &a = step.attempts[size_t(attempt)];
    if (a.endedAt == 0) {
        const bool current = attempt + 1 == int(step.attempts.size());
        if (current && step.status == StepStatus::Waiting)
            return StepStatus::Waiting;
        if (current && step.status == StepStatus::Cancelled)
            return StepStatus::Cancelled;
        return StepStatus::Running;
    }
    if (a.succeeded)
        return StepStatus::Succeeded;
    if (a.errorCode == errorCodeText(ErrorCode::Cancelled))
        return StepStatus::Cancelled;
    return StepStatus::Failed;
}

} // namespace

QString TraceRowFormat::elide(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    return text.left(maxChars - 1) + QChar(0x2026);
}

QString TraceRowFormat::summaryText(const StepSummary &step)
{
    // A result is shown as the JSON it is (null, 0, "", false, [] included).
    if (step.hasResult)
        return step.resultText;
    if (!step.errorText.isEmpty())
        return step.errorText;
    // Retrying: why the last attempt failed.
    for (auto it = step.attempts.rbegin(); it != step.attempts.rend(); ++it) {
        if (!it->errorText.isEmpty())
            return it->errorText;
    }
    if (step.status == StepStatus::Waiting)
        return TraceRowFormat::tr("waiting for an answer");
    return QString();
}

QVariant TraceRowFormat::stepData(const StepSummary &step, int column, int role) const
{
    switch (role) {
    case TraceModel::CallIdRole:
        return step.callId;
    case TraceModel::StatusRole:
        return int(step.status);
    case TraceModel::SequenceRole:
        return step.sequence;
    case TraceModel::AttemptNumberRole:
        return 0;
    case TraceModel::IsAttemptRole:
        return false;
    case TraceModel::ResultJsonRole:
        return step.hasResult ? QVariant(step.resultText) : QVariant();
    case TraceModel::ErrorCodeRole:
        return step.errorCode;
    case TraceModel::RowKindRole:
        return int(TraceModel::RowKind::Step);
    case TraceModel::DivergenceRole:
        return step.divergence;
    case TraceModel::EventKindRole:
        return QString();
    default:
        break;
    }

    if (role == Qt::DisplayRole) {
        switch (TraceModel::Column(column)) {
        case TraceModel::Sequence:
            return step.sequence;
        case TraceModel::Tool:
            return printableText(step.tool);
        case TraceModel::Status:
            // A running MCP call's last progress ("3/10 Loading…"), live (not journaled).
            if (step.status == StepStatus::Running && !step.progress.isEmpty())
                return statusText(step.status) + QStringLiteral(" · ") + elide(step.progress, 60);
            return statusText(step.status);
        case TraceModel::Attempts:
            return step.attemptsText();
        case TraceModel::Duration:
            return step.durationMs() > 0 || isFinal(step.status) ? durationText(step.durationMs()) : QString();
        case TraceModel::Summary:
            return printableText(elide(summaryText(step), TraceModel::MaxSummaryChars));
        case TraceModel::NUM_COLUMNS:
            break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (TraceModel::Column(column)) {
        case TraceModel::Sequence:
            return step.divergence.isEmpty()
                ? QVariant()
                : QVariant(tr("Replay diverged here: %1").arg(printableText(step.divergence)));
        case TraceModel::Summary: {
            const QString text = printableText(summaryText(step));
            if (text.size() > TraceModel::MaxSummaryChars)
                return tr("%1\n(the inspector shows all of it)").arg(elide(text, TraceModel::MaxSummaryChars));
            return text.isEmpty() ? QVariant() : QVariant(text);
        }
        case TraceModel::Status: {
            // The progress line whole: the column shows its start, elided to its width.
            const QString callId = tr("Call id: %1").arg(printableText(step.callId));
            if (step.status == StepStatus::Running && !step.progress.isEmpty())
                return tr("Progress: %1").arg(printableText(elide(step.progress, 1000))) + QLatin1Char('\n') + callId;
            return callId;
        }
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole && column == TraceModel::Status)
        return statusIcon(step.status);
    if (role == Qt::DecorationRole && column == TraceModel::Sequence && !step.divergence.isEmpty())
        return markerIcon(1);
    if (role == Qt::TextAlignmentRole && (column == TraceModel::Attempts || column == TraceModel::Duration))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == TraceModel::Summary && !step.errorText.isEmpty() && !step.hasResult)
        return stepStatusColor(StepStatus::Failed, StatusColorUse::Trace);
    return {};
}

QVariant TraceRowFormat::attemptData(const StepSummary &step, int attempt, int column, int role) const
{
    const AttemptSummary &a = step.attempts[size_t(attempt)];
    const StepStatus status = attemptStatus(step, attempt);
    const bool last = attempt + 1 == int(step.attempts.size());
    const bool showsResult = a.succeeded && last && step.hasResult;
    switch (role) {
    case TraceModel::CallIdRole:
        return step.callId;
    case TraceModel::StatusRole:
        return int(step.status);
    case TraceModel::SequenceRole:
        return step.sequence;
    case TraceModel::AttemptNumberRole:
        return a.number;
    case TraceModel::IsAttemptRole:
        return true;
    case TraceModel::ResultJsonRole:
        return showsResult ? QVariant(step.resultText) : QVariant();
    case TraceModel::ErrorCodeRole:
        return a.errorCode;
    case TraceModel::RowKindRole:
        return int(TraceModel::RowKind::Attempt);
    case TraceModel::DivergenceRole:
    case TraceModel::EventKindRole:
        return QString();
    default:
        break;
    }

    if (role == Qt::DisplayRole) {
        switch (TraceModel::Column(column)) {
        case TraceModel::Sequence:
            return QString();
        case TraceModel::Tool: // under its step's tool name; keeps the # column narrow
            return tr("attempt %1").arg(a.number);
        case TraceModel::Status:
            return statusText(status);
        case TraceModel::Attempts:
            return QString();
        case TraceModel::Duration:
            return a.endedAt > 0 && a.startedAt > 0 ? durationText(a.endedAt - a.startedAt) : QString();
        case TraceModel::Summary:
            if (!a.errorText.isEmpty())
                return printableText(elide(a.errorText, TraceModel::MaxSummaryChars));
            if (showsResult)
                return printableText(elide(step.resultText, TraceModel::MaxSummaryChars));
            return QString();
        case TraceModel::NUM_COLUMNS:
            break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole && column == TraceModel::Duration && a.endedAt > 0 && !a.personWaits.empty())
        // A call answered by hand did not run as long as it took (the timeline's waiting segment).
        return tr("ran %1, waited for a person %2").arg(durationText(a.ranMs(0)), durationText(a.waitedMs(0)));
    if (role == Qt::ToolTipRole && column == TraceModel::Summary) {
        QString tip = printableText(!a.errorText.isEmpty() ? a.errorText : showsResult ? step.resultText : QString());
        if (a.outputBytes > 0)
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n"))
                + tr("%n byte(s) of handler output (in the Step dock)", nullptr, int(a.outputBytes));
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    if (role == Qt::DecorationRole && column == TraceModel::Status)
        return statusIcon(status);
    if (role == Qt::TextAlignmentRole && (column == TraceModel::Duration))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == TraceModel::Summary && !a.errorText.isEmpty())
        return stepStatusColor(StepStatus::Failed, StatusColorUse::Trace);
    return {};
}

QVariant TraceRowFormat::eventData(const TraceEventRow &event, int column, int role) const
{
    switch (role) {
    case TraceModel::CallIdRole:
        return QString();
    case TraceModel::StatusRole:
        return -1;
    case TraceModel::SequenceRole:
        return event.sequence;
    case TraceModel::AttemptNumberRole:
        return 0;
    case TraceModel::IsAttemptRole:
        return false;
    case TraceModel::ResultJsonRole:
        return QVariant();
    case TraceModel::ErrorCodeRole:
    case TraceModel::DivergenceRole:
        return QString();
    case TraceModel::RowKindRole:
        return int(TraceModel::RowKind::Event);
    case TraceModel::EventKindRole:
        return event.kind;
    default:
        break;
    }
    if (role == Qt::DisplayRole) {
        switch (TraceModel::Column(column)) {
        case TraceModel::Sequence:
            // Short, so the # column stays narrow; the tooltip says it in words.
            return event.sequence > 0 ? tr("#%1").arg(event.sequence) : tr("run");
        case TraceModel::Tool:
            return printableText(event.kind);
        case TraceModel::Summary:
            return printableText(elide(event.text, TraceModel::MaxSummaryChars));
        default:
            return QString();
        }
    }
    if (role == Qt::ToolTipRole && column == TraceModel::Sequence)
        return event.sequence > 0 ? tr("An event of step #%1").arg(event.sequence) : tr("An event of the run");
    if (role == Qt::ToolTipRole && (column == TraceModel::Summary || column == TraceModel::Tool))
        return printableLines(event.detail);
    if (role == Qt::DecorationRole && column == TraceModel::Status)
        return markerIcon(0);
    if (role == Qt::ForegroundRole)
        return QColor(0xef, 0x6c, 0x00);
    return {};
}

QVariant TraceRowFormat::placeholderData(int sequence, int column, int role) const
{
    // The page is on its way (TracePageLoader): what is known without it, the sequence;
    // the view is told when the rest arrives (dataChanged).
    switch (role) {
    case TraceModel::CallIdRole:
    case TraceModel::ResultJsonRole:
        return QVariant();
    case TraceModel::StatusRole:
        return -1;
    case TraceModel::SequenceRole:
        return sequence;
    case TraceModel::AttemptNumberRole:
        return 0;
    case TraceModel::IsAttemptRole:
        return false;
    case TraceModel::ErrorCodeRole:
    case TraceModel::DivergenceRole:
    case TraceModel::EventKindRole:
        return QString();
    case TraceModel::RowKindRole:
        return int(TraceModel::RowKind::Step);
    default:
        break;
    }
    if (role == Qt::DisplayRole) {
        switch (TraceModel::Column(column)) {
        case TraceModel::Sequence:
            return sequence;
        case TraceModel::Status:
            return tr("loading…");
        case TraceModel::Tool:
        case TraceModel::Summary:
            return QStringLiteral("…");
        default:
            return QString();
        }
    }
    if (role == Qt::ForegroundRole)
        return QColor(0x8a, 0x8a, 0x8a);
    return {};
}

QIcon TraceRowFormat::statusIcon(StepStatus status) const
{
    // Icons need a GUI application; a headless user (tests, CLI) gets none.
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return {};
    if (!m_iconsLoaded) {
        m_iconsLoaded = true;
        for (int i = 0; i < int(m_icons.size()); ++i) {
            const auto s = StepStatus(i);
            // The icons live in the application's resources; without them (tests)
            // or without the SVG plugin, a plain coloured dot tells the statuses apart.
            const QString path = QStringLiteral(":/icons/status-%1.svg").arg(stepStatusName(s));
            QIcon icon;
            if (QFile::exists(path))
                icon = QIcon(path);
            if (icon.pixmap(16, 16).isNull()) {
                QPixmap dot(16, 16);
                dot.fill(Qt::transparent);
                QPainter painter(&dot);
                painter.setRenderHint(QPainter::Antialiasing);
                painter.setPen(Qt::NoPen);
                painter.setBrush(stepStatusColor(s, StatusColorUse::Trace));
                painter.drawEllipse(QRectF(3, 3, 10, 10));
                painter.end();
                icon = QIcon(dot);
            }
            m_icons[size_t(i)] = icon;
        }
    }
    const int i = int(status);
    return i >= 0 && i < int(m_icons.size()) ? m_icons[size_t(i)] : QIcon();
}

QIcon TraceRowFormat::markerIcon(int which) const
{
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return {};
    QIcon &icon = m_markers[size_t(which)];
    if (icon.isNull()) {
        // 0: a policy event (orange diamond); 1: a replay's divergence (red triangle).
        QPixmap pixmap(16, 16);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        if (which == 0) {
            painter.setBrush(QColor(0xef, 0x6c, 0x00));
            painter.drawPolygon(QPolygonF({QPointF(8, 2), QPointF(14, 8), QPointF(8, 14), QPointF(2, 8)}));
        } else {
            painter.setBrush(QColor(0xd3, 0x2f, 0x2f));
            painter.drawPolygon(QPolygonF({QPointF(8, 2), QPointF(15, 14), QPointF(1, 14)}));
        }
        painter.end();
        icon = QIcon(pixmap);
    }
    return icon;
}

QString TraceRowFormat::statusText(StepStatus status)
{
    switch (status) {
    case StepStatus::Queued:
        return tr("queued");
    case StepStatus::Running:
        return tr("running");
    case StepStatus::Retrying:
        return tr("retrying");
    case StepStatus::Waiting:
        return tr("waiting");
    case StepStatus::Succeeded:
        return tr("succeeded");
    case StepStatus::Failed:
        return tr("failed");
    case StepStatus::Memoized:
        return tr("memoized");
    case StepStatus::Cancelled:
        return tr("cancelled");
    }
    return stepStatusName(status);
}

QString TraceRowFormat::runStatusText(RunStatus status)
{
    switch (status) {
    case RunStatus::Running:
        return tr("running");
    case RunStatus::Waiting:
        return tr("waiting");
    case RunStatus::Completed:
        return tr("completed");
    case RunStatus::Failed:
        return tr("failed");
    case RunStatus::TimedOut:
        return tr("timed_out", "run status");
    case RunStatus::Cancelled:
        return tr("cancelled");
    case RunStatus::Suspended:
        return tr("suspended");
    }
    return runStatusName(status);
}

QString TraceRowFormat::jsonText(const nlohmann::json &value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace));
}

QString TraceRowFormat::eventText(const PolicyEvent &event)
{
    // Step mode's events say in words who decided what (docs/steps.md "Step mode").
    if (event.kind == PolicyEventKind::StepPaused)
        return tr("held before it runs (step mode or tool approval)");
    const auto decided = event.detail.is_object() ? event.detail.find("decision") : event.detail.end();
    if (event.kind == PolicyEventKind::StepDecision && decided != event.detail.end() && decided->is_string()) {
        const std::string decision = decided->get<std::string>();
        QString text;
        if (decision == "continue")
            text = tr("step mode: continued, the handler runs");
        else if (decision == "answer")
            text = tr("step mode: answered by hand instead, the handler did not run");
        else if (decision == "fail")
            text = tr("step mode: failed by hand, the handler did not run");
        else if (decision == "time_out")
            text = tr("step mode: timed out by hand, the handler did not run");
        // How long it was held: not part of the step's duration (docs/trace.md "Durations").
        if (const qint64 held = heldMsOf(event); !text.isEmpty() && held > 0)
            text += QStringLiteral("; ") + tr("held %1").arg(durationText(held));
        if (!text.isEmpty())
            return text;
    }
    // An MCP server's question during a call and the person's answer (docs/mcp.md "A
    // server's requests").
    const auto question = event.detail.is_object() ? event.detail.find("question") : event.detail.end();
    if (event.kind == PolicyEventKind::PersonAsked && question != event.detail.end() && question->is_object()) {
        const auto text = [&question](const char *key) { // a journal read back may hold anything
            const auto found = question->find(key);
            return found != question->end() && found->is_string() ? QString::fromStdString(found->get<std::string>())
                                                                  : QString();
        };
        return tr("MCP server '%1' asks a person (%2): %3").arg(text("server"), text("kind"), text("message"));
    }
    if (event.kind == PolicyEventKind::PersonAnswered && event.detail.is_object()
        && event.detail.value("withdrawn", false) == true)
        return tr("the MCP server withdrew its question (notifications/cancelled) before a person answered");
    const auto answer = event.detail.is_object() ? event.detail.find("answer") : event.detail.end();
    if (event.kind == PolicyEventKind::PersonAnswered && answer != event.detail.end())
        return tr("a person answered: %1").arg(jsonText(*answer));
    // The engine and the sandbox put a sentence in "text" or "reason" when they have
    // one; otherwise the detail itself (which call, its arguments) is the text.
    for (const char *key : {"text", "reason", "message"}) {
        if (event.detail.is_object() && event.detail.contains(key) && event.detail[key].is_string())
            return QString::fromStdString(event.detail[key].get<std::string>());
    }
    return event.detail.empty() ? QString() : jsonText(event.detail);
}

TraceEventRow TraceRowFormat::eventRow(const PolicyEvent &event, int afterSteps)
{
    TraceEventRow row;
    row.afterSteps = afterSteps;
    row.sequence = event.sequence;
    row.at = event.at;
    row.kind = policyEventKindName(event.kind);
    row.text = eventText(event).left(StepSummary::MaxSummaryChars + 1);
    row.detail = jsonText(event.detail, 2).left(4000);
    row.heldMs = heldMsOf(event);
    return row;
}
