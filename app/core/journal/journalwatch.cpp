// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journalwatch.h"

#include <QAtomicInteger>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTimer>
#include <QVariant>

#include <utility>

namespace {
QAtomicInteger<quint64> nextConnection;
}

JournalWatch::JournalWatch(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
    , m_connectionName(QStringLiteral("journal-watch-%1").arg(nextConnection.fetchAndAddRelaxed(1)))
{
    connect(m_timer, &QTimer::timeout, this, &JournalWatch::poll);
}

JournalWatch::~JournalWatch()
{
    close();
}

void JournalWatch::close()
{
    if (QSqlDatabase::contains(m_connectionName)) {
        QSqlDatabase::database(m_connectionName, false).close();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
    m_dataVersion = -1;
    m_runs.clear();
}

void JournalWatch::watch(const QString &path, int intervalMs)
{
    m_timer->stop();
    close();
    m_path = path;
    if (path.isEmpty())
        return;
    m_timer->start(intervalMs);
    // The first look is the baseline: no signal for what is there now. No journal yet
    // means no runs, so the first run another process writes is news.
    if (!QFileInfo::exists(path))
        m_runs = QByteArray("");
    poll();
}

void JournalWatch::poll()
{
    // Opened lazily: a project never run has no journal, and opening would create one.
    if (!QSqlDatabase::contains(m_connectionName)) {
        if (!QFileInfo::exists(m_path))
            return;
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
        db.setDatabaseName(m_path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=100"));
        if (!db.open()) {
            close();
            return;
        }
    }
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    if (!query.exec(QStringLiteral("PRAGMA data_version")) || !query.next())
        return;
    const qint64 version = query.value(0).toLongLong();
    if (version == m_dataVersion)
        return;
    if (std::exchange(m_dataVersion, version) != -1)
        Q_EMIT changed();
    if (!query.exec(QStringLiteral("SELECT id, status, ended_at FROM runs ORDER BY id")))
        return;
    QByteArray runs;
    while (query.next())
        runs += query.value(0).toByteArray() + ' ' + query.value(1).toByteArray() + ' ' + query.value(2).toByteArray()
            + '\n';
    query.finish();
    const bool first = m_runs.isNull();
    const bool changed = runs != m_runs;
    m_runs = runs.isNull() ? QByteArray("") : runs;
    if (changed && !first)
        Q_EMIT runsChanged();
}
