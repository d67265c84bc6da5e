// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "step.h"

#include <QSet>
#include <QString>

#include <memory>
#include <vector>

class QSqlQuery;

/// The durable record of runs, steps and attempts (DESIGN.md glossary "journal"):
/// SQLite in WAL mode through Qt SQL, schema versioned with `PRAGMA user_version`.
/// Every write method commits before it returns (synchronous=NORMAL: survives a crash
/// of the studio; a power loss may drop the last commits), so a step recorded before
/// its reply is sent is never lost. Not thread-safe: use it from one thread.
class Journal
{
public:
    Journal();
    ~Journal();
    Journal(const Journal &) = delete;
    Journal &operator=(const Journal &) = delete;

    /// Opens or creates the database at `path` (parent folders created). Returns false
    /// with `error` set when the file cannot be opened or is not a journal.
    bool open(const QString &path, QString *error = nullptr);
    bool isOpen() const;
    QString path() const;

    bool recordRun(const RunRecord &run);
    /// Inserts or replaces the step and all its attempts in one transaction.
    bool recordStep(const Step &step);
    /// Appends a chunk of the script's output (stream 1 = stdout, 2 = stderr).
    bool appendOutput(const QString &runId, int stream, const QByteArray &chunk);

    std::vector<RunRecord> runs() const;
    std::optional<RunRecord> run(const QString &runId) const;
    std::vector<Step> steps(const QString &runId) const;
    QByteArray output(const QString &runId, int stream) const;

    QString lastError() const;

private:
    struct Statements;
    QString openDatabase(const QString &path);
    void closeDatabase();
    /// The write statement for `sql`, prepared once per open database.
    QSqlQuery *statement(const char *sql);

    QString m_connectionName;
    QString m_path;
    QString m_lastError;
    QSet<QString> m_knownRuns; ///< runs known to have a row (skips the placeholder insert)
    std::unique_ptr<Statements> m_statements;
};
