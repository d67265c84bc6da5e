// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/callidentity.h"

#include "engine/stepengine.h"

#include <algorithm>

QString CallIdentity::text() const
{
    return tool + QLatin1Char(':') + argsHash + QLatin1Char(':') + QString::number(n);
}

QString identityHash(const Step &step)
{
    return step.argsHash.isEmpty() ? StepEngine::argsHash(step.args) : step.argsHash;
}

CallIdentity CallCounter::next(const QString &tool, const QString &argsHash)
{
    int &seen = m_seen[tool + QLatin1Char(':') + argsHash];
    return {tool, argsHash, seen++};
}

void PlanIndex::reset(std::vector<Step> &steps)
{
    std::stable_sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) { return a.sequence < b.sequence; });
    m_byIdentity.clear();
    m_identities.clear();
    m_identities.reserve(steps.size());
    m_maxSequence = 0;
    CallCounter counter;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        Step &step = steps[i];
        if (step.argsHash.isEmpty())
            step.argsHash = StepEngine::argsHash(step.args);
        m_identities.push_back(counter.next(step.tool, step.argsHash));
        m_byIdentity.insert(m_identities.back().text(), int(i));
        m_maxSequence = std::max(m_maxSequence, step.sequence);
    }
}

int PlanIndex::find(const CallIdentity &identity) const
{
    return m_byIdentity.value(identity.text(), -1);
}

const CallIdentity &PlanIndex::identityOf(int index) const
{
    return m_identities[std::size_t(index)];
}

int PlanIndex::maxSequence() const
{
    return m_maxSequence;
}
