// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracemodel.h"

#include <QColor>
#include <QCoreApplication>
#include <QFile>
#include <QFont>
#include <QGuiApplication>
#include <QPainter>
#include <QPixmap>
#include <QTimer>

#include <algorithm>

namespace {

// Attempt rows carry their step's row + 1 as internal id; step rows carry 0.
constexpr quintptr StepRowId = 0;

QString errorText(const BridgeError &error)
{
    const QString code = QString::fromStdString(error.code);
    const QString message = QString::fromStdString(error.message);
    if (code.isEmpty())
        return message;
    if (message.isEmpty())
        return code;
    return code + QStringLiteral(": ") + message;
}

QString elide(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    return text.left(maxChars - 1) + QChar(0x2026);
}

// The status an attempt row shows: its own outcome, or the step's state while open.
StepStatus attemptStatus(const Step &step, const Attempt &attempt)
{
    if (attempt.endedAt == 0) {
        const bool current = step.currentAttempt() == &attempt;
        if (current && step.status == StepStatus::Waiting)
            return StepStatus::Waiting;
        if (current && step.status == StepStatus::Cancelled)
            return StepStatus::Cancelled;
        return StepStatus::Running;
    }
    if (attempt.succeeded)
        return StepStatus::Succeeded;
    if (attempt.error && attempt.error->code == "cancelled")
        return StepStatus::Cancelled;
    return StepStatus::Failed;
}

QColor statusColor(StepStatus status)
{
    switch (status) {
    case StepStatus::Queued: return QColor(0x8a, 0x8a, 0x8a);
    case StepStatus::Running: return QColor(0x1e, 0x88, 0xe5);
    case StepStatus::Retrying: return QColor(0xfb, 0x8c, 0x00);
    case StepStatus::Waiting: return QColor(0x8e, 0x24, 0xaa);
    case StepStatus::Succeeded: return QColor(0x2e, 0x7d, 0x32);
    case StepStatus::Failed: return QColor(0xc6, 0x28, 0x28);
    case StepStatus::Memoized: return QColor(0x00, 0x83, 0x8f);
    case StepStatus::Cancelled: return QColor(0x61, 0x61, 0x61);
    }
    return {};
}

} // namespace

TraceModel::TraceModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_flushTimer(new QTimer(this))
{
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(BatchIntervalMs);
    connect(m_flushTimer, &QTimer::timeout, this, &TraceModel::flush);
}

TraceModel::~TraceModel() = default;

QModelIndex TraceModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= NUM_COLUMNS)
        return {};
    if (!parent.isValid()) {
        if (row >= int(m_steps.size()))
            return {};
        return createIndex(row, column, StepRowId);
    }
    if (parent.internalId() != StepRowId || parent.column() != 0)
        return {};
    const int stepRow = parent.row();
    if (stepRow < 0 || stepRow >= int(m_steps.size()) || row >= int(m_steps[stepRow].attempts.size()))
        return {};
    return createIndex(row, column, quintptr(stepRow) + 1);
}

QModelIndex TraceModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == StepRowId)
        return {};
    const int stepRow = int(child.internalId() - 1);
    return createIndex(stepRow, 0, StepRowId);
}

int TraceModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_steps.size());
    if (parent.internalId() != StepRowId || parent.column() != 0)
        return 0;
    const int stepRow = parent.row();
    if (stepRow < 0 || stepRow >= int(m_steps.size()))
        return 0;
    return int(m_steps[stepRow].attempts.size());
}

int TraceModel::columnCount(const QModelIndex &parent) const
{
    Q_UNUSED(parent)
    return NUM_COLUMNS;
}

QVariant TraceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == StepRowId) {
        if (index.row() >= int(m_steps.size()))
            return {};
        return stepData(m_steps[index.row()], index.column(), role);
    }
    const int stepRow = int(index.internalId() - 1);
    if (stepRow >= int(m_steps.size()))
        return {};
    const Step &step = m_steps[stepRow];
    if (index.row() >= int(step.attempts.size()))
        return {};
    return attemptData(step, step.attempts[index.row()], index.column(), role);
}

