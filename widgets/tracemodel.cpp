// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracemodel.h"

#include "project/durationtext.h"
#include "project/printabletext.h"

#include <QColor>
#include <QCoreApplication>
#include <QFile>
#include <QGuiApplication>
#include <QPainter>
#include <QPixmap>
#include <QPolygonF>
#include <QTimer>

#include <algorithm>

namespace {

// Top-level rows (steps and events) carry 0 as internal id; attempt rows carry their
// step's ordinal + 1 (stable while event rows are inserted above them).
constexpr quintptr TopLevelId = 0;

QString elide(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    return text.left(maxChars - 1) + QChar(0x2026);
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

QColor statusColor(StepStatus status)
{
    switch (status) {
    case StepStatus::Queued:
        return QColor(0x8a, 0x8a, 0x8a);
    case StepStatus::Running:
        return QColor(0x1e, 0x88, 0xe5);
    case StepStatus::Retrying:
        return QColor(0xfb, 0x8c, 0x00);
    case StepStatus::Waiting:
        return QColor(0x8e, 0x24, 0xaa);
    case StepStatus::Succeeded:
        return QColor(0x2e, 0x7d, 0x32);
    case StepStatus::Failed:
        return QColor(0xc6, 0x28, 0x28);
    case StepStatus::Memoized:
        return QColor(0x00, 0x83, 0x8f);
    case StepStatus::Cancelled:
        return QColor(0x61, 0x61, 0x61);
    }
    return {};
}

// What the Summary column shows for a step (before eliding).
QString summaryText(const StepSummary &step)
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
        return TraceModel::tr("waiting for an answer");
    return QString();
}

} // namespace

TraceModel::TraceModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_flushTimer(new QTimer(this))
{
    m_flushTimer->setObjectName(QStringLiteral("traceFlushTimer"));
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(BatchIntervalMs);
    connect(m_flushTimer, &QTimer::timeout, this, &TraceModel::flush);
}

TraceModel::~TraceModel() = default;

Qt::ItemFlags TraceModel::flags(const QModelIndex &index) const
{
    return index.isValid() ? RowFlags : Qt::NoItemFlags;
}

int TraceModel::stepCount() const
{
    return m_reader ? m_extent.count : int(m_live.size());
}

int TraceModel::eventsBefore(int ordinal) const
{
    const auto it = std::upper_bound(m_events.begin(), m_events.end(), ordinal,
                                     [](int k, const EventRow &e) { return k < e.afterSteps; });
    return int(it - m_events.begin());
}

