// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>

struct Tool;

/// The per-call clocks of the budget meters (issue 8 item 7): for every step whose
/// attempt is running, the attempt's elapsed time against its attempt_timeout; for
/// every call waiting for a person, the waited time against its wait bound (a manual
/// tool's attempt_timeout; none by default). Fed with the run's step signals, it
/// keeps only the open steps, so a tick costs O(calls in flight), not O(steps).
class AttemptClocks
{
public:
    struct Clock
    {
        QString text;        ///< "#3 fetch_page attempt 2: 1.2 s of 30.0 s"
        double fraction = 0; ///< elapsed / bound; 0 without a bound
    };

    /// Records `step` if an attempt of it is open (Running, Waiting), forgets it otherwise.
    void update(const Step &step);
    void clear()
    {
        m_open.clear();
        m_order.clear();
    }
    int count() const { return int(m_open.size()); }

    /// The clocks at `now` (ms since the epoch), oldest call first, at most `max`;
    /// `toolOf` gives a step's tool (its retry.attemptTimeoutMs is the bound).
    QList<Clock> clocks(qint64 now, const std::function<const Tool *(const QString &)> &toolOf, int max = 3) const;
    /// One clock: `boundMs` 0 = no bound.
    static Clock clock(const Step &step, qint64 boundMs, qint64 now);

private:
    QHash<QString, Step> m_open;
    QList<QString> m_order; ///< call ids of m_open in arrival order
};