QVariant TraceModel::stepData(const Step &step, int column, int role) const
{
    switch (role) {
    case CallIdRole: return step.callId;
    case StatusRole: return int(step.status);
    case SequenceRole: return step.sequence;
    case AttemptNumberRole: return 0;
    case IsAttemptRole: return false;
    case ResultJsonRole: return step.result ? QVariant(jsonText(*step.result)) : QVariant();
    case ErrorCodeRole: return step.error ? QString::fromStdString(step.error->code) : QString();
    default: break;
    }

    if (role == Qt::DisplayRole) {
        switch (Column(column)) {
        case Sequence: return step.sequence;
        case Tool: return step.tool;
        case Status: return statusText(step.status);
        case Attempts: return step.attemptsText();
        case Duration: return step.durationMs() > 0 || isFinal(step.status) ? durationText(step.durationMs()) : QString();
        case Summary:
            // A result is shown as the JSON it is (null, 0, "", false, [] included).
            if (step.result)
                return elide(jsonText(*step.result), MaxSummaryChars);
            if (step.error)
                return elide(errorText(*step.error), MaxSummaryChars);
            // Retrying: why the last attempt failed.
            for (auto it = step.attempts.rbegin(); it != step.attempts.rend(); ++it) {
                if (it->error)
                    return elide(errorText(*it->error), MaxSummaryChars);
            }
            if (step.status == StepStatus::Waiting)
                return tr("waiting for an answer");
            return QString();
        case NUM_COLUMNS: break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(column)) {
        case Tool: return QStringLiteral("%1(%2)").arg(step.tool, jsonText(step.args));
        case Summary:
            if (step.result)
                return jsonText(*step.result, 2);
            if (step.error)
                return errorText(*step.error);
            return {};
        case Status: return tr("Call id: %1").arg(step.callId);
        default: return {};
        }
    }
    if (role == Qt::DecorationRole && column == Status)
        return statusIcon(step.status);
    if (role == Qt::TextAlignmentRole && (column == Attempts || column == Duration))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Summary && step.error && !step.result)
        return statusColor(StepStatus::Failed);
    return {};
}

QVariant TraceModel::attemptData(const Step &step, const Attempt &attempt, int column, int role) const
{
    const StepStatus status = attemptStatus(step, attempt);
    const bool last = step.currentAttempt() == &attempt;
    switch (role) {
    case CallIdRole: return step.callId;
    case StatusRole: return int(step.status);
    case SequenceRole: return step.sequence;
    case AttemptNumberRole: return attempt.number;
    case IsAttemptRole: return true;
    case ResultJsonRole:
        return attempt.succeeded && last && step.result ? QVariant(jsonText(*step.result)) : QVariant();
    case ErrorCodeRole: return attempt.error ? QString::fromStdString(attempt.error->code) : QString();
    default: break;
    }

    if (role == Qt::DisplayRole) {
        switch (Column(column)) {
        case Sequence: return tr("attempt %1").arg(attempt.number);
        case Tool: return QString();
        case Status: return statusText(status);
        case Attempts: return QString();
        case Duration:
            return attempt.endedAt > 0 && attempt.startedAt > 0 ? durationText(attempt.endedAt - attempt.startedAt)
                                                                : QString();
        case Summary:
            if (attempt.error)
                return elide(errorText(*attempt.error), MaxSummaryChars);
            if (attempt.succeeded && last && step.result)
                return elide(jsonText(*step.result), MaxSummaryChars);
            return QString();
        case NUM_COLUMNS: break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole && column == Summary) {
        QString tip;
        if (attempt.error)
            tip = errorText(*attempt.error);
        else if (attempt.succeeded && last && step.result)
            tip = jsonText(*step.result, 2);
        if (!attempt.output.isEmpty())
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n\n")) + tr("Output:\n%1").arg(QString::fromUtf8(attempt.output));
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    if (role == Qt::DecorationRole && column == Status)
        return statusIcon(status);
    if (role == Qt::TextAlignmentRole && (column == Duration))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Summary && attempt.error)
        return statusColor(StepStatus::Failed);
    return {};
}

QVariant TraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Sequence: return tr("#");
    case Tool: return tr("Tool");
    case Status: return tr("Status");
    case Attempts: return tr("Attempts");
    case Duration: return tr("Duration");
    case Summary: return tr("Result");
    case NUM_COLUMNS: break;
    }
    return {};
}

const Step *TraceModel::step(int row) const
{
    return row >= 0 && row < int(m_steps.size()) ? &m_steps[row] : nullptr;
}

const Step *TraceModel::stepByCallId(const QString &callId) const
{
    if (const auto it = m_rowByCallId.constFind(callId); it != m_rowByCallId.constEnd())
        return &m_steps[*it];
    const auto queued = m_queueIndexByCallId.constFind(callId);
    return queued != m_queueIndexByCallId.constEnd() ? &m_queue[size_t(*queued)] : nullptr;
}