int TraceModel::eventAtRow(int row) const
{
    // Event j sits at row afterSteps + j, which grows strictly with j.
    int lo = 0;
    int hi = int(m_events.size());
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (m_events[size_t(mid)].afterSteps + mid < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < int(m_events.size()) && m_events[size_t(lo)].afterSteps + lo == row ? lo : -1;
}

int TraceModel::ordinalOfRow(int row) const
{
    if (row < 0 || row >= stepCount() + int(m_events.size()))
        return -1;
    if (m_events.empty())
        return row;
    int lo = 0;
    int hi = int(m_events.size());
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (m_events[size_t(mid)].afterSteps + mid < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < int(m_events.size()) && m_events[size_t(lo)].afterSteps + lo == row)
        return -1;
    return row - lo;
}

int TraceModel::stepsBeforeRow(int row) const
{
    const int ordinal = ordinalOfRow(row);
    if (ordinal >= 0)
        return ordinal;
    const int event = eventAtRow(row);
    return event >= 0 ? m_events[size_t(event)].afterSteps : std::clamp(row, 0, stepCount());
}

int TraceModel::rowOfOrdinal(int ordinal) const
{
    return ordinal + eventsBefore(ordinal);
}

int TraceModel::sequenceOfOrdinal(int ordinal) const
{
    if (!m_reader)
        return ordinal >= 0 && ordinal < int(m_live.size()) ? m_live[size_t(ordinal)].sequence : 0;
    if (!m_sequences.empty())
        return ordinal >= 0 && ordinal < int(m_sequences.size()) ? m_sequences[size_t(ordinal)] : 0;
    return m_extent.first + ordinal;
}

int TraceModel::ordinalOfSequence(int sequence) const
{
    if (!m_reader)
        return m_ordinalBySequence.value(sequence, -1);
    if (!m_sequences.empty()) {
        const auto it = std::lower_bound(m_sequences.begin(), m_sequences.end(), sequence);
        return it != m_sequences.end() && *it == sequence ? int(it - m_sequences.begin()) : -1;
    }
    return sequence >= m_extent.first && sequence <= m_extent.last ? sequence - m_extent.first : -1;
}

const StepSummary *TraceModel::summaryAt(int ordinal) const
{
    if (ordinal < 0 || ordinal >= stepCount())
        return nullptr;
    if (!m_reader)
        return &m_live[size_t(ordinal)];
    const int pageIndex = ordinal / PageSize;
    const int offset = ordinal % PageSize;
    for (Page &page : m_pages) {
        if (page.index == pageIndex) {
            page.lastUse = ++m_useClock;
            return offset < int(page.rows.size()) ? &page.rows[size_t(offset)] : nullptr;
        }
    }
    // Fetch the page: PageSize steps by sequence, with their attempts.
    const int firstOrdinal = pageIndex * PageSize;
    const int lastOrdinal = std::min(firstOrdinal + PageSize, stepCount()) - 1;
    std::vector<StepSummary> fetched
        = m_reader->summaries(m_runId, sequenceOfOrdinal(firstOrdinal), sequenceOfOrdinal(lastOrdinal));
    Page page;
    page.index = pageIndex;
    page.lastUse = ++m_useClock;
    page.rows.resize(size_t(lastOrdinal - firstOrdinal + 1));
    for (StepSummary &s : fetched) {
        const int k = ordinalOfSequence(s.sequence) - firstOrdinal;
        if (k >= 0 && k < int(page.rows.size()))
            page.rows[size_t(k)] = std::move(s);
    }
    if (int(m_pages.size()) >= MaxCachedPages) {
        auto oldest = std::min_element(m_pages.begin(), m_pages.end(),
                                       [](const Page &a, const Page &b) { return a.lastUse < b.lastUse; });
        *oldest = std::move(page);
        return offset < int(oldest->rows.size()) ? &oldest->rows[size_t(offset)] : nullptr;
    }
    m_pages.push_back(std::move(page));
    return offset < int(m_pages.back().rows.size()) ? &m_pages.back().rows[size_t(offset)] : nullptr;
}

QModelIndex TraceModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= NUM_COLUMNS)
        return {};
    if (!parent.isValid()) {
        if (row >= stepCount() + int(m_events.size()))
            return {};
        return createIndex(row, column, TopLevelId);
    }
    if (parent.internalId() != TopLevelId || parent.column() != 0)
        return {};
    const int ordinal = ordinalOfRow(parent.row());
    const StepSummary *s = summaryAt(ordinal);
    if (!s || row >= int(s->attempts.size()))
        return {};
    return createIndex(row, column, quintptr(ordinal) + 1);
}

QModelIndex TraceModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == TopLevelId)
        return {};
    const int ordinal = int(child.internalId() - 1);
    return createIndex(rowOfOrdinal(ordinal), 0, TopLevelId);
}

int TraceModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return stepCount() + int(m_events.size());
    if (parent.internalId() != TopLevelId || parent.column() != 0)
        return 0;
    const StepSummary *s = summaryAt(ordinalOfRow(parent.row()));
    return s ? int(s->attempts.size()) : 0;
}

bool TraceModel::hasChildren(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return rowCount() > 0;
    if (parent.internalId() != TopLevelId || parent.column() != 0)
        return false;
    const int ordinal = ordinalOfRow(parent.row());
    if (ordinal < 0)
        return false;
    if (m_reader) {
        const int pageIndex = ordinal / PageSize;
        const auto page
            = std::find_if(m_pages.begin(), m_pages.end(), [&](const Page &p) { return p.index == pageIndex; });
        if (page == m_pages.end())
            return true;
        const size_t offset = size_t(ordinal % PageSize);
        return offset < page->rows.size() && !page->rows[offset].attempts.empty();
    }
    return !m_live[size_t(ordinal)].attempts.empty();
}

bool TraceModel::canFetchMore(const QModelIndex &parent) const
{
    if (!m_reader || !parent.isValid() || parent.internalId() != TopLevelId || parent.column() != 0)
        return false;
    const int ordinal = ordinalOfRow(parent.row());
    if (ordinal < 0)
        return false;
    const int pageIndex = ordinal / PageSize;
    return std::none_of(m_pages.begin(), m_pages.end(), [&](const Page &p) { return p.index == pageIndex; });
}

void TraceModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        summaryAt(ordinalOfRow(parent.row()));
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
    if (index.internalId() == TopLevelId) {
        const int ordinal = ordinalOfRow(index.row());
        if (ordinal < 0) {
            const int event = eventAtRow(index.row());
            return event >= 0 ? eventData(m_events[size_t(event)], index.column(), role) : QVariant();
        }
        const StepSummary *s = summaryAt(ordinal);
        return s ? stepData(*s, index.column(), role) : QVariant();
    }
    const StepSummary *s = summaryAt(int(index.internalId() - 1));
    if (!s || index.row() >= int(s->attempts.size()))
        return {};
    return attemptData(*s, index.row(), index.column(), role);
}

QVariant TraceModel::stepData(const StepSummary &step, int column, int role) const
{
    switch (role) {
    case CallIdRole:
        return step.callId;
    case StatusRole:
        return int(step.status);
    case SequenceRole:
        return step.sequence;
    case AttemptNumberRole:
        return 0;
    case IsAttemptRole:
        return false;
    case ResultJsonRole:
        return step.hasResult ? QVariant(step.resultText) : QVariant();
    case ErrorCodeRole:
        return step.errorCode;
    case RowKindRole:
        return int(RowKind::Step);
    case DivergenceRole:
        return step.divergence;
    case EventKindRole:
        return QString();
    default:
        break;
    }

    if (role == Qt::DisplayRole) {
        switch (Column(column)) {
        case Sequence:
            return step.sequence;
        case Tool:
            return printableText(step.tool);
        case Status:
            // A running MCP call's last progress ("3/10 Loading…"), live (not journaled).
            if (step.status == StepStatus::Running && !step.progress.isEmpty())
                return statusText(step.status) + QStringLiteral(" · ") + elide(step.progress, 60);
            return statusText(step.status);
        case Attempts:
            return step.attemptsText();
        case Duration:
            return step.durationMs() > 0 || isFinal(step.status) ? durationText(step.durationMs()) : QString();
        case Summary:
            return printableText(elide(summaryText(step), MaxSummaryChars));
        case NUM_COLUMNS:
            break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(column)) {
        case Sequence:
            return step.divergence.isEmpty()
                ? QVariant()
                : QVariant(tr("Replay diverged here: %1").arg(printableText(step.divergence)));
        case Summary: {
            const QString text = printableText(summaryText(step));
            if (text.size() > MaxSummaryChars)
                return tr("%1\n(the inspector shows all of it)").arg(elide(text, MaxSummaryChars));
            return text.isEmpty() ? QVariant() : QVariant(text);
        }
        case Status:
            return tr("Call id: %1").arg(printableText(step.callId));
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole && column == Status)
        return statusIcon(step.status);
    if (role == Qt::DecorationRole && column == Sequence && !step.divergence.isEmpty())
        return markerIcon(1);
    if (role == Qt::TextAlignmentRole && (column == Attempts || column == Duration))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Summary && !step.errorText.isEmpty() && !step.hasResult)
        return statusColor(StepStatus::Failed);
    return {};
}

