// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "journal/journalreader.h"
#include "project/steprows.h"
#include "tracepagecache.h"
#include "tracerowformat.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

class TracePageLoader;

/// The rows of a run read from its journal (TraceModel's journal source, the twin of
/// TraceLiveRows): the reader, the run's sequences by ordinal, the pages read so far
/// (TracePageCache) and the loader that reads them off the GUI thread, and the
/// ordinals of failed and pending steps (jumps), read on first use. It emits nothing:
/// pages arrive through loader()'s pageLoaded, and TraceModel says what changed.
class TraceJournalRows
{
public:
    static constexpr int PageSize = TracePageCache::PageSize;

    TraceJournalRows();
    ~TraceJournalRows();

    /// Shows run `runId` of the journal at `journalPath`; false with `error` (and
    /// closed) when the journal cannot be read.
    bool open(const QString &journalPath, const QString &runId, QString *error);
    /// Forgets the run; pages still on their way are dropped.
    void close();
    bool isOpen() const { return m_reader != nullptr; }
    QString path() const;
    QString runId() const { return m_runId; }
    TracePageLoader *loader() const { return m_loader.get(); }

    /// Steps of the run.
    int size() const { return m_extent.count; }
    int sequenceOfOrdinal(int ordinal) const;
    int ordinalOfSequence(int sequence) const; ///< -1 when unknown
    int ordinalOfCallId(const QString &callId) const;

    /// The step at `ordinal` when its page is here; otherwise asks the loader for the
    /// page (never waits for it) and says nullptr.
    const StepSummary *find(int ordinal) const;
    /// Asks the loader for `page` unless it is here or on its way.
    void requestPage(int page) const;
    /// One past the last ordinal of `page` (the last page may be short).
    int pageEnd(int page) const;
    /// Keeps the rows of `page` the loader read, by ordinal; the attempt count of each
    /// of the page's steps (not yet told to the cache's known counts).
    std::vector<int> store(int page, const std::vector<StepSummary> &rows);
    /// The pages, and each step's attempt count once known.
    TracePageCache &cache() const { return m_cache; }

    /// The step at `ordinal` read alone on the calling thread; nullopt out of range.
    std::optional<StepSummary> readAlone(int ordinal) const;
    /// The whole step with `callId`, loaded from the journal.
    std::optional<Step> fullStep(const QString &callId) const;
    /// Ordinals of the steps `query` keeps, ascending (one indexed query).
    std::vector<int> matching(const StepQuery &query) const;
    /// The next failed (`failed`) or pending ordinal after/before `ordinal` (-1 = from
    /// the start/end), without wrapping; -1 when none.
    int next(int ordinal, bool failed, bool forward) const;
    /// The run's policy events as rows, by the steps they follow, then arrival.
    std::vector<TraceEventRow> eventRows() const;
    /// Tools of the run's steps, in the order they first appeared.
    QStringList tools() const;

private:
    std::unique_ptr<JournalReader> m_reader;
    QString m_runId;
    JournalReader::Extent m_extent;
    std::vector<int> m_sequences; ///< only when the run's sequences have gaps
    std::unique_ptr<TracePageLoader> m_loader;
    mutable TracePageCache m_cache;
    mutable std::vector<int> m_failedOrdinals; ///< filled on first use
    mutable std::vector<int> m_pendingOrdinals;
    mutable bool m_jumpListsLoaded = false;
};
