// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpimportnotes.h"

void McpImportNotes::add(const QString &where, const QString &text)
{
    auto it = m_index.constFind(text);
    if (it == m_index.cend()) {
        if (qsizetype(m_findings.size()) >= m_maxLines) {
            ++m_more;
            return;
        }
        it = m_index.insert(text, qsizetype(m_findings.size()));
        m_findings.push_back(Finding{text, {}, {}, 0});
    }
    Finding &finding = m_findings[std::size_t(*it)];
    if (!where.isEmpty() && where == finding.lastPlace)
        return; // one value, twice: "args[0]" once
    finding.lastPlace = where;
    if (!where.isEmpty() && finding.places.size() < m_maxPlaces)
        finding.places << where;
    ++finding.count;
}

QStringList McpImportNotes::lines() const
{
    QStringList lines;
    for (const Finding &finding : m_findings) {
        if (finding.places.isEmpty()) {
            lines << finding.text;
            continue;
        }
        QString places = finding.places.join(QStringLiteral(", "));
        if (finding.count > finding.places.size())
            places += QStringLiteral(" and %1 more").arg(finding.count - finding.places.size());
        lines << places + QStringLiteral(": ") + finding.text;
    }
    if (m_more > 0)
        lines << QStringLiteral("… and %1 more notes of this server, not listed").arg(m_more);
    return lines;
}