QVariant TraceModel::attemptData(const StepSummary &step, int attempt, int column, int role) const
{
    const AttemptSummary &a = step.attempts[size_t(attempt)];
    const StepStatus status = attemptStatus(step, attempt);
    const bool last = attempt + 1 == int(step.attempts.size());
    const bool showsResult = a.succeeded && last && step.hasResult;
    switch (role) {
    case CallIdRole:
        return step.callId;
    case StatusRole:
        return int(step.status);
    case SequenceRole:
        return step.sequence;
    case AttemptNumberRole:
        return a.number;
    case IsAttemptRole:
        return true;
    case ResultJsonRole:
        return showsResult ? QVariant(step.resultText) : QVariant();
    case ErrorCodeRole:
        return a.errorCode;
    case RowKindRole:
        return int(RowKind::Attempt);
    case DivergenceRole:
    case EventKindRole:
        return QString();
    default:
        break;
    }

    if (role == Qt::DisplayRole) {
        switch (Column(column)) {
        case Sequence:
            return tr("attempt %1").arg(a.number);
        case Tool:
            return QString();
        case Status:
            return statusText(status);
        case Attempts:
            return QString();
        case Duration:
            return a.endedAt > 0 && a.startedAt > 0 ? durationText(a.endedAt - a.startedAt) : QString();
        case Summary:
            if (!a.errorText.isEmpty())
                return printableText(elide(a.errorText, MaxSummaryChars));
            if (showsResult)
                return printableText(elide(step.resultText, MaxSummaryChars));
            return QString();
        case NUM_COLUMNS:
            break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole && column == Summary) {
        QString tip = printableText(!a.errorText.isEmpty() ? a.errorText : showsResult ? step.resultText : QString());
        if (a.outputBytes > 0)
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n"))
                + tr("%n byte(s) of handler output (in the Step dock)", nullptr, int(a.outputBytes));
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    if (role == Qt::DecorationRole && column == Status)
        return statusIcon(status);
    if (role == Qt::TextAlignmentRole && (column == Duration))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Summary && !a.errorText.isEmpty())
        return statusColor(StepStatus::Failed);
    return {};
}

QVariant TraceModel::eventData(const EventRow &event, int column, int role) const
{
    switch (role) {
    case CallIdRole:
        return QString();
    case StatusRole:
        return -1;
    case SequenceRole:
        return event.sequence;
    case AttemptNumberRole:
        return 0;
    case IsAttemptRole:
        return false;
    case ResultJsonRole:
        return QVariant();
    case ErrorCodeRole:
    case DivergenceRole:
        return QString();
    case RowKindRole:
        return int(RowKind::Event);
    case EventKindRole:
        return event.kind;
    default:
        break;
    }
    if (role == Qt::DisplayRole) {
        switch (Column(column)) {
        case Sequence:
            return event.sequence > 0 ? tr("event #%1").arg(event.sequence) : tr("run event");
        case Tool:
            return printableText(event.kind);
        case Summary:
            return printableText(elide(event.text, MaxSummaryChars));
        default:
            return QString();
        }
    }
    if (role == Qt::ToolTipRole && (column == Summary || column == Tool))
        return printableLines(event.detail);
    if (role == Qt::DecorationRole && column == Status)
        return markerIcon(0);
    if (role == Qt::ForegroundRole)
        return QColor(0xef, 0x6c, 0x00);
    return {};
}

QVariant TraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Sequence:
        return tr("#");
    case Tool:
        return tr("Tool");
    case Status:
        return tr("Status");
    case Attempts:
        return tr("Attempts");
    case Duration:
        return tr("Duration");
    case Summary:
        return tr("Result");
    case NUM_COLUMNS:
        break;
    }
    return {};
}

QString TraceModel::journalPath() const
{
    return m_reader ? m_reader->path() : QString();
}

std::optional<StepSummary> TraceModel::step(int row) const
{
    const StepSummary *s = summaryAt(ordinalOfRow(row));
    return s ? std::optional<StepSummary>(*s) : std::nullopt;
}

int TraceModel::ordinalOfCallId(const QString &callId) const
{
    if (!m_reader)
        return m_ordinalByCallId.value(callId, -1);
    return ordinalOfSequence(m_reader->sequenceOf(m_runId, callId));
}

std::optional<StepSummary> TraceModel::stepByCallId(const QString &callId) const
{
    if (const StepSummary *s = summaryAt(ordinalOfCallId(callId)))
        return *s;
    const auto queued = m_queueIndexByCallId.constFind(callId);
    if (queued != m_queueIndexByCallId.constEnd())
        return m_queue[size_t(*queued)];
    return std::nullopt;
}

std::optional<Step> TraceModel::fullStep(const QString &callId) const
{
    if (!m_reader)
        return std::nullopt;
    const int sequence = m_reader->sequenceOf(m_runId, callId);
    return sequence > 0 ? m_reader->step(m_runId, sequence) : std::nullopt;
}

QModelIndex TraceModel::indexForCallId(const QString &callId, int column) const
{
    const int ordinal = ordinalOfCallId(callId);
    return ordinal < 0 ? QModelIndex() : index(rowOfOrdinal(ordinal), column);
}

bool TraceModel::matches(int ordinal, const StepQuery &query) const
{
    const StepSummary *s = summaryAt(ordinal);
    if (!s)
        return false;
    if (!query.tool.isEmpty() && s->tool != query.tool)
        return false;
    if (query.status == StepQuery::Status::FailedOnly && !s->isFailed())
        return false;
    if (query.status == StepQuery::Status::HadFailures && !s->hadFailures())
        return false;
    if (query.status == StepQuery::Status::PendingOnly && !s->isPending())
        return false;
    if (query.text.isEmpty())
        return true;
    return s->tool.contains(query.text, Qt::CaseInsensitive) || s->callId.contains(query.text, Qt::CaseInsensitive)
        || elide(summaryText(*s), MaxSummaryChars).contains(query.text, Qt::CaseInsensitive);
}

