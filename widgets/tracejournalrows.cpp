// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracejournalrows.h"

#include "tracepageloader.h"

#include <algorithm>

TraceJournalRows::TraceJournalRows()
    : m_loader(std::make_unique<TracePageLoader>())
{}

TraceJournalRows::~TraceJournalRows() = default;

bool TraceJournalRows::open(const QString &journalPath, const QString &runId, QString *error)
{
    close();
    m_runId = runId;
    m_reader = std::make_unique<JournalReader>();
    if (!m_reader->open(journalPath, error)) {
        m_reader.reset();
        m_runId.clear();
        return false;
    }
    m_extent = m_reader->extent(runId);
    m_cache.reset(m_extent.count);
    m_loader->open(m_reader->path(), runId);
    if (!m_extent.contiguous())
        m_sequences = m_reader->sequences(runId);
    return true;
}

void TraceJournalRows::close()
{
    m_reader.reset();
    m_loader->close(); // pages still on their way are dropped
    m_cache.reset(0);
    m_runId.clear();
    m_extent = {};
    m_sequences.clear();
    m_failedOrdinals.clear();
    m_pendingOrdinals.clear();
    m_jumpListsLoaded = false;
}

QString TraceJournalRows::path() const
{
    return m_reader ? m_reader->path() : QString();
}

int TraceJournalRows::sequenceOfOrdinal(int ordinal) const
{
    if (!m_sequences.empty())
        return ordinal >= 0 && ordinal < int(m_sequences.size()) ? m_sequences[size_t(ordinal)] : 0;
    return m_extent.first + ordinal;
}

int TraceJournalRows::ordinalOfSequence(int sequence) const
{
    if (!m_sequences.empty()) {
        const auto it = std::lower_bound(m_sequences.begin(), m_sequences.end(), sequence);
        return it != m_sequences.end() && *it == sequence ? int(it - m_sequences.begin()) : -1;
    }
    return sequence >= m_extent.first && sequence <= m_extent.last ? sequence - m_extent.first : -1;
}

int TraceJournalRows::ordinalOfCallId(const QString &callId) const
{
    return m_reader ? ordinalOfSequence(m_reader->sequenceOf(m_runId, callId)) : -1;
}

const StepSummary *TraceJournalRows::find(int ordinal) const
{
    if (const StepSummary *s = m_cache.find(ordinal))
        return s;
    requestPage(TracePageCache::pageOf(ordinal));
    return nullptr;
}

void TraceJournalRows::requestPage(int page) const
{
    if (m_cache.hasPage(page) || m_loader->isRequested(page))
        return;
    const int firstOrdinal = page * PageSize;
    const int lastOrdinal = pageEnd(page) - 1;
    if (lastOrdinal >= firstOrdinal)
        m_loader->request(page, sequenceOfOrdinal(firstOrdinal), sequenceOfOrdinal(lastOrdinal));
}

int TraceJournalRows::pageEnd(int page) const
{
    return std::min(page * PageSize + PageSize, size());
}

std::vector<int> TraceJournalRows::store(int page, const std::vector<StepSummary> &rows)
{
    const int firstOrdinal = page * PageSize;
    std::vector<StepSummary> slots(size_t(std::max(0, pageEnd(page) - firstOrdinal)));
    for (const StepSummary &s : rows) {
        const int k = ordinalOfSequence(s.sequence) - firstOrdinal;
        if (k >= 0 && k < int(slots.size()))
            slots[size_t(k)] = s;
    }
    std::vector<int> attempts;
    attempts.reserve(slots.size());
    for (const StepSummary &s : slots)
        attempts.push_back(int(s.attempts.size()));
    m_cache.store(page, std::move(slots));
    return attempts;
}

std::optional<StepSummary> TraceJournalRows::readAlone(int ordinal) const
{
    if (!m_reader || ordinal < 0 || ordinal >= size())
        return std::nullopt;
    const int sequence = sequenceOfOrdinal(ordinal);
    std::vector<StepSummary> rows = m_reader->summaries(m_runId, sequence, sequence);
    return rows.empty() ? std::nullopt : std::optional<StepSummary>(std::move(rows.front()));
}

std::optional<Step> TraceJournalRows::fullStep(const QString &callId) const
{
    if (!m_reader)
        return std::nullopt;
    const int sequence = m_reader->sequenceOf(m_runId, callId);
    return sequence > 0 ? m_reader->step(m_runId, sequence) : std::nullopt;
}

std::vector<int> TraceJournalRows::matching(const StepQuery &query) const
{
    std::vector<int> result;
    if (!m_reader)
        return result;
    const std::vector<int> sequences = m_reader->matching(m_runId, query);
    result.reserve(sequences.size());
    for (int sequence : sequences) {
        const int ordinal = ordinalOfSequence(sequence);
        if (ordinal >= 0)
            result.push_back(ordinal);
    }
    return result;
}

int TraceJournalRows::next(int ordinal, bool failed, bool forward) const
{
    if (!m_jumpListsLoaded) {
        m_jumpListsLoaded = true;
        m_failedOrdinals = matching({QString(), StepQuery::Status::FailedOnly, QString()});
        m_pendingOrdinals = matching({QString(), StepQuery::Status::PendingOnly, QString()});
    }
    const std::vector<int> &list = failed ? m_failedOrdinals : m_pendingOrdinals;
    if (forward) {
        const auto it = std::upper_bound(list.begin(), list.end(), ordinal);
        return it == list.end() ? -1 : *it;
    }
    auto it = ordinal < 0 ? list.end() : std::lower_bound(list.begin(), list.end(), ordinal);
    return it == list.begin() ? -1 : *std::prev(it);
}

std::vector<TraceEventRow> TraceJournalRows::eventRows() const
{
    std::vector<TraceEventRow> rows;
    if (!m_reader)
        return rows;
    for (const PolicyEvent &event : m_reader->events(m_runId)) {
        const int anchor = event.sequence > 0 ? event.sequence : m_reader->sequenceAt(m_runId, event.at);
        const int ordinal = anchor > 0 ? ordinalOfSequence(anchor) : -1;
        rows.push_back(TraceRowFormat::eventRow(event, ordinal >= 0 ? ordinal + 1 : 0));
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const TraceEventRow &a, const TraceEventRow &b) { return a.afterSteps < b.afterSteps; });
    return rows;
}

QStringList TraceJournalRows::tools() const
{
    return m_reader ? m_reader->tools(m_runId) : QStringList();
}
