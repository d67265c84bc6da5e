// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "project/step.h"

#include <QHash>
#include <QString>

#include <vector>

/// The engine's name for a call (docs/steps.md "Call identity"): its tool, the hash of
/// its arguments (StepEngine::argsHash) and `n`, the number of earlier calls of the
/// same run with the same tool and hash. It does not depend on the order calls arrive
/// in: calls that differ in tool or arguments never share one, and identical calls are
/// numbered in the order the script issued them. Memoization, divergence, idempotency
/// keys and cassettes match by it; the sequence stays the display order and the call
/// id what a person names.
struct CallIdentity
{
    QString tool;
    QString argsHash;
    int n = 0;

    /// "<tool>:<argsHash>:<n>"; the idempotency key is "<runId>:" + this.
    QString text() const;
};

/// The hash identity uses for `step`: its argsHash, or the hash of its arguments when
/// it has none (a call refused before its hash was taken, a journal from before schema 2).
QString identityHash(const Step &step);

/// Numbers calls with the same tool and argument hash in the order they are given.
class CallCounter
{
public:
    CallIdentity next(const QString &tool, const QString &argsHash);

private:
    QHash<QString, int> m_seen; ///< by "<tool>:<argsHash>"
};

/// The recorded steps of a plan by identity, computed from the steps in sequence order
/// (sequence = arrival order in the recorded run), so journals and cassettes written
/// before identities existed need no migration.
class PlanIndex
{
public:
    /// Indexes `steps` (sorted by sequence here; an empty argsHash is filled in).
    void reset(std::vector<Step> &steps);
    /// The index in the steps given to reset() of the step with `identity`, or -1.
    int find(const CallIdentity &identity) const;
    /// The identity of recorded step `index`.
    const CallIdentity &identityOf(int index) const;
    /// The largest recorded sequence (0 when empty).
    int maxSequence() const;

private:
    QHash<QString, int> m_byIdentity; ///< by CallIdentity::text()
    std::vector<CallIdentity> m_identities;
    int m_maxSequence = 0;
};
