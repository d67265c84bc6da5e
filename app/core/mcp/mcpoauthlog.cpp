// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpoauthlog.h"

void McpOAuthLog::begin(const QString &what, const QString &request)
{
    m_steps.push_back(Step{what, request, {}, {}, false, {}});
}

void McpOAuthLog::outcome(const QString &text)
{
    if (!m_steps.empty())
        m_steps.back().outcome = text;
}

void McpOAuthLog::note(const QString &text)
{
    if (!m_steps.empty() && m_steps.back().notes.size() < 32)
        m_steps.back().notes << text;
}

void McpOAuthLog::fail(const QString &why)
{
    if (m_steps.empty())
        begin(QStringLiteral("sign-in"), QString());
    m_steps.back().failed = true;
    m_steps.back().why = why;
}

bool McpOAuthLog::failed() const
{
    return !m_steps.empty() && m_steps.back().failed;
}

QString McpOAuthLog::failure() const
{
    if (!failed())
        return {};
    return QStringLiteral("step %1 (%2) failed: %3").arg(m_steps.size()).arg(m_steps.back().what, m_steps.back().why);
}

QString McpOAuthLog::text() const
{
    QStringList lines;
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        const Step &step = m_steps[i];
        QString line = QStringLiteral("%1. %2").arg(i + 1).arg(step.what);
        if (!step.request.isEmpty())
            line += QStringLiteral(": ") + step.request;
        if (!step.outcome.isEmpty())
            line += QStringLiteral(" -> ") + step.outcome;
        lines << line;
        for (const QString &note : step.notes)
            lines << QStringLiteral("   ") + note;
        if (step.failed)
            lines << QStringLiteral("   FAILED: ") + step.why;
    }
    return lines.join(u'\n');
}
