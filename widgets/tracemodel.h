// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "traceeventrows.h"
#include "tracejournalrows.h"
#include "traceliverows.h"
#include "tracepagecache.h"
#include "tracerowformat.h"

#include <QAbstractItemModel>
#include <QSet>
#include <QStringList>

#include <vector>

class QTimer;

/// The trace of a run as a tree: one top-level row per step (in sequence order), one
/// child row per attempt of that step, and a row per policy event (a retry scheduled,
/// a timeout, a refused syscall…) after the step it concerns (run-wide events: after
/// the last step queued before them). Rows hold light StepSummary data, never whole
/// Steps: the inspector loads a step's arguments and result when it shows it.
///
/// Two sources:
/// - **live** (addStep/updateStep/applySteps/addEvent): rows in memory; new steps are
///   inserted in batches (one beginInsertRows per flush or applySteps call);
/// - **journal** (openRun): a finished or suspended run is shown without loading it —
///   the row count comes from the journal, rows are read PageSize steps at a time (with
///   their attempts) into a small LRU cache as the view asks for them. The GUI thread
///   never waits for a page (issue 18): TracePageLoader reads it on a thread of its own;
///   meanwhile the row shows its sequence and "loading…" and has no attempt rows; when
///   the page arrives the model says dataChanged, and inserts each step's attempt rows.
///
/// TraceLiveRows and TraceJournalRows keep the steps of each source, TraceEventRows the
/// event rows between them; the model maps them to rows and says what changed.
class TraceModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        Sequence,
        Tool,
        Status,   ///< icon + status name
        Attempts, ///< "2/3"
        Duration,
        Summary, ///< result as compact JSON, or the error ("code: message")
        NUM_COLUMNS
    };

    enum Roles {
        CallIdRole = Qt::UserRole, ///< QString: the step's call id (attempt rows: their step's); empty on event rows
        StatusRole,                ///< int: StepStatus of the step (attempt rows: their step's); -1 on event rows
        SequenceRole,      ///< int: the step's sequence number (event rows: the step the event concerns, 0 = the run)
        AttemptNumberRole, ///< int: the attempt's number; 0 on step rows
        IsAttemptRole,     ///< bool: true on attempt rows
        ResultJsonRole,    ///< QString: compact JSON of the result (≤ MaxSummaryChars + 1); null when none
        ErrorCodeRole,     ///< QString: error code of the step / attempt; empty when none
        RowKindRole,       ///< int: RowKind
        DivergenceRole,    ///< QString: a replay's divergence on that step; empty when none
        EventKindRole,     ///< QString: the policy event's kind on event rows
    };
    enum class RowKind { Step, Attempt, Event };

    /// Longest Summary text shown in the view.
    static constexpr int MaxSummaryChars = StepSummary::MaxSummaryChars;
    /// How long new steps wait in the queue before they are inserted (ms).
    static constexpr int BatchIntervalMs = 16;
    /// Live runs up to this many steps insert each applySteps() batch at once.
    static constexpr int ImmediateInsertRows = 2000;
    /// Beyond that, inserts are spaced by one ms per this many rows shown, between
    /// BatchIntervalMs and MaxBatchIntervalMs: a QTreeView (and the filter proxy) lays
    /// out every top-level row again on each insert at the top level, so inserting once
    /// per frame would cost O(rows) per frame and O(rows²) over a run (issue 8
    /// benchmark). Spaced this way the total layout work stays linear in the run.
    static constexpr int RowsPerIntervalMs = 400;
    static constexpr int MaxBatchIntervalMs = 250;
    /// Steps read from the journal at a time, and how many such pages are kept.
    static constexpr int PageSize = TracePageCache::PageSize;
    static constexpr int MaxCachedPages = TracePageCache::MaxPages;
    /// A page whose arrival adds attempt rows under more steps than this that a view
    /// had counted says so in one layout change instead of an insert per step.
    static constexpr int MaxAttemptInserts = 16;

    explicit TraceModel(QObject *parent = nullptr);
    ~TraceModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    /// Without reading: QTreeView asks this of every row when it lays them out. A
    /// journal-backed step row not read yet says true (almost every journaled step has
    /// an attempt); its attempt rows are inserted when its page arrives.
    bool hasChildren(const QModelIndex &parent = {}) const override;
    /// True for a journal-backed step row whose page was never read, so that a proxy
    /// (QSortFilterProxyModel::hasChildren) does not map every row's children during
    /// layout; fetchMore asks the loader for the page (it arrives later).
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    /// Every row (step, attempt, event) can be selected; none is editable.
    static constexpr Qt::ItemFlags RowFlags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    /// RowFlags for a valid index: the same for every row, so that TraceFilterModel
    /// answers without mapping the row (QTreeView asks each top-level row per layout).
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Shows run `runId` of the journal at `journalPath` (finished or suspended)
    /// without loading its steps. False with `error` when the journal cannot be read;
    /// the model is then empty.
    bool openRun(const QString &journalPath, const QString &runId, QString *error = nullptr);
    /// True while the rows come from a journal (openRun), false for a live run.
    bool isJournalBacked() const { return m_journal.isOpen(); }
    QString runId() const { return m_journal.runId(); }
    /// Journal path of the run shown by openRun; empty for a live run.
    QString journalPath() const;

    /// Number of steps (top-level step rows, queued ones not counted).
    int stepCount() const;
    /// The step shown at top-level `row`; nullopt for event rows and out of range. A
    /// journal-backed step whose page is not here is read alone, on the calling thread
    /// (for a single look-up; the views never call it).
    std::optional<StepSummary> step(int row) const;
    /// The step with `callId` (shown or still queued); nullopt when unknown. Reads
    /// like step().
    std::optional<StepSummary> stepByCallId(const QString &callId) const;
    /// The whole step (arguments, result, output) with `callId` of a journal-backed
    /// run, loaded from the journal; nullopt for live runs (the engine has those).
    std::optional<Step> fullStep(const QString &callId) const;
    /// How long the step with `sequence` was held for a person (step mode, tool
    /// approval) before it went on, in ms: the `held_ms` of its step_decision events,
    /// which its duration leaves out (docs/trace.md "Durations"); 0 when never held.
    qint64 heldMs(int sequence) const;
    /// Top-level index of the step with `callId`; invalid while it is still queued.
    QModelIndex indexForCallId(const QString &callId, int column = 0) const;

    /// Steps are numbered 0…stepCount()-1 in sequence order ("ordinals"), whatever
    /// event rows sit between them.
    int ordinalOfRow(int row) const; ///< -1 for event rows
    int rowOfOrdinal(int ordinal) const;
    int stepsBeforeRow(int row) const; ///< step rows above top-level `row`
    /// The step at `ordinal`, valid until the next call into the model; for a
    /// journal-backed run nullptr while its page is not here (the page is then asked
    /// for, never waited for).
    const StepSummary *summaryAt(int ordinal) const;
    /// True when the step at `ordinal` can be shown now (live, or its page is here).
    bool isLoaded(int ordinal) const;
    int ordinalOfCallId(const QString &callId) const; ///< -1 when unknown or queued
    int ordinalOfSequence(int sequence) const;        ///< -1 when unknown or queued

    /// Ordinals of the steps `query` keeps, ascending (journal: one indexed query;
    /// live: a scan of the light rows).
    std::vector<int> matchingOrdinals(const StepQuery &query) const;
    /// Whether the step at `ordinal` matches `query` (live rows; for journal-backed
    /// rows use matchingOrdinals).
    bool matches(int ordinal, const StepQuery &query) const;
    /// The next failed (StepQuery::Status::FailedOnly) or pending step after/before
    /// `ordinal` (-1 = from the start/end), without wrapping; -1 when none. O(log n).
    int nextOrdinal(int ordinal, StepQuery::Status which, bool forward) const;
    /// Tools of the steps shown, in the order they first appeared.
    QStringList tools() const { return m_tools; }

    /// Steps waiting in the queue for the next flush.
    int queuedCount() const { return m_live.queuedCount(); }
    /// Policy event rows.
    int eventCount() const { return m_events.size(); }

    /// Translated display name of a step status ("succeeded", …).
    static QString statusText(StepStatus status) { return TraceRowFormat::statusText(status); }
    /// Compact JSON, never throwing on invalid UTF-8.
    static QString jsonText(const nlohmann::json &value, int indent = -1)
    {
        return TraceRowFormat::jsonText(value, indent);
    }
    /// One line for a policy event: what happened and to which call.
    static QString eventText(const PolicyEvent &event) { return TraceRowFormat::eventText(event); }

