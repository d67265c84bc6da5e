// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

/// What a served session of `POST /v1/exec/programmatic` keeps on disk so that a
/// restarted studio can go on with it (docs/server.md "Sessions and tokens"), next to
/// its program in the project's `.toolstudio/served/` (mode 0700, files 0600):
/// `RUN.start.json`, the request that started it without its code (tools, language,
/// timeout, files; written once, removed when the session ends), and `RUN.state.json` /
/// `RUN.state-b.json`, its state at its latest pause (written in turn before the
/// tool_call_required reply goes out, in place: a torn write spoils one slot, never
/// both), or how it ended: the SHA-256 of the token that reply issued and of the
/// one the continuation before it used (never a token itself), when it paused, and the
/// calls the client was given that wait. Whether a continuation came since is the
/// journal's to say (those calls ended): the steps are the run's.
struct ServedSessionRecord
{
    /// A call the client was given that waits for its result.
    struct WaitingCall
    {
        int sequence = 0; ///< the step's number in the run
        QString callId;   ///< the id the client was given
    };

    /// Counts the saves of a session: each goes to the slot the one before did not
    /// (`RUN.state.json`, `RUN.state-b.json`), and load() takes the newer whole one.
    qint64 serial = 0;
    std::string tokenHash;         ///< hex SHA-256 of the current token; empty = none
    std::string previousTokenHash; ///< hex SHA-256 of the token the latest continuation used
    qint64 pausedAt = 0;           ///< ms since the epoch the latest tool_call_required went; 0 = not paused
    qint64 elapsedMs = 0;          ///< the session's clock (execution_time) then
    qint64 stdoutSent = 0;         ///< bytes of stdout the client had as partial_stdout
    qint64 stderrSent = 0;
    std::vector<WaitingCall> waiting;
    QString endedCode; ///< "session_ended", "session_expired", …; empty while it goes on
    QString endedMessage;

    /// Run ids are the journal's (20261205T031856-0a3f): letters, digits, '-' and '_',
    /// 1 to 64 of them; anything else names no session (and no file).
    static bool validId(const QString &runId);
    /// hex SHA-256 of `token`.
    static std::string hash(const std::string &token);
    /// `hash` == `expected` (non-empty), in time that does not depend on where they differ.
    static bool sameHash(const std::string &hash, const std::string &expected);

    /// The state of session `runId` of the project in `projectDir`; nullopt when it has
    /// none (not a served session of a studio that keeps them) or it is unreadable.
    static std::optional<ServedSessionRecord> load(const QString &projectDir, const QString &runId);
    /// Writes the state into the slot of its `serial` (mode 0600); false with `error`.
    bool save(const QString &projectDir, const QString &runId, QString *error) const;

    /// The start request without its code (ProgrammaticRequest::startSpec), kept once.
    static bool saveStart(const QString &projectDir, const QString &runId, const std::string &spec, QString *error);
    /// That request, or empty when it is gone or over the request size bound.
    static std::string loadStart(const QString &projectDir, const QString &runId);
    static void removeStart(const QString &projectDir, const QString &runId);
};
