// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Journal's recovery of a dead writer's tail (docs/steps.md "The commit path"): the
// records a process left in its tail file that SQLite does not have yet are applied
// when the journal is next opened.
#include "journal/journal.h"

#include "journal/journalstatement.h"
#include "journal/journaltail.h"

#include <QFile>
#include <QFileInfo>

using JournalSql::ForgetTailSql;
using JournalSql::MarkTailSql;
using JournalSql::TailMarkSql;

QSet<QPair<qint64, qint64>> Journal::recoverTails()
{
    QSet<QPair<qint64, qint64>> left;
    for (const QString &path : JournalTail::filesOf(m_path)) {
        qint64 pid = 0;
        qint64 ticks = 0;
        JournalTail::parseName(m_path, path, &pid, &ticks);
        const bool alive = pid == selfPid() ? ticks == selfStartTicks() : ownerAlive(pid, ticks);
        if (alive)
            continue; // a live writer's (another Journal, another studio): never applied
        const QString name = QFileInfo(path).fileName();
        SqliteStatement *begin = nativeStatement("BEGIN IMMEDIATE");
        SqliteStatement *end = nativeStatement("COMMIT");
        SqliteStatement *rollback = nativeStatement("ROLLBACK");
        SqliteStatement *markOf = nativeStatement(TailMarkSql);
        QString error;
        // Under the write lock, so two processes opening at once apply it once.
        if (!begin || !end || !rollback || !markOf || !begin->run(&error)) {
            qWarning("journal: cannot apply %s now: %s", qUtf8Printable(path), qUtf8Printable(error));
            left.insert({pid, ticks});
            continue;
        }
        bool row = false;
        const quint64 after = markOf->add(name).run(&error, &row) && row ? quint64(markOf->column(0)) : 0;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) { // applied and deleted by another process meanwhile
            rollback->run(&error);
            continue;
        }
        const QByteArray bytes = file.readAll();
        file.close();
        QString note;
        int applied = 0;
        quint64 last = after;
        bool ok = true;
        JournalTail::readRecords(
            bytes,
            [&](quint64 serial, QByteArrayView ops) {
                if (serial <= after)
                    return true;
                ok = runOps(ops, &error);
                last = serial;
                applied += ok ? 1 : 0;
                return ok;
            },
            &note);
        SqliteStatement *mark = nativeStatement(MarkTailSql);
        ok = ok && (last == after || (mark && mark->add(name).add(qint64(last)).run(&error))) && end->run(&error);
        if (!ok) {
            QString ignored;
            rollback->run(&ignored);
            m_knownRuns.clear();
            m_runRows.clear();
            // One by one: a record SQLite refuses is dropped (warned), the others applied.
            bool allOk = true;
            if (!writeEach(bytes, name, after, true, &allOk).isEmpty()) {
                qWarning("journal: the commits in %s (left by process %lld) could not be applied: %s; the file is kept",
                         qUtf8Printable(path), pid, qUtf8Printable(error));
                left.insert({pid, ticks});
                continue;
            }
        } else if (applied > 0 || !note.isEmpty()) {
            qInfo("journal: applied %d commit(s) left in %s by process %lld%s", applied, qUtf8Printable(path), pid,
                  note.isEmpty() ? "" : qUtf8Printable(QStringLiteral("; ignored the rest: ") + note));
        }
        QFile::remove(path);
        SqliteStatement *forget = nativeStatement(ForgetTailSql);
        if (forget)
            forget->add(name).run(&error);
    }
    return left;
}
