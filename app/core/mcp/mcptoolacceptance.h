// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <vector>

/// The project's record of accepted MCP tools as one process's pool sees it: read again
/// whenever the file changed on disk (another process or window accepted a tool), the
/// first listing of a server accepted as it is, and what a listing differs in from what a
/// person accepted — for McpServerPool, which keeps each server's status.
class McpToolAcceptance
{
    Q_DECLARE_TR_FUNCTIONS(McpToolAcceptance)
public:
    /// What a server's listed tools differ in from the record, and why the record cannot
    /// be used or written ("" when it can).
    struct Changes
    {
        std::vector<McpToolChange> tools;
        QString error;
    };

    explicit McpToolAcceptance(const QString &projectDir)
        : m_projectDir(projectDir)
    {}

    /// Reads the record again when the file changed since it was read (size,
    /// modification time, inode); true when it was read again.
    bool refresh();
    /// After `server` listed `tools`: the first listing of a server is accepted as it is
    /// (written to the record; a failed write is kept as the error changesOf() reports).
    /// True when the record was written (and read again).
    bool observe(const QString &server, const std::vector<nlohmann::json> &tools);
    /// What `tools` (listed by `server`; empty when it is not listed now) differ in.
    Changes changesOf(const QString &server, const std::vector<nlohmann::json> &tools) const;
    /// Why a call of `tool` of `server`, whose listing now is `tools`, may not be sent; ""
    /// when it may.
    QString refusal(const QString &server, const std::vector<nlohmann::json> &tools, const QString &tool) const;
    /// Records `changes` (as a person saw them) as accepted for `server`, whose listing
    /// now is `tools`; `servers` are all the project's servers (an unusable record is
    /// replaced by one where theirs are new). False with `error` when a tool is no longer
    /// listed as shown or the record cannot be written; `note` says when an unusable
    /// record was kept aside.
    bool accept(const QString &server, const std::vector<nlohmann::json> &tools,
                const std::vector<McpToolChange> &changes, const QStringList &servers, QString *error, QString *note);

    /// What differs between two tools/list answers, in words: "its tools changed
    /// (added: a; removed: b; changed: c)" — at most 10 names each.
    static QString changeNote(const std::vector<nlohmann::json> &before, const std::vector<nlohmann::json> &after);

private:
    /// Forgets what was read, so that the next refresh() reads the file again.
    void reread();

    QString m_projectDir;
    McpAcceptedTools m_accepted;
    QString m_stamp; ///< size, modification time and inode of the file read last ("" before the first read)
    QString m_writeError;
};