std::vector<int> TraceModel::matchingOrdinals(const StepQuery &query) const
{
    std::vector<int> result;
    if (m_reader) {
        const std::vector<int> sequences = m_reader->matching(m_runId, query);
        result.reserve(sequences.size());
        for (int sequence : sequences) {
            const int ordinal = ordinalOfSequence(sequence);
            if (ordinal >= 0)
                result.push_back(ordinal);
        }
        return result;
    }
    for (int k = 0; k < int(m_live.size()); ++k) {
        if (matches(k, query))
            result.push_back(k);
    }
    return result;
}

int TraceModel::nextOrdinal(int ordinal, StepQuery::Status which, bool forward) const
{
    if (which == StepQuery::Status::All || which == StepQuery::Status::HadFailures)
        return -1;
    const bool failed = which == StepQuery::Status::FailedOnly;
    if (m_reader) {
        if (!m_jumpListsLoaded) {
            m_jumpListsLoaded = true;
            m_failedOrdinals = matchingOrdinals({QString(), StepQuery::Status::FailedOnly, QString()});
            m_pendingOrdinals = matchingOrdinals({QString(), StepQuery::Status::PendingOnly, QString()});
        }
        const std::vector<int> &list = failed ? m_failedOrdinals : m_pendingOrdinals;
        if (forward) {
            const auto it = std::upper_bound(list.begin(), list.end(), ordinal);
            return it == list.end() ? -1 : *it;
        }
        auto it = ordinal < 0 ? list.end() : std::lower_bound(list.begin(), list.end(), ordinal);
        return it == list.begin() ? -1 : *std::prev(it);
    }
    const std::set<int> &set = failed ? m_failed : m_pending;
    if (forward) {
        const auto it = set.upper_bound(ordinal);
        return it == set.end() ? -1 : *it;
    }
    auto it = ordinal < 0 ? set.end() : set.lower_bound(ordinal);
    return it == set.begin() ? -1 : *std::prev(it);
}

bool TraceModel::openRun(const QString &journalPath, const QString &runId, QString *error)
{
    beginResetModel();
    m_flushTimer->stop();
    m_live.clear();
    m_ordinalByCallId.clear();
    m_ordinalBySequence.clear();
    m_queue.clear();
    m_queueIndexByCallId.clear();
    m_failed.clear();
    m_pending.clear();
    m_events.clear();
    m_tools.clear();
    m_toolSet.clear();
    m_pages.clear();
    m_sequences.clear();
    m_failedOrdinals.clear();
    m_pendingOrdinals.clear();
    m_jumpListsLoaded = false;
    m_extent = {};
    m_runId = runId;
    m_reader = std::make_unique<JournalReader>();
    if (!m_reader->open(journalPath, error)) {
        m_reader.reset();
        m_runId.clear();
        endResetModel();
        Q_EMIT toolsChanged();
        return false;
    }
    m_extent = m_reader->extent(runId);
    m_pages.reserve(MaxCachedPages); // rows handed out stay put until a page is evicted
    if (!m_extent.contiguous())
        m_sequences = m_reader->sequences(runId);
    for (const PolicyEvent &event : m_reader->events(runId)) {
        const int anchor = event.sequence > 0 ? event.sequence : m_reader->sequenceAt(runId, event.at);
        const int ordinal = anchor > 0 ? ordinalOfSequence(anchor) : -1;
        EventRow row;
        row.afterSteps = ordinal >= 0 ? ordinal + 1 : 0;
        row.sequence = event.sequence;
        row.at = event.at;
        row.kind = policyEventKindName(event.kind);
        row.text = eventText(event).left(MaxSummaryChars + 1);
        row.detail = jsonText(event.detail, 2).left(4000);
        m_events.push_back(std::move(row));
    }
    std::stable_sort(m_events.begin(), m_events.end(),
                     [](const EventRow &a, const EventRow &b) { return a.afterSteps < b.afterSteps; });
    m_tools = m_reader->tools(runId);
    for (const QString &tool : std::as_const(m_tools))
        m_toolSet.insert(tool);
    endResetModel();
    Q_EMIT toolsChanged();
    return true;
}

