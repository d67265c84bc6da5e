// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QtGlobal>

#include <functional>
#include <string>
#include <vector>

/// The statements a tail record can hold; Journal maps each to its SQL (journal.cpp).
/// The numbers are part of the tail file format: never renumber, only add.
enum class TailStatement : quint8 {
    EnsureRun = 1,      ///< run_id, queued_at: the placeholder run row
    UpsertStep = 2,     ///< the 20 columns of a `steps` row (18 before schema 8)
    DeleteAttempts = 3, ///< run_id, sequence
    InsertAttempt = 4,  ///< the 8 columns of an `attempts` row
    InsertEvent = 5,    ///< run_id, sequence, at, kind, detail
    UnmarkTools = 6,    ///< run_id (runs.tools_indexed = 0)
    ClearTools = 7,     ///< run_id (DELETE FROM step_tools)
    InsertOutput = 8,   ///< run_id, stream, run_id, stream, chunk: a chunk of the script's output
    DeleteAttempt = 9,  ///< run_id, sequence, number: one attempt row, written again after it
};

/// One step commit as the values Journal binds to its statements (TailStatement), built
/// without touching SQLite, so the same bytes are the tail file's record and the rows
/// the next group commit writes (docs/steps.md "The commit path").
///
/// Record format (all integers little-endian):
///   u32 payload length | u32 CRC-32 (IEEE, zlib's) of the payload | payload
///   payload = u64 serial | op*
///   op      = u8 TailStatement | u8 value count | value*
///   value   = u8 type (0 null, 1 integer, 2 text, 3 blob) | i64 (integer)
///             | u32 byte count + bytes (text: UTF-8; blob)
/// The serial numbers a tail's records 1, 2, 3, ... so a group commit can say in SQLite
/// how far it got (table `journal_tails`).
class TailRecord
{
public:
    TailRecord();
    /// Empties the record (keeps its memory).
    void clear();
    /// Starts the next statement; the values that follow are its parameters, in order.
    TailRecord &op(TailStatement statement);
    TailRecord &add(qint64 value);
    TailRecord &add(int value) { return add(qint64(value)); }
    /// Text (a null QString is written as '', as the NOT NULL text columns want).
    TailRecord &add(const QString &value);
    TailRecord &add(const std::string &value);
    /// A blob, or SQL NULL when `value` is null.
    TailRecord &addBlob(const QByteArray &value);
    TailRecord &addNull();
    /// Statements in the record.
    int ops() const { return m_ops; }
    /// Fills in the header with `serial`, length and checksum; the record is then
    /// bytes(), ready to be written whole.
    void seal(quint64 serial);
    const QByteArray &bytes() const { return m_bytes; }

private:
    void bytesOf(const char *data, qsizetype size, quint8 type);
    QByteArray m_bytes;
    qsizetype m_countAt = -1; ///< offset of the current op's value count
    int m_ops = 0;
};

/// A value of a decoded op; `data`/`size` point into the decoded bytes.
struct TailValue
{
    enum Type : quint8 { Null = 0, Integer = 1, Text = 2, Blob = 3 };
    Type type = Null;
    qint64 integer = 0;
    const char *data = nullptr;
    int size = 0;
};

/// The append-only tail file of one Journal object (pid, process start, serial in its
/// name, so a reopening process can tell a dead writer's tail from a live one's), and
/// the decoding of its records.
///
/// Durability: append() is one write() into the OS page cache, the same class as the
/// journal's WAL with synchronous=NORMAL: a record survives a crash or SIGKILL of the
/// studio once append() returns, not necessarily a power loss or kernel crash. That is
/// the rule of DESIGN.md ("Steps: the engine"): a step acknowledged to the script is
/// never lost — Journal appends the step before the reply is sent.
class JournalTail
{
public:
    JournalTail() = default;
    ~JournalTail();
    JournalTail(const JournalTail &) = delete;
    JournalTail &operator=(const JournalTail &) = delete;

    /// `JOURNAL-tail.PID.STARTTICKS.N`, next to the journal file.
    static QString fileName(const QString &journalPath, qint64 pid, qint64 startTicks, int serial);
    /// Parses a name fileName() made for `journalPath` (a path or a bare file name);
    /// false for any other name.
    static bool parseName(const QString &journalPath, const QString &fileName, qint64 *pid, qint64 *startTicks);
    /// Tail files next to `journalPath` (absolute paths), whatever their owner.
    static QStringList filesOf(const QString &journalPath);

    /// Creates (or empties) the file. False with `error` ("PATH: cannot create the
    /// journal's tail: REASON").
    bool open(const QString &path, QString *error);
    bool isOpen() const { return m_fd >= 0; }
    QString path() const { return m_path; }
    /// Appends one sealed record with a single write() (O_APPEND). False with `error`
    /// when it was not written whole (the file is then cut back to its old length, so
    /// no torn record is left behind by a short write).
    bool append(const QByteArray &record, QString *error);
    /// Bytes written since the file was created or last rewound.
    qint64 size() const { return m_size; }
    /// Empties the file (after its records are in SQLite). False with `error`.
    bool rewind(QString *error);
    /// Closes and deletes the file.
    void remove();

    /// Calls `record(serial, payload ops)` for each complete record of `bytes`, in order,
    /// until it returns false. Stops at the first torn or damaged record (a crash during
    /// a write leaves at most the last one so): `note` then says where and why
    /// ("record 3 at byte 812: torn (needs 140 bytes, 60 left)"); empty when all were
    /// whole. Returns the number of records passed on.
    /// `verify` false skips the checksums (records this process sealed and kept in memory).
    static int readRecords(QByteArrayView bytes, const std::function<bool(quint64 serial, QByteArrayView ops)> &record,
                           QString *note, bool verify = true);
    /// Calls `op(statement, values)` for each op of a record's ops (readRecords()).
    /// False when the ops are malformed (cannot happen after the checksum matched,
    /// unless a newer studio wrote them) or `op` returned false.
    static bool readOps(QByteArrayView ops,
                        const std::function<bool(TailStatement statement, const std::vector<TailValue> &values)> &op);

private:
    QString m_path;
    int m_fd = -1;
    qint64 m_size = 0; ///< bytes written since the last rewind
};
