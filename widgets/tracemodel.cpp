// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracemodel.h"

#include "tracepageloader.h"

#include <QTimer>

#include <algorithm>

namespace {

// Top-level rows (steps and events) carry 0 as internal id; attempt rows carry their
// step's ordinal + 1 (stable while event rows are inserted above them).
constexpr quintptr TopLevelId = 0;

} // namespace

TraceModel::TraceModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_flushTimer(new QTimer(this))
{
    m_flushTimer->setObjectName(QStringLiteral("traceFlushTimer"));
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(BatchIntervalMs);
    connect(m_flushTimer, &QTimer::timeout, this, &TraceModel::flush);
    connect(m_journal.loader(), &TracePageLoader::pageLoaded, this, &TraceModel::takePage);
}

TraceModel::~TraceModel() = default;

Qt::ItemFlags TraceModel::flags(const QModelIndex &index) const
{
    return index.isValid() ? RowFlags : Qt::NoItemFlags;
}

int TraceModel::stepCount() const
{
    return m_journal.isOpen() ? m_journal.size() : m_live.size();
}

int TraceModel::ordinalOfRow(int row) const
{
    if (row < 0 || row >= stepCount() + m_events.size())
        return -1;
    if (m_events.empty())
        return row;
    bool onEvent = false;
    const int above = m_events.above(row, &onEvent);
    return onEvent ? -1 : row - above;
}

int TraceModel::stepsBeforeRow(int row) const
{
    const int ordinal = ordinalOfRow(row);
    if (ordinal >= 0)
        return ordinal;
    const int event = m_events.atRow(row);
    return event >= 0 ? m_events.at(event).afterSteps : std::clamp(row, 0, stepCount());
}

int TraceModel::rowOfOrdinal(int ordinal) const
{
    return ordinal + m_events.before(ordinal);
}

int TraceModel::sequenceOfOrdinal(int ordinal) const
{
    if (m_journal.isOpen())
        return m_journal.sequenceOfOrdinal(ordinal);
    return ordinal >= 0 && ordinal < m_live.size() ? m_live.at(ordinal).sequence : 0;
}

int TraceModel::ordinalOfSequence(int sequence) const
{
    return m_journal.isOpen() ? m_journal.ordinalOfSequence(sequence) : m_live.ordinalOfSequence(sequence);
}

const StepSummary *TraceModel::summaryAt(int ordinal) const
{
    if (ordinal < 0 || ordinal >= stepCount())
        return nullptr;
    return m_journal.isOpen() ? m_journal.find(ordinal) : &m_live.at(ordinal);
}

void TraceModel::takePage(int page, const std::vector<StepSummary> &rows)
{
    if (!m_journal.isOpen())
        return;
    const int firstOrdinal = page * PageSize;
    const int lastOrdinal = m_journal.pageEnd(page) - 1;
    if (lastOrdinal < firstOrdinal)
        return;
    const std::vector<int> attempts = m_journal.store(page, rows);
    TracePageCache &cache = m_journal.cache();
    // A step's attempt rows appear when its count is first known: inserted under a step
    // someone was told had none (an expanded row, a proxy's mapping), set quietly under
    // the others — one insert per step would cost every view a pass per step, so past
    // MaxAttemptInserts such steps the page is one layout change. A page read again
    // after eviction changes no count, only data.
    std::vector<int> told;
    for (int k = 0; k < int(attempts.size()); ++k) {
        const int ordinal = firstOrdinal + k;
        const int known = cache.knownAttempts(ordinal);
        if (known < 0 && attempts[size_t(k)] > 0 && cache.wasToldNone(ordinal))
            told.push_back(k);
        else if (known < 0)
            cache.setKnownAttempts(ordinal, attempts[size_t(k)]); // nobody counted them yet
        else if (known > 0)
            Q_EMIT dataChanged(index(0, 0, index(rowOfOrdinal(ordinal), 0)),
                               index(known - 1, NUM_COLUMNS - 1, index(rowOfOrdinal(ordinal), 0)));
    }
    const bool oneLayoutChange = int(told.size()) > MaxAttemptInserts;
    if (oneLayoutChange)
        Q_EMIT layoutAboutToBeChanged();
    for (int k : told) {
        const int ordinal = firstOrdinal + k;
        if (!oneLayoutChange)
            beginInsertRows(index(rowOfOrdinal(ordinal), 0), 0, attempts[size_t(k)] - 1);
        cache.setKnownAttempts(ordinal, attempts[size_t(k)]);
        if (!oneLayoutChange)
            endInsertRows();
    }
    if (oneLayoutChange)
        Q_EMIT layoutChanged();
    Q_EMIT dataChanged(index(rowOfOrdinal(firstOrdinal), 0), index(rowOfOrdinal(lastOrdinal), NUM_COLUMNS - 1));
}