void TraceModel::noteTool(const QString &tool)
{
    if (m_toolSet.contains(tool))
        return;
    m_toolSet.insert(tool);
    m_tools.append(tool);
    Q_EMIT toolsChanged();
}

void TraceModel::trackSets(int ordinal, const StepSummary &summary)
{
    if (summary.isFailed())
        m_failed.insert(ordinal);
    else
        m_failed.erase(ordinal);
    if (summary.isPending())
        m_pending.insert(ordinal);
    else
        m_pending.erase(ordinal);
}

void TraceModel::addStep(const Step &step)
{
    if (m_reader)
        clear();
    if (m_ordinalByCallId.contains(step.callId) || m_queueIndexByCallId.contains(step.callId)) {
        updateStep(step);
        return;
    }
    m_queueIndexByCallId.insert(step.callId, int(m_queue.size()));
    m_queue.push_back(StepSummary::of(step));
    if (!m_flushTimer->isActive())
        m_flushTimer->start(std::max(int(BatchIntervalMs), insertDelayMs()));
}

void TraceModel::updateStep(const Step &step)
{
    if (m_reader)
        clear();
    const int ordinal = m_ordinalByCallId.value(step.callId);
    if (ordinal < 0) {
        const auto queued = m_queueIndexByCallId.constFind(step.callId);
        if (queued != m_queueIndexByCallId.constEnd())
            m_queue[size_t(*queued)] = StepSummary::of(step); // not shown yet: the flush inserts the latest state
        else
            addStep(step);
        return;
    }
    replaceLive(ordinal, StepSummary::of(step));
}

void TraceModel::replaceLive(int ordinal, StepSummary summary)
{
    const int row = rowOfOrdinal(ordinal);
    const QModelIndex parentIndex = index(row, 0);
    StepSummary &current = m_live[size_t(ordinal)];
    const int oldAttempts = int(current.attempts.size());
    const int newAttempts = int(summary.attempts.size());
    if (current.tool != summary.tool)
        noteTool(summary.tool);

    if (newAttempts < oldAttempts) {
        beginRemoveRows(parentIndex, newAttempts, oldAttempts - 1);
        current.attempts.resize(size_t(newAttempts));
        endRemoveRows();
    }
    if (newAttempts > oldAttempts) {
        // Everything but the new attempts first, so they appear only between
        // begin/endInsertRows.
        std::vector<AttemptSummary> attempts = std::move(summary.attempts);
        summary.attempts.assign(attempts.begin(), attempts.begin() + oldAttempts);
        current = std::move(summary);
        beginInsertRows(parentIndex, oldAttempts, newAttempts - 1);
        current.attempts = std::move(attempts);
        endInsertRows();
    } else {
        current = std::move(summary);
    }
    trackSets(ordinal, current);
    Q_EMIT dataChanged(index(row, 0), index(row, NUM_COLUMNS - 1));
    const int unchangedChildren = std::min(oldAttempts, newAttempts);
    if (unchangedChildren > 0)
        Q_EMIT dataChanged(index(0, 0, parentIndex), index(unchangedChildren - 1, NUM_COLUMNS - 1, parentIndex));
}

void TraceModel::applySteps(const QList<Step> &steps)
{
    if (m_reader)
        clear();
    std::vector<StepSummary> added;
    for (const Step &step : steps) {
        const int ordinal = m_ordinalBySequence.value(step.sequence, -1);
        if (ordinal >= 0) {
            replaceLive(ordinal, StepSummary::of(step));
            continue;
        }
        const auto queued = m_queueIndexByCallId.constFind(step.callId);
        if (queued != m_queueIndexByCallId.constEnd() && m_queue[size_t(*queued)].sequence == step.sequence)
            m_queue[size_t(*queued)] = StepSummary::of(step);
        else
            added.push_back(StepSummary::of(step));
    }
    // Steps added one by one before (addStep) go first; then this batch, in one insert.
    for (StepSummary &s : added) {
        m_queueIndexByCallId.insert(s.callId, int(m_queue.size()));
        m_queue.push_back(std::move(s));
    }
    const int delay = insertDelayMs();
    if (delay == 0)
        flush();
    else if (!m_queue.empty() && !m_flushTimer->isActive())
        m_flushTimer->start(delay);
}

int TraceModel::insertDelayMs() const
{
    const int rows = int(m_live.size());
    if (rows < ImmediateInsertRows)
        return 0;
    return std::clamp(rows / RowsPerIntervalMs, BatchIntervalMs, MaxBatchIntervalMs);
}

