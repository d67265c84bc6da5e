// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QString>

#include <vector>

/// The rows the trace views read (issue 8): light forms of steps and attempts, a step's
/// extent on the timeline and the trace filter. The journal's reader fills them from
/// SQLite, the live store from the engine's steps; a view needs neither.

/// One attempt of a StepSummary: times in ms since the Unix epoch (0 = not yet).
struct AttemptSummary
{
    int number = 0;
    qint64 startedAt = 0;
    qint64 endedAt = 0;
    bool succeeded = false;
    QString errorCode;      ///< empty when the attempt did not fail
    QString errorText;      ///< "code: message", at most StepSummary::MaxSummaryChars + 1 characters
    qint64 outputBytes = 0; ///< size of the captured handler output
    /// The stretches spent waiting for a person (closedWaits(): none open once ended).
    std::vector<PersonWait> personWaits;

    /// Of the attempt up to its end (`now` while it runs): how long it waited for a
    /// person, and how long it ran besides.
    qint64 waitedMs(qint64 now) const { return ::waitedMs(personWaits, startedAt, endedAt > 0 ? endedAt : now); }
    qint64 ranMs(qint64 now) const { return (endedAt > 0 ? endedAt : now) - startedAt - waitedMs(now); }
};

/// The light form of a Step that the trace shows (issue 8): no arguments, no full
/// result — the summary is the compact JSON of the result, or the error as
/// "code: message", cut to MaxSummaryChars + 1 characters (so a view can tell that it
/// was cut and elide). A step row of a million-step run costs a few hundred bytes.
struct StepSummary
{
    /// Longest summary a view shows (STYLE.md: light rows); the full value is in the journal.
    static constexpr int MaxSummaryChars = 200;

    int sequence = 0;
    QString callId;
    QString tool;
    StepStatus status = StepStatus::Queued;
    int maxAttempts = 1;
    qint64 queuedAt = 0;
    qint64 startedAt = 0;
    qint64 endedAt = 0;
    bool hasResult = false; ///< a result, even null/0/""/false/[]/{}
    QString resultText;     ///< compact JSON of the result (cut); empty when !hasResult
    QString errorCode;      ///< the step's error code; empty when none
    QString errorText;      ///< "code: message" (cut); empty when none
    QString divergence;     ///< Step::divergence (replay), cut
    bool paused = false;    ///< step mode holds it (live runs only; not journaled)
    qint64 heldAt = 0;      ///< Step::heldAt: held by step mode from heldAt until queuedAt
    QString progress;       ///< the running attempt's last progress line (live runs only; not journaled)
    std::vector<AttemptSummary> attempts;

    qint64 durationMs() const { return endedAt > 0 && queuedAt > 0 ? endedAt - queuedAt : 0; }
    /// "2/3": attempts made / attempts allowed.
    QString attemptsText() const;
    /// Ended failed (the trace's "Failed" filter, Ctrl+E).
    bool isFailed() const { return status == StepStatus::Failed; }
    /// Failed, or any attempt failed — also one that succeeded after a retry ("Had failures").
    bool hadFailures() const;
    /// Waiting for a person (manual tools, step mode).
    bool isPending() const { return status == StepStatus::Waiting || paused; }

    /// The summary of a live step (the same texts the journal read gives).
    static StepSummary of(const Step &step);
    /// `text` cut to MaxSummaryChars + 1 characters.
    static QString cut(const QString &text);
    /// "code: message"; the one that is there when the other is empty.
    static QString joinError(const QString &code, const QString &message);
};

/// A step's extent on the timeline: first start (the start of a step-mode hold, if any)
/// to end (0 while open); its attempts' segments (the back-off gaps between them) come
/// separately, for retried steps only, and so do the stretches it waited for a person.
struct StepSpan
{
    struct Segment
    {
        qint64 start = 0;
        qint64 end = 0; ///< 0 while open
        bool succeeded = false;
        /// A stretch spent waiting for a person (PersonWait, a step-mode hold), drawn
        /// over the attempts; otherwise an attempt.
        bool waiting = false;
    };
    int sequence = 0;
    StepStatus status = StepStatus::Queued;
    qint64 start = 0;
    qint64 end = 0;

    /// Where the bar of `step` starts: the start of its step-mode hold (held still: its
    /// queue time), else its first attempt's start, else its start or queue time.
    static qint64 startOf(const StepSummary &step);
    /// The segments the timeline draws over the bar of `step`: its attempts when it had
    /// more than one, then what it waited for a person — the step-mode hold (open while
    /// held) and each attempt's waits, a wait still asked open (end 0). Empty: one bar.
    static std::vector<Segment> segmentsOf(const StepSummary &step);
};

/// Which steps a trace filter keeps (TraceFilterModel). Empty fields match everything.
struct StepQuery
{
    /// FailedOnly: steps that ended failed; HadFailures: those with any failed attempt
    /// (the ended-failed ones and those that succeeded or go on after a retry).
    enum class Status { All, FailedOnly, HadFailures, PendingOnly };
    QString tool; ///< exact tool name
    Status status = Status::All;
    QString text; ///< case-insensitive substring of tool, call id, result or error summary
};
