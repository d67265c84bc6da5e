// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>

#include <vector>

/// Maps a key (a call id, a sequence number) to a step's ordinal in a growing live
/// trace, without ever rehashing the entries it holds.
///
/// A single QHash doubles its buckets and re-inserts every entry when it fills: at
/// 65 536 call ids that took 40 ms of the GUI thread in one TraceModel::flush (and
/// twice that at 131 072), a stall of its own in the issue 8 streaming benchmark. Here
/// entries go into generations of fixed capacity (FirstCapacity, then doubling), each
/// reserved when it is created and never grown: an insert is O(1), a look-up probes
/// the newest generation first (the steps a live run updates are the newest), at most
/// log2(count / FirstCapacity) + 1 of them (9 at a million).
template<typename Key>
class OrdinalIndex
{
public:
    static constexpr qsizetype FirstCapacity = 4096;

    /// Adds `key` → `ordinal`. A key must be added once (the trace checks first).
    void insert(const Key &key, int ordinal)
    {
        if (m_generations.empty() || m_generations.back().size() >= m_capacity) {
            m_capacity = m_generations.empty() ? FirstCapacity : 2 * m_capacity;
            m_generations.emplace_back();
            m_generations.back().reserve(m_capacity);
        }
        m_generations.back().insert(key, ordinal);
    }

    /// The ordinal of `key`, or `missing` when it was not added.
    int value(const Key &key, int missing = -1) const
    {
        for (auto it = m_generations.rbegin(); it != m_generations.rend(); ++it) {
            const auto found = it->constFind(key);
            if (found != it->constEnd())
                return *found;
        }
        return missing;
    }

    bool contains(const Key &key) const { return value(key) != -1; }

    qsizetype size() const
    {
        qsizetype total = 0;
        for (const QHash<Key, int> &generation : m_generations)
            total += generation.size();
        return total;
    }

    /// Generations in use (a test checks the growth pattern).
    int generationCount() const { return int(m_generations.size()); }

    void clear()
    {
        m_generations.clear();
        m_capacity = 0;
    }

private:
    std::vector<QHash<Key, int>> m_generations;
    qsizetype m_capacity = 0;
};
