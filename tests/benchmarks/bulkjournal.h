// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "journal/journal.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>

/// Creates a journal at `path` (Journal::open writes the current schema) and runs
/// `statements` on it in one transaction with synchronous=OFF: how the benchmarks
/// build journals of a million steps in seconds (recursive-CTE inserts). Runs that are
/// not live get their by-tool rows, as Journal::recordRun writes them when a run ends.
inline void fillJournal(const QString &path, const QStringList &statements)
{
    {
        Journal journal;
        journal.open(path);
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bulk"));
        db.setDatabaseName(path);
        db.open();
        QSqlQuery query(db);
        query.exec(QStringLiteral("PRAGMA synchronous=OFF"));
        db.transaction();
        for (const QString &statement : statements)
            query.exec(statement);
        // What Journal::recordRun writes when a run ends (schema 6): its by-tool rows.
        query.exec(QStringLiteral(
            "INSERT OR IGNORE INTO step_tools (run_id, tool, sequence) SELECT run_id, tool, sequence FROM steps"
            " WHERE run_id IN (SELECT id FROM runs WHERE status NOT IN ('running', 'waiting'))"));
        query.exec(QStringLiteral("UPDATE runs SET tools_indexed = 1 WHERE status NOT IN ('running', 'waiting')"));
        db.commit();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bulk"));
}
