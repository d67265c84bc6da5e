// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/journalschema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <unistd.h>

namespace JournalSchema {

/// Each entry brings the schema from version `index` to `index + 1`. Add new versions
/// at the end; never edit a shipped one.
const std::vector<std::vector<const char *>> &migrations()
{
    static const std::vector<std::vector<const char *>> steps = {
        // 0 → 1: runs, steps, attempts, output
        {
            "CREATE TABLE runs ("
            " id TEXT PRIMARY KEY,"
            " project_dir TEXT NOT NULL DEFAULT '',"
            " script_path TEXT NOT NULL DEFAULT '',"
            " status TEXT NOT NULL,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " exit_code INTEGER NOT NULL DEFAULT -1,"
            " error TEXT NOT NULL DEFAULT '')",
            "CREATE TABLE steps ("
            " run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
            " sequence INTEGER NOT NULL,"
            " call_id TEXT NOT NULL,"
            " tool TEXT NOT NULL,"
            " args TEXT NOT NULL,"
            " idempotency_key TEXT NOT NULL,"
            " status TEXT NOT NULL,"
            " max_attempts INTEGER NOT NULL,"
            " result TEXT,"
            " error TEXT,"
            " queued_at INTEGER NOT NULL DEFAULT 0,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " next_attempt_at INTEGER NOT NULL DEFAULT 0,"
            " PRIMARY KEY (run_id, sequence))",
            "CREATE TABLE attempts ("
            " run_id TEXT NOT NULL,"
            " sequence INTEGER NOT NULL,"
            " number INTEGER NOT NULL,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " succeeded INTEGER NOT NULL DEFAULT 0,"
            " error TEXT,"
            " output BLOB,"
            " PRIMARY KEY (run_id, sequence, number),"
            " FOREIGN KEY (run_id, sequence) REFERENCES steps(run_id, sequence) ON DELETE CASCADE)",
            "CREATE TABLE output ("
            " run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
            " stream INTEGER NOT NULL,"
            " seq INTEGER NOT NULL,"
            " chunk BLOB NOT NULL,"
            " PRIMARY KEY (run_id, stream, seq))",
        },
        // 1 → 2: durable steps (issue 5): how a run came about and who owns it, the
        // argument hash replay matches on, policy events, answers from other processes.
        {
            "ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'run'",
            "ALTER TABLE runs ADD COLUMN source_run TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE runs ADD COLUMN owner_pid INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE runs ADD COLUMN owner_start INTEGER NOT NULL DEFAULT 0",
            "CREATE INDEX runs_by_start ON runs (started_at)",
            "CREATE INDEX runs_live ON runs (status) WHERE status IN ('running', 'waiting')",
            "ALTER TABLE steps ADD COLUMN args_hash TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE steps ADD COLUMN original_args TEXT",
            "ALTER TABLE steps ADD COLUMN divergence TEXT NOT NULL DEFAULT ''",
            "CREATE TABLE policy_events ("
            " id INTEGER PRIMARY KEY,"
            " run_id TEXT NOT NULL,"
            " sequence INTEGER NOT NULL DEFAULT 0,"
            " at INTEGER NOT NULL,"
            " kind TEXT NOT NULL,"
            " detail TEXT NOT NULL DEFAULT '{}')",
            "CREATE INDEX policy_events_by_run ON policy_events (run_id, id)",
            "CREATE TABLE pending_answers ("
            " id INTEGER PRIMARY KEY,"
            " run_id TEXT NOT NULL,"
            " call_id TEXT NOT NULL,"
            " attempt INTEGER NOT NULL,"
            " answer TEXT NOT NULL,"
            " created_at INTEGER NOT NULL,"
            " state TEXT NOT NULL DEFAULT 'new',"
            " reason TEXT NOT NULL DEFAULT '',"
            " handled_at INTEGER NOT NULL DEFAULT 0)",
            "CREATE INDEX pending_answers_new ON pending_answers (run_id, state)",
        },
        // 2 → 3: the trace's filters at a million steps (issue 8; JournalReader): by tool,
        // and partial indexes that only hold failed/waiting steps and failed attempts, so
        // a step that succeeds at once dirties one more page per commit, not three.
        {
            "CREATE INDEX steps_by_tool ON steps (run_id, tool, sequence)",
            "CREATE INDEX steps_failed ON steps (run_id, sequence) WHERE status = 'failed'",
            "CREATE INDEX steps_waiting ON steps (run_id, sequence) WHERE status = 'waiting'",
            "CREATE INDEX attempts_failed ON attempts (run_id, sequence) WHERE ended_at > 0 AND succeeded = 0",
        },
        // 3 → 4: steps and attempts WITHOUT ROWID (issue 4, bridge speed): the rows live
        // in their primary-key b-tree, so a step's commit no longer dirties a rowid table
        // page and a separate primary-key index page per table (WAL bytes per trivial
        // commit 22.5 → 16.3 KB, commit CPU ~41 → ~32 µs in a SQLite micro-benchmark).
        // Tables cannot change that in place: the old ones are renamed (which points
        // attempts' foreign key at steps_v3), copied, and dropped children first, so the
        // cascade of dropping steps_v3 reaches nothing; the trace's indexes are rebuilt.
        {
            "ALTER TABLE attempts RENAME TO attempts_v3",
            "ALTER TABLE steps RENAME TO steps_v3",
            "CREATE TABLE steps ("
            " run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
            " sequence INTEGER NOT NULL,"
            " call_id TEXT NOT NULL,"
            " tool TEXT NOT NULL,"
            " args TEXT NOT NULL,"
            " idempotency_key TEXT NOT NULL,"
            " status TEXT NOT NULL,"
            " max_attempts INTEGER NOT NULL,"
            " result TEXT,"
            " error TEXT,"
            " queued_at INTEGER NOT NULL DEFAULT 0,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " next_attempt_at INTEGER NOT NULL DEFAULT 0,"
            " args_hash TEXT NOT NULL DEFAULT '',"
            " original_args TEXT,"
            " divergence TEXT NOT NULL DEFAULT '',"
            " PRIMARY KEY (run_id, sequence)) WITHOUT ROWID",
            "CREATE TABLE attempts ("
            " run_id TEXT NOT NULL,"
            " sequence INTEGER NOT NULL,"
            " number INTEGER NOT NULL,"
            " started_at INTEGER NOT NULL DEFAULT 0,"
            " ended_at INTEGER NOT NULL DEFAULT 0,"
            " succeeded INTEGER NOT NULL DEFAULT 0,"
            " error TEXT,"
            " output BLOB,"
            " PRIMARY KEY (run_id, sequence, number),"
            " FOREIGN KEY (run_id, sequence) REFERENCES steps(run_id, sequence) ON DELETE CASCADE) WITHOUT ROWID",
            "INSERT INTO steps (run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts, result,"
            " error, queued_at, started_at, ended_at, next_attempt_at, args_hash, original_args, divergence)"
            " SELECT run_id, sequence, call_id, tool, args, idempotency_key, status, max_attempts, result,"
            " error, queued_at, started_at, ended_at, next_attempt_at, args_hash, original_args, divergence"
            " FROM steps_v3",
            "INSERT INTO attempts (run_id, sequence, number, started_at, ended_at, succeeded, error, output)"
            " SELECT run_id, sequence, number, started_at, ended_at, succeeded, error, output FROM attempts_v3",
            "DROP TABLE attempts_v3",
            "DROP TABLE steps_v3",
            "CREATE INDEX steps_by_tool ON steps (run_id, tool, sequence)",
            "CREATE INDEX steps_failed ON steps (run_id, sequence) WHERE status = 'failed'",
            "CREATE INDEX steps_waiting ON steps (run_id, sequence) WHERE status = 'waiting'",
            "CREATE INDEX attempts_failed ON attempts (run_id, sequence) WHERE ended_at > 0 AND succeeded = 0",
        },
        // 4 → 5: a step whose one attempt succeeded at once keeps that attempt in its own
        // row (issue 4, bridge speed; JournalRows::foldsAttempt): such a step's commit
        // writes no `attempts` row and so dirties one page fewer. Existing rows stay as
        // they are (0 = attempts in their table).
        {
            "ALTER TABLE steps ADD COLUMN attempt_ended_at INTEGER NOT NULL DEFAULT 0",
        },
        // 5 → 6: the trace's by-tool index out of the step-commit path (issue 4, bridge
        // speed): steps_by_tool cost every commit one more WAL frame (~8-10 µs). Its
        // entries now live in step_tools, written for a whole run when it stops being
        // live (Journal::recordRun) and marked complete by runs.tools_indexed; a live
        // run's tool filter scans its rows (JournalReader).
        {
            "CREATE TABLE step_tools ("
            " run_id TEXT NOT NULL,"
            " tool TEXT NOT NULL,"
            " sequence INTEGER NOT NULL,"
            " PRIMARY KEY (run_id, tool, sequence)) WITHOUT ROWID",
            "ALTER TABLE runs ADD COLUMN tools_indexed INTEGER NOT NULL DEFAULT 0",
            "INSERT INTO step_tools (run_id, tool, sequence) SELECT run_id, tool, sequence FROM steps"
            " WHERE run_id IN (SELECT id FROM runs WHERE status NOT IN ('running', 'waiting'))",
            "UPDATE runs SET tools_indexed = 1 WHERE status NOT IN ('running', 'waiting')",
            "DROP INDEX steps_by_tool",
        },
        // 6 → 7: group commit (issue 4, bridge speed; journaltail.h): a step's commit goes
        // to its writer's tail file first and into SQLite with the next group commit, which
        // records here, in the same transaction, the serial of the last tail record it
        // wrote — so a tail found after a crash is applied exactly once.
        {
            "CREATE TABLE journal_tails ("
            " name TEXT PRIMARY KEY,"
            " serial INTEGER NOT NULL) WITHOUT ROWID",
        },
        // 7 → 8: a step memoized in a new run (replay, rerun, cassette) has that run's
        // times (the moment it was served); the recorded run's timing of it is kept here
        // for the inspector (issue 17; Step::recordedStartedAt). 0 = not memoized from
        // another run (older rows: their times were the recorded run's).
        {
            "ALTER TABLE steps ADD COLUMN recorded_started_at INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE steps ADD COLUMN recorded_ended_at INTEGER NOT NULL DEFAULT 0",
        },
        // 8 → 9: an MCP attempt's JSON-RPC exchange for the inspector's Protocol tab
        // (issue 21; Attempt::protocol), compact JSON. NULL = none (other handlers,
        // older rows).
        {
            "ALTER TABLE attempts ADD COLUMN protocol TEXT",
        },
        // 9 → 10: the time a person was waited for, apart from the time a step ran (the
        // timeline's waiting segments; docs/trace.md): an attempt's waits for a person
        // as [[asked_at, answered_at], ...] (Attempt::personWaits; NULL = none, as in
        // older rows), and the start of a step-mode hold (Step::heldAt; 0 = none).
        {
            "ALTER TABLE attempts ADD COLUMN person_waits TEXT",
            "ALTER TABLE steps ADD COLUMN held_at INTEGER NOT NULL DEFAULT 0",
        },
    };
    return steps;
}

QString migrate(QSqlDatabase &db, int version)
{
    QSqlQuery query(db);
    auto rollBack = [&query](const QString &why) {
        query.exec(QStringLiteral("ROLLBACK"));
        return why;
    };
    for (int from = version; from < CurrentVersion; ++from) {
        // IMMEDIATE: the write lock first (waiting out another process's step, within the
        // busy timeout), then the version again under it. Two studios opening a new
        // journal at once (a served client and `toolstudio runs`) each read the version
        // before either migrated; the second now finds the steps the first made and
        // skips them, where it failed ("table runs already exists") or left a journal
        // no later open could migrate.
        if (!query.exec(QStringLiteral("BEGIN IMMEDIATE")))
            return QStringLiteral("cannot migrate: %1").arg(query.lastError().text());
        if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next())
            return rollBack(QStringLiteral("cannot migrate: %1").arg(query.lastError().text()));
        const int now = query.value(0).toInt();
        query.finish();
        if (now > from) {
            query.exec(QStringLiteral("ROLLBACK"));
            from = now - 1; // another process got there first
            continue;
        }
        QString failed;
        for (const char *statement : migrations()[std::size_t(from)]) {
            if (!query.exec(QString::fromLatin1(statement))) {
                failed = query.lastError().text();
                break;
            }
        }
        if (failed.isEmpty()
            && !(query.exec(QStringLiteral("PRAGMA user_version = %1").arg(from + 1))
                 && query.exec(QStringLiteral("PRAGMA application_id = %1").arg(ApplicationId))
                 && query.exec(QStringLiteral("COMMIT"))))
            failed = query.lastError().text();
        if (!failed.isEmpty())
            return rollBack(QStringLiteral("migration to version %1 failed: %2").arg(from + 1).arg(failed));
    }
    return QString();
}