QModelIndex TraceModel::indexForCallId(const QString &callId, int column) const
{
    const auto it = m_rowByCallId.constFind(callId);
    return it == m_rowByCallId.constEnd() ? QModelIndex() : index(*it, column);
}

void TraceModel::addStep(const Step &step)
{
    if (stepByCallId(step.callId)) {
        updateStep(step);
        return;
    }
    m_queueIndexByCallId.insert(step.callId, int(m_queue.size()));
    m_queue.push_back(step);
    if (!m_flushTimer->isActive())
        m_flushTimer->start();
}

void TraceModel::updateStep(const Step &step)
{
    const auto it = m_rowByCallId.constFind(step.callId);
    if (it == m_rowByCallId.constEnd()) {
        const auto queued = m_queueIndexByCallId.constFind(step.callId);
        if (queued != m_queueIndexByCallId.constEnd())
            m_queue[size_t(*queued)] = step; // not shown yet: the flush inserts the latest state
        else
            addStep(step);
        return;
    }

    const int row = *it;
    const QModelIndex parentIndex = index(row, 0);
    const int oldAttempts = int(m_steps[row].attempts.size());
    const int newAttempts = int(step.attempts.size());

    if (newAttempts < oldAttempts) {
        beginRemoveRows(parentIndex, newAttempts, oldAttempts - 1);
        m_steps[row].attempts.resize(newAttempts);
        endRemoveRows();
    }
    if (newAttempts > oldAttempts) {
        // Copy everything but the new attempts first, so the rows appear only
        // between begin/endInsertRows.
        Step copy = step;
        copy.attempts.resize(oldAttempts);
        m_steps[row] = std::move(copy);
        beginInsertRows(parentIndex, oldAttempts, newAttempts - 1);
        m_steps[row].attempts = step.attempts;
        endInsertRows();
    } else {
        m_steps[row] = step;
    }

    Q_EMIT dataChanged(index(row, 0), index(row, NUM_COLUMNS - 1));
    const int unchangedChildren = std::min(oldAttempts, newAttempts);
    if (unchangedChildren > 0)
        Q_EMIT dataChanged(index(0, 0, parentIndex), index(unchangedChildren - 1, NUM_COLUMNS - 1, parentIndex));
}

void TraceModel::clear()
{
    m_flushTimer->stop();
    beginResetModel();
    m_steps.clear();
    m_rowByCallId.clear();
    m_queue.clear();
    m_queueIndexByCallId.clear();
    endResetModel();
}

void TraceModel::flush()
{
    m_flushTimer->stop();
    if (m_queue.empty())
        return;
    const int first = int(m_steps.size());
    const int last = first + int(m_queue.size()) - 1;
    beginInsertRows(QModelIndex(), first, last);
    for (Step &step : m_queue) {
        m_rowByCallId.insert(step.callId, int(m_steps.size()));
        m_steps.push_back(std::move(step));
    }
    m_queue.clear();
    m_queueIndexByCallId.clear();
    endInsertRows();
}

QString TraceModel::statusText(StepStatus status)
{
    switch (status) {
    case StepStatus::Queued: return tr("queued");
    case StepStatus::Running: return tr("running");
    case StepStatus::Retrying: return tr("retrying");
    case StepStatus::Waiting: return tr("waiting");
    case StepStatus::Succeeded: return tr("succeeded");
    case StepStatus::Failed: return tr("failed");
    case StepStatus::Memoized: return tr("memoized");
    case StepStatus::Cancelled: return tr("cancelled");
    }
    return stepStatusName(status);
}

QString TraceModel::durationText(qint64 ms)
{
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    if (ms < 60000)
        return tr("%1 s").arg(QString::number(double(ms) / 1000.0, 'f', 1));
    return tr("%1 min %2 s").arg(ms / 60000).arg((ms % 60000) / 1000);
}

QString TraceModel::jsonText(const nlohmann::json &value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace));
}

QIcon TraceModel::statusIcon(StepStatus status) const
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
                painter.setBrush(statusColor(s));
                painter.drawEllipse(QRectF(3, 3, 10, 10));
                painter.end();
                icon = QIcon(dot);
            }
            m_icons[i] = icon;
        }
    }
    const int i = int(status);
    return i >= 0 && i < int(m_icons.size()) ? m_icons[i] : QIcon();
}
