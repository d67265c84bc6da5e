// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Private to the Journal's sources (journal.cpp, journalcommit.cpp).

#include "journal/journaltail.h"

#include <QByteArray>
#include <QString>

#include <string>
#include <vector>

#include <sqlite3.h>

/// One statement of the step-commit path, prepared once on the sqlite3 handle of the
/// journal's Qt SQL connection (QSqlDriver::handle()) and bound with SQLite's C API.
/// Why not QSqlQuery here: its bindValue() formats a placeholder name and hashes it per
/// value, which with ~30 values per step cost about a fifth of a trivial call's round
/// trip (perf, issue 4 benchmark); the commit path is the bridge's hot path. Values are
/// bound in order with the add* calls, then run() steps, resets and says what failed.
class SqliteStatement
{
public:
    SqliteStatement(sqlite3 *db, const char *sql)
        : m_db(db)
    {
        if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_statement, nullptr) != SQLITE_OK) {
            m_error = QString::fromUtf8(sqlite3_errmsg(db));
            sqlite3_finalize(m_statement);
            m_statement = nullptr;
        }
    }
    ~SqliteStatement() { sqlite3_finalize(m_statement); }
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;

    bool isValid() const { return m_statement != nullptr; }
    /// Column `i` of the row the last run() produced, as an integer (0 without a row).
    qint64 column(int i) const { return i < int(m_columns.size()) ? m_columns[std::size_t(i)] : 0; }
    QString error() const { return m_error; }
    /// The result code of the last run() (SQLITE_DONE, SQLITE_BUSY, ...).
    int lastCode() const { return m_lastCode; }

    /// Text; a null QString binds '' (the text columns are NOT NULL).
    SqliteStatement &add(const QString &value)
    {
        const QByteArray utf8 = value.toUtf8();
        sqlite3_bind_text(m_statement, ++m_index, utf8.isNull() ? "" : utf8.constData(), int(utf8.size()),
                          SQLITE_TRANSIENT);
        return *this;
    }
    SqliteStatement &add(const std::string &value)
    {
        sqlite3_bind_text(m_statement, ++m_index, value.data(), int(value.size()), SQLITE_TRANSIENT);
        return *this;
    }
    SqliteStatement &add(qint64 value)
    {
        sqlite3_bind_int64(m_statement, ++m_index, value);
        return *this;
    }
    SqliteStatement &add(int value) { return add(qint64(value)); }
    /// SQL NULL when `value` is null, else a BLOB.
    SqliteStatement &addBlob(const QByteArray &value)
    {
        if (value.isNull())
            sqlite3_bind_null(m_statement, ++m_index);
        else
            sqlite3_bind_blob(m_statement, ++m_index, value.constData(), int(value.size()), SQLITE_TRANSIENT);
        return *this;
    }
    SqliteStatement &addNull()
    {
        sqlite3_bind_null(m_statement, ++m_index);
        return *this;
    }
    /// A value decoded from a tail record; its bytes must outlive run() (bound without
    /// a copy).
    SqliteStatement &add(const TailValue &value)
    {
        ++m_index;
        switch (value.type) {
        case TailValue::Integer:
            sqlite3_bind_int64(m_statement, m_index, value.integer);
            break;
        case TailValue::Text:
            sqlite3_bind_text(m_statement, m_index, value.data, value.size, SQLITE_STATIC);
            break;
        case TailValue::Blob:
            sqlite3_bind_blob(m_statement, m_index, value.data, value.size, SQLITE_STATIC);
            break;
        case TailValue::Null:
            sqlite3_bind_null(m_statement, m_index);
            break;
        }
        return *this;
    }
    /// Steps the statement once and resets it. False with `error` set. `row`, if given:
    /// whether the statement produced a row.
    bool run(QString *error, bool *row = nullptr)
    {
        m_index = 0;
        if (!m_statement) {
            *error = m_error;
            return false;
        }
        const int rc = sqlite3_step(m_statement);
        const bool ok = rc == SQLITE_DONE || rc == SQLITE_ROW;
        if (row)
            *row = rc == SQLITE_ROW;
        m_columns.clear();
        if (rc == SQLITE_ROW) {
            for (int i = 0; i < sqlite3_column_count(m_statement); ++i)
                m_columns.push_back(sqlite3_column_int64(m_statement, i));
        }
        m_lastCode = rc;
        if (!ok)
            *error = QString::fromUtf8(sqlite3_errmsg(m_db));
        sqlite3_reset(m_statement);
        sqlite3_clear_bindings(m_statement);
        return ok;
    }

private:
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_statement = nullptr;
    QString m_error;
    int m_index = 0;
    int m_lastCode = SQLITE_OK;
    std::vector<qint64> m_columns;
};

/// SQL both Journal sources run.
namespace JournalSql {
inline constexpr char EnsureRunSql[] = "INSERT OR IGNORE INTO runs (id, status, started_at) VALUES (?, 'running', ?)";
inline constexpr char ClearToolsSql[] = "DELETE FROM step_tools WHERE run_id = ?";
inline constexpr char UnmarkToolsSql[] = "UPDATE runs SET tools_indexed = 0 WHERE id = ?";
/// How far a group commit got in a tail (schema 7), written in the same transaction.
inline constexpr char MarkTailSql[] = "INSERT INTO journal_tails (name, serial) VALUES (?, ?)"
                                      " ON CONFLICT (name) DO UPDATE SET serial = excluded.serial";
inline constexpr char TailMarkSql[] = "SELECT serial FROM journal_tails WHERE name = ?";
inline constexpr char ForgetTailSql[] = "DELETE FROM journal_tails WHERE name = ?";
} // namespace JournalSql