void TraceModel::insertEvent(EventRow row)
{
    const auto it = std::upper_bound(m_events.begin(), m_events.end(), row.afterSteps,
                                     [](int k, const EventRow &e) { return k < e.afterSteps; });
    const int position = int(it - m_events.begin());
    const int modelRow = row.afterSteps + position;
    beginInsertRows(QModelIndex(), modelRow, modelRow);
    m_events.insert(it, std::move(row));
    endInsertRows();
}

void TraceModel::addEvent(const PolicyEvent &event)
{
    if (m_reader)
        clear();
    flush(); // an event goes after the steps known so far
    EventRow row;
    const int ordinal = event.sequence > 0 ? ordinalOfSequence(event.sequence) : -1;
    row.afterSteps = ordinal >= 0 ? ordinal + 1 : stepCount();
    row.sequence = event.sequence;
    row.at = event.at;
    row.kind = policyEventKindName(event.kind);
    row.text = eventText(event).left(MaxSummaryChars + 1);
    row.detail = jsonText(event.detail, 2).left(4000);
    insertEvent(std::move(row));
}

void TraceModel::clear()
{
    m_flushTimer->stop();
    beginResetModel();
    m_live.clear();
    m_ordinalByCallId.clear();
    m_ordinalBySequence.clear();
    m_queue.clear();
    m_queueIndexByCallId.clear();
    m_failed.clear();
    m_pending.clear();
    m_reader.reset();
    m_runId.clear();
    m_extent = {};
    m_sequences.clear();
    m_pages.clear();
    m_failedOrdinals.clear();
    m_pendingOrdinals.clear();
    m_jumpListsLoaded = false;
    m_events.clear();
    const bool hadTools = !m_tools.isEmpty();
    m_tools.clear();
    m_toolSet.clear();
    endResetModel();
    if (hadTools)
        Q_EMIT toolsChanged();
}

void TraceModel::flush()
{
    m_flushTimer->stop();
    if (m_queue.empty())
        return;
    // Every event follows a step already shown, so new steps go at the end.
    const int first = stepCount() + int(m_events.size());
    const int last = first + int(m_queue.size()) - 1;
    beginInsertRows(QModelIndex(), first, last);
    for (StepSummary &s : m_queue) {
        const int ordinal = int(m_live.size());
        m_ordinalByCallId.insert(s.callId, ordinal);
        m_ordinalBySequence.insert(s.sequence, ordinal);
        trackSets(ordinal, s);
        m_live.push_back(std::move(s));
    }
    m_queue.clear();
    m_queueIndexByCallId.clear();
    endInsertRows();
    for (int k = first - int(m_events.size()); k < int(m_live.size()); ++k)
        noteTool(m_live[size_t(k)].tool);
}

QString TraceModel::statusText(StepStatus status)
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

QString TraceModel::jsonText(const nlohmann::json &value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace));
}

QString TraceModel::eventText(const PolicyEvent &event)
{
    // Step mode's events say in words who decided what (docs/steps.md "Step mode").
    if (event.kind == PolicyEventKind::StepPaused)
        return tr("held by step mode before it runs");
    const auto decided = event.detail.is_object() ? event.detail.find("decision") : event.detail.end();
    if (event.kind == PolicyEventKind::StepDecision && decided != event.detail.end() && decided->is_string()) {
        const std::string decision = decided->get<std::string>();
        if (decision == "continue")
            return tr("step mode: continued, the handler runs");
        if (decision == "answer")
            return tr("step mode: answered by hand instead, the handler did not run");
        if (decision == "fail")
            return tr("step mode: failed by hand, the handler did not run");
        if (decision == "time_out")
            return tr("step mode: timed out by hand, the handler did not run");
    }
    // The engine and the sandbox put a sentence in "text" or "reason" when they have
    // one; otherwise the detail itself (which call, its arguments) is the text.
    for (const char *key : {"text", "reason", "message"}) {
        if (event.detail.is_object() && event.detail.contains(key) && event.detail[key].is_string())
            return QString::fromStdString(event.detail[key].get<std::string>());
    }
    return event.detail.empty() ? QString() : jsonText(event.detail);
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
            m_icons[size_t(i)] = icon;
        }
    }
    const int i = int(status);
    return i >= 0 && i < int(m_icons.size()) ? m_icons[size_t(i)] : QIcon();
}

QIcon TraceModel::markerIcon(int which) const
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
