// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpacceptedtools.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <map>
#include <utility>
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

    explicit McpToolAcceptance(const QString &projectDir);

    /// Reads the record again when the file changed since it was read (size,
    /// modification and status change times, inode, device); true when it was read again.
    bool refresh();
    /// After `server` listed `tools`: the first listing of a server is accepted as it is
    /// (written to the record; a failed write is kept as the error changesOf() reports).
    /// True when the record was written (and read again).
    bool observe(const QString &server, const std::vector<nlohmann::json> &tools);
    /// What `tools` (listed by `server`; empty when it is not listed now) differ in.
    Changes changesOf(const QString &server, const std::vector<nlohmann::json> &tools) const;
    /// Why a call of `tool` of `server`, whose listing now is `tools`, may not be sent; ""
    /// when it may. `listing` names that listing (a number the caller never gives two
    /// listings): the answer is reused while the listing and the record are the same.
    QString refusal(const QString &server, const std::vector<nlohmann::json> &tools, const QString &tool,
                    quint64 listing) const;
    /// Records `changes` (as a person saw them) as accepted for `server`, whose listing
    /// now is `tools`; `servers` are all the project's servers (an unusable record is
    /// replaced by one where theirs are new). False with `error` when a tool is no longer
    /// listed as shown or the record cannot be written; `note` says when an unusable
    /// record was kept aside.
    bool accept(const QString &server, const std::vector<nlohmann::json> &tools,
                const std::vector<McpToolChange> &changes, const QStringList &servers, QString *error, QString *note);

    /// What differs between two tools/list answers, in words: "its tools changed
    /// (added: a; removed: b; changed: c)" — at most 10 names each. A tool changed when
    /// its McpAcceptedTools::canonical() text did, as its fingerprint would.
    static QString changeNote(const std::vector<nlohmann::json> &before, const std::vector<nlohmann::json> &after);

private:
    /// Forgets what was read, so that the next refresh() reads the file again.
    void reread();
    /// refusal() for the tool as `listed`, worked out.
    QString refusalOf(const QString &server, const nlohmann::json &listed, const QString &tool) const;

    /// The record file as stat() saw it when it was read last.
    struct Stamp
    {
        bool read = false; ///< false before the first read (and after reread())
        bool exists = false;
        qint64 size = 0;
        qint64 seconds = 0;
        qint64 nanoseconds = 0;
        /// The status change time too: a record rewritten in place with the same size and
        /// its modification time set back was not read again (attack37 F2).
        qint64 changeSeconds = 0;
        qint64 changeNanoseconds = 0;
        quint64 inode = 0;
        quint64 device = 0;
        bool operator==(const Stamp &) const = default;
    };
    /// A refusal() answered before; good while the record is the one read then
    /// (`generation`) and the server's tools are the listing answered for. (Not the
    /// listed tool compared: nlohmann's == calls -1 and 18446744073709551615, or 1 and
    /// 1.0, equal where the fingerprint does not — attack37 F1 — and a copy of each
    /// listing answered for was kept — F4.)
    struct Answer
    {
        quint64 generation = 0;
        quint64 listing = 0;
        QString refusal;
    };
    /// At most this many answers are kept (one per server and tool called).
    static constexpr std::size_t MaxAnswers = 1024;

    QString m_projectDir;
    QByteArray m_recordPath; ///< the record file's path, encoded (refresh() stats it at every call)
    McpAcceptedTools m_accepted;
    Stamp m_stamp;
    quint64 m_generation = 0; ///< counts the reads of the record
    QString m_writeError;
    /// refusal() is asked on every call: an answer reused is cheaper than fingerprinting
    /// the tool again.
    mutable std::map<std::pair<QString, QString>, Answer> m_answers;
};