public Q_SLOTS:
    /// Queues a new step (inserted at the next flush). A step whose call id is known
    /// already is treated as an update.
    void addStep(const Step &step);
    /// Replaces the step with the same call id: its row, its status and its attempt
    /// children. An unknown call id is added.
    void updateStep(const Step &step);
    /// A batch from RunController::stepsUpdated: steps seen for the first time are
    /// inserted (one beginInsertRows), the others replace the row with their sequence.
    /// Past ImmediateInsertRows steps the new rows are queued and inserted by the
    /// next paced flush (see RowsPerIntervalMs); flush() inserts them at once.
    void applySteps(const QList<Step> &steps);
    /// A policy event of the live run: a row after the step it concerns.
    void addEvent(const PolicyEvent &event);
    /// Removes every step and event (a new run) and leaves journal mode.
    void clear();
    /// Inserts the queued steps now, in one batch.
    void flush();

Q_SIGNALS:
    /// New tools appeared in tools().
    void toolsChanged();

private:
    /// Delay before queued steps are inserted: 0 (now) for small runs, else paced.
    int insertDelayMs() const;

    /// A page from the loader: cached, attempt rows inserted, the rows' data changed.
    void takePage(int page, const std::vector<StepSummary> &rows);
    /// Attempt rows under the step at `ordinal` (journal: as far as known).
    int attemptRows(int ordinal) const;
    /// summaryAt(), or for a journal-backed step not here, its row read alone.
    std::optional<StepSummary> lookup(int ordinal) const;
    /// Empties both sources (between beginResetModel and endResetModel).
    void resetRows();
    int sequenceOfOrdinal(int ordinal) const;
    void replaceLive(int ordinal, StepSummary summary);
    void noteTool(const QString &tool);

    TraceLiveRows m_live;
    QTimer *m_flushTimer = nullptr;

    TraceJournalRows m_journal;

    TraceEventRows m_events;
    QStringList m_tools;
    QSet<QString> m_toolSet;
    TraceRowFormat m_format;
};
