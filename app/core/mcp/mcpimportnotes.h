// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <vector>

/// The notes of one imported MCP server (McpConfigImport): one line per finding with the
/// first places it applies to — "args[1], args[2], args[3] and 4 more: ${x} is not
/// expanded" —, at most `maxLines` findings, the rest counted in a last line. A config
/// of 500 000 `${x}` arguments gives one line, not half a million (each looked up in a
/// list before it was added: minutes of a frozen window). Adding is O(1).
class McpImportNotes
{
public:
    McpImportNotes(qsizetype maxLines, qsizetype maxPlaces)
        : m_maxLines(maxLines)
        , m_maxPlaces(maxPlaces)
    {}

    /// Finding `text` at `where` ("" when the text says where itself).
    void add(const QString &where, const QString &text);
    QStringList lines() const;

private:
    struct Finding
    {
        QString text;
        QStringList places;
        QString lastPlace;
        qsizetype count = 0;
    };
    qsizetype m_maxLines;
    qsizetype m_maxPlaces;
    std::vector<Finding> m_findings;
    QHash<QString, qsizetype> m_index;
    qsizetype m_more = 0;
};