QString prepare(QSqlDatabase &db, int autoCheckpointPages)
{
    QSqlQuery query(db);
    // The first read of the header tells a database from any other file. One statement,
    // one snapshot: another process may be creating this journal meanwhile (its version
    // and its tables are read as of the same commit).
    if (!query.exec(QStringLiteral("SELECT (SELECT user_version FROM pragma_user_version),"
                                   " (SELECT application_id FROM pragma_application_id),"
                                   " (SELECT count(*) FROM sqlite_master)"))
        || !query.next())
        return QStringLiteral("not a Tool Studio journal (%1)").arg(query.lastError().databaseText());
    const int version = query.value(0).toInt();
    const int applicationId = query.value(1).toInt();
    const int objects = query.value(2).toInt();

    if (version == 0 && objects > 0)
        return QStringLiteral("an SQLite database, but not a Tool Studio journal");
    if (version > 0 && applicationId != ApplicationId)
        return QStringLiteral("an SQLite database, but not a Tool Studio journal (application id %1)")
            .arg(applicationId);
    if (version > CurrentVersion)
        return QStringLiteral("journal version %1 is newer than this Tool Studio supports (%2); update Tool Studio")
            .arg(version)
            .arg(CurrentVersion);

    // WAL: readers (the UI, a second Journal) never block the writer; NORMAL: a commit
    // survives a crash of the studio, not necessarily a power loss. The switch of a new
    // journal takes an exclusive lock, for which SQLite does not wait: another process
    // switching it at the same moment makes it fail ("database is locked"), so it is
    // tried again for up to five seconds.
    bool wal = false;
    for (int tries = 0; !wal && tries < 500; ++tries) {
        wal = query.exec(QStringLiteral("PRAGMA journal_mode=WAL")) && query.next()
            && query.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) == 0;
        if (!wal && query.lastError().nativeErrorCode() != QLatin1String("5")) // SQLITE_BUSY
            break;
        if (!wal)
            ::usleep(10000);
    }
    if (!wal)
        return QStringLiteral("cannot switch to WAL mode (%1)").arg(query.lastError().text());
    if (!query.exec(QStringLiteral("PRAGMA synchronous=NORMAL"))
        || !query.exec(QStringLiteral("PRAGMA foreign_keys=ON"))
        || !query.exec(QStringLiteral("PRAGMA wal_autocheckpoint=%1").arg(autoCheckpointPages)))
        return query.lastError().text();
    query.finish();
    return migrate(db, version);
}

} // namespace JournalSchema