int TraceModel::attemptRows(int ordinal) const
{
    if (ordinal < 0 || ordinal >= stepCount())
        return 0;
    if (m_journal.isOpen()) {
        const int known = m_journal.cache().knownAttempts(ordinal);
        if (known < 0)
            m_journal.cache().noteToldNone(ordinal);
        return std::max(0, known);
    }
    return int(m_live.at(ordinal).attempts.size());
}

bool TraceModel::isLoaded(int ordinal) const
{
    return ordinal >= 0 && ordinal < stepCount()
        && (!m_journal.isOpen() || m_journal.cache().hasPage(TracePageCache::pageOf(ordinal)));
}

QModelIndex TraceModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= NUM_COLUMNS)
        return {};
    if (!parent.isValid()) {
        if (row >= stepCount() + m_events.size())
            return {};
        return createIndex(row, column, TopLevelId);
    }
    if (parent.internalId() != TopLevelId || parent.column() != 0)
        return {};
    const int ordinal = ordinalOfRow(parent.row());
    if (ordinal < 0 || row >= attemptRows(ordinal))
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
        return stepCount() + m_events.size();
    if (parent.internalId() != TopLevelId || parent.column() != 0)
        return 0;
    return attemptRows(ordinalOfRow(parent.row()));
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
    if (m_journal.isOpen())
        return m_journal.cache().knownAttempts(ordinal) != 0; // not known yet: almost every step has one
    return !m_live.at(ordinal).attempts.empty();
}

bool TraceModel::canFetchMore(const QModelIndex &parent) const
{
    if (!m_journal.isOpen() || !parent.isValid() || parent.internalId() != TopLevelId || parent.column() != 0)
        return false;
    const int ordinal = ordinalOfRow(parent.row());
    return ordinal >= 0 && m_journal.cache().knownAttempts(ordinal) < 0;
}

void TraceModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        m_journal.requestPage(TracePageCache::pageOf(ordinalOfRow(parent.row())));
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
            const int event = m_events.atRow(index.row());
            return event >= 0 ? m_format.eventData(m_events.at(event), index.column(), role) : QVariant();
        }
        // Journal-backed: never waits for the page; the loader reads it, takePage() tells the view.
        const StepSummary *s = summaryAt(ordinal);
        return s ? m_format.stepData(*s, index.column(), role)
                 : m_format.placeholderData(sequenceOfOrdinal(ordinal), index.column(), role);
    }
    const StepSummary *s = summaryAt(int(index.internalId() - 1));
    if (!s || index.row() >= int(s->attempts.size()))
        return {};
    return m_format.attemptData(*s, index.row(), index.column(), role);
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
    return m_journal.path();
}

std::optional<StepSummary> TraceModel::step(int row) const
{
    return lookup(ordinalOfRow(row));
}

std::optional<StepSummary> TraceModel::lookup(int ordinal) const
{
    if (const StepSummary *s = summaryAt(ordinal))
        return *s;
    // One indexed row for a caller that needs it now (never the view's painting).
    return m_journal.readAlone(ordinal);
}

int TraceModel::ordinalOfCallId(const QString &callId) const
{
    return m_journal.isOpen() ? m_journal.ordinalOfCallId(callId) : m_live.ordinalOfCallId(callId);
}

std::optional<StepSummary> TraceModel::stepByCallId(const QString &callId) const
{
    if (std::optional<StepSummary> s = lookup(ordinalOfCallId(callId)))
        return s;
    if (const StepSummary *queued = m_live.queued(callId))
        return *queued;
    return std::nullopt;
}

std::optional<Step> TraceModel::fullStep(const QString &callId) const
{
    return m_journal.fullStep(callId);
}

QModelIndex TraceModel::indexForCallId(const QString &callId, int column) const
{
    const int ordinal = ordinalOfCallId(callId);
    return ordinal < 0 ? QModelIndex() : index(rowOfOrdinal(ordinal), column);
}

bool TraceModel::matches(int ordinal, const StepQuery &query) const
{
    return !m_journal.isOpen() && m_live.matches(ordinal, query);
}

std::vector<int> TraceModel::matchingOrdinals(const StepQuery &query) const
{
    if (m_journal.isOpen())
        return m_journal.matching(query);
    std::vector<int> result;
    for (int k = 0; k < m_live.size(); ++k) {
        if (m_live.matches(k, query))
            result.push_back(k);
    }
    return result;
}

int TraceModel::nextOrdinal(int ordinal, StepQuery::Status which, bool forward) const
{
    if (which == StepQuery::Status::All || which == StepQuery::Status::HadFailures)
        return -1;
    const bool failed = which == StepQuery::Status::FailedOnly;
    return m_journal.isOpen() ? m_journal.next(ordinal, failed, forward) : m_live.next(ordinal, failed, forward);
}

