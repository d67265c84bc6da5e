// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"
#include "project/steprows.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

/// Read side of the journal for the trace views (issue 8): a connection of its own
/// (SQLite WAL lets it read while the Journal writes), never loading a whole run. Rows
/// are fetched by sequence range; filters and jumps are indexed queries. Opening adds
/// the indexes the queries need (`CREATE INDEX IF NOT EXISTS`; on a journal written
/// before they existed, the first open builds them — about a second per million
/// steps). Not thread-safe: one reader per thread.
class JournalReader
{
public:
    JournalReader();
    ~JournalReader();
    JournalReader(const JournalReader &) = delete;
    JournalReader &operator=(const JournalReader &) = delete;

    /// Opens the journal at `path` (which must exist). False with `error` ("<path>:
    /// cannot open: …", "… not a Tool Studio journal") otherwise.
    bool open(const QString &path, QString *error = nullptr);
    bool isOpen() const;
    QString path() const { return m_path; }

    /// Steps of `runId`: how many, and the lowest and highest sequence (0 when none).
    struct Extent
    {
        int count = 0;
        int first = 0;
        int last = 0;
        bool contiguous() const { return count == 0 || last - first + 1 == count; }
    };
    Extent extent(const QString &runId) const;
    /// The lowest and highest sequence of the run's steps, (0, 0) when it has none: two
    /// index look-ups, where extent() counts the run's rows (for a picker over a
    /// million steps that must not wait for the count).
    std::pair<int, int> sequenceRange(const QString &runId) const;
    /// Every sequence of the run, ascending (only needed when they have gaps).
    std::vector<int> sequences(const QString &runId) const;
    /// Light rows of the steps with sequence in [first, last], ascending, with attempts.
    std::vector<StepSummary> summaries(const QString &runId, int first, int last) const;
    /// The whole step (arguments, result, attempts with output), for the inspector.
    std::optional<Step> step(const QString &runId, int sequence) const;
    /// Sequence of the step with `callId`: when rows share the id (reused after a call
    /// finished, or by a resumed run whose reopened call keeps its recorded sequence), the
    /// newest (latest queued_at, then highest sequence); 0 when none.
    int sequenceOf(const QString &runId, const QString &callId) const;
    /// The distinct tools of the run's steps, in alphabetical order (one indexed
    /// look-up per tool).
    QStringList tools(const QString &runId) const;
    /// Sequences of the steps `query` keeps, ascending.
    std::vector<int> matching(const QString &runId, const StepQuery &query) const;
    /// Policy events of the run in the order they were recorded.
    std::vector<PolicyEvent> events(const QString &runId) const;
    /// The last step queued at or before `at` (0 = before every step); binary search
    /// over sequences (queue times ascend with the sequence).
    int sequenceAt(const QString &runId, qint64 at) const;
    /// Timeline extents of every step, by sequence; `segments` (optional) gets, as
    /// (sequence, segment) pairs, the attempts of every step that had more than one and
    /// the stretches each step waited for a person (StepSpan::segmentsOf()'s segments).
    std::vector<StepSpan> spans(const QString &runId,
                                std::vector<std::pair<int, StepSpan::Segment>> *segments = nullptr) const;

    QString lastError() const { return m_lastError; }

private:
    QString m_connectionName;
    QString m_path;
    mutable QString m_lastError;
    /// True when the run's `step_tools` rows are complete (schema 6, runs.tools_indexed):
    /// the tool filter reads them; otherwise it scans the run's steps.
    bool toolsIndexed(const QString &runId) const;
    /// " INDEXED BY <name>" for each of the partial indexes steps_failed, steps_waiting
    /// and attempts_failed the file has (open()); the status filters name them.
    QHash<QString, QString> m_indexedBy;
    /// `steps.attempt_ended_at`, or a constant 0 on a file older than schema 5 (open()).
    QString m_foldedAttempt;
    /// `steps.recorded_started_at, recorded_ended_at`, or constant 0s before schema 8.
    QString m_recordedTiming;
    QString m_attemptProtocol;
    /// `attempts.person_waits` and `steps.held_at`, or NULL / 0 before schema 10.
    QString m_personWaits;
    QString m_heldAt;
};
