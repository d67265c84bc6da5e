// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <vector>

class QSqlDatabase;

/// The journal's SQLite schema (docs/steps.md "The journal"): its version in
/// `PRAGMA user_version` and the migrations Journal::open runs, one transaction each.
namespace JournalSchema {

/// Schema version in `PRAGMA user_version`; migrations() brings older files up to it.
inline constexpr int CurrentVersion = 10;
/// `PRAGMA application_id`: "TSJ1", so another program's SQLite file is not mistaken
/// for a journal.
inline constexpr int ApplicationId = 0x54534A31;

/// Entry `i` holds the statements that bring the schema from version `i` to `i + 1`.
const std::vector<std::vector<const char *>> &migrations();

/// Brings the open database `db` from schema `version` to CurrentVersion, one
/// transaction per version (with user_version and application_id), so a crash leaves a
/// consistent version. Empty on success, else why, without the path: "cannot migrate:
/// …" or "migration to version 6 failed: …" (that version rolled back).
QString migrate(QSqlDatabase &db, int version);

/// Makes the open database `db` a journal this studio writes: checks its header (a new
/// empty file, or a journal of CurrentVersion or older), switches it to WAL with the
/// studio's pragmas (SQLite's own checkpoint past `autoCheckpointPages`) and migrates
/// it. Empty on success, else why, without the path ("an SQLite database, but not a
/// Tool Studio journal", "journal version 12 is newer than …", or migrate()'s reasons).
QString prepare(QSqlDatabase &db, int autoCheckpointPages);

} // namespace JournalSchema