bool TraceModel::openRun(const QString &journalPath, const QString &runId, QString *error)
{
    beginResetModel();
    resetRows();
    if (!m_journal.open(journalPath, runId, error)) {
        endResetModel();
        Q_EMIT toolsChanged();
        return false;
    }
    m_events.assign(m_journal.eventRows());
    m_tools = m_journal.tools();
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

void TraceModel::addStep(const Step &step)
{
    if (m_journal.isOpen())
        clear();
    if (m_live.ordinalOfCallId(step.callId) >= 0 || m_live.queued(step.callId)) {
        updateStep(step);
        return;
    }
    m_live.enqueue(StepSummary::of(step));
    if (!m_flushTimer->isActive())
        m_flushTimer->start(std::max(int(BatchIntervalMs), insertDelayMs()));
}

void TraceModel::updateStep(const Step &step)
{
    if (m_journal.isOpen())
        clear();
    const int ordinal = m_live.ordinalOfCallId(step.callId);
    if (ordinal < 0) {
        if (StepSummary *queued = m_live.queued(step.callId))
            *queued = StepSummary::of(step); // not shown yet: the flush inserts the latest state
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
    StepSummary &current = m_live.rowAt(ordinal);
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
    m_live.track(ordinal);
    Q_EMIT dataChanged(index(row, 0), index(row, NUM_COLUMNS - 1));
    const int unchangedChildren = std::min(oldAttempts, newAttempts);
    if (unchangedChildren > 0)
        Q_EMIT dataChanged(index(0, 0, parentIndex), index(unchangedChildren - 1, NUM_COLUMNS - 1, parentIndex));
}

void TraceModel::applySteps(const QList<Step> &steps)
{
    if (m_journal.isOpen())
        clear();
    std::vector<StepSummary> added;
    for (const Step &step : steps) {
        const int ordinal = m_live.ordinalOfSequence(step.sequence);
        if (ordinal >= 0) {
            replaceLive(ordinal, StepSummary::of(step));
            continue;
        }
        StepSummary *queued = m_live.queued(step.callId);
        if (queued && queued->sequence == step.sequence)
            *queued = StepSummary::of(step);
        else
            added.push_back(StepSummary::of(step));
    }
    // Steps added one by one before (addStep) go first; then this batch, in one insert.
    for (StepSummary &s : added)
        m_live.enqueue(std::move(s));
    const int delay = insertDelayMs();
    if (delay == 0)
        flush();
    else if (m_live.queuedCount() > 0 && !m_flushTimer->isActive())
        m_flushTimer->start(delay);
}

int TraceModel::insertDelayMs() const
{
    const int rows = m_live.size();
    if (rows < ImmediateInsertRows)
        return 0;
    return std::clamp(rows / RowsPerIntervalMs, BatchIntervalMs, MaxBatchIntervalMs);
}

void TraceModel::addEvent(const PolicyEvent &event)
{
    if (m_journal.isOpen())
        clear();
    flush(); // an event goes after the steps known so far
    const int ordinal = event.sequence > 0 ? ordinalOfSequence(event.sequence) : -1;
    TraceEventRow row = TraceRowFormat::eventRow(event, ordinal >= 0 ? ordinal + 1 : stepCount());
    const int modelRow = m_events.rowOfNew(row);
    beginInsertRows(QModelIndex(), modelRow, modelRow);
    m_events.insert(std::move(row));
    endInsertRows();
}

qint64 TraceModel::heldMs(int sequence) const
{
    qint64 held = 0;
    for (int k = 0; k < m_events.size(); ++k)
        held += m_events.at(k).sequence == sequence ? m_events.at(k).heldMs : 0;
    return held;
}

void TraceModel::clear()
{
    const bool hadTools = !m_tools.isEmpty();
    beginResetModel();
    resetRows();
    endResetModel();
    if (hadTools)
        Q_EMIT toolsChanged();
}

void TraceModel::resetRows()
{
    m_flushTimer->stop();
    m_live.clear();
    m_journal.close(); // pages still on their way are dropped
    m_events.clear();
    m_tools.clear();
    m_toolSet.clear();
}

void TraceModel::flush()
{
    m_flushTimer->stop();
    if (m_live.queuedCount() == 0)
        return;
    // Every event follows a step already shown, so new steps go at the end.
    const int firstOrdinal = m_live.size();
    const int first = firstOrdinal + m_events.size();
    beginInsertRows(QModelIndex(), first, first + m_live.queuedCount() - 1);
    m_live.appendQueued();
    endInsertRows();
    for (int k = firstOrdinal; k < m_live.size(); ++k)
        noteTool(m_live.at(k).tool);
}
