// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "journal/walcheckpointer.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace {

std::atomic<int> checkpointerCounter{0};

} // namespace

WalCheckpointer::WalCheckpointer(const QString &path)
    : m_path(path)
    , m_name(QStringLiteral("toolstudio-wal-%1").arg(++checkpointerCounter))
{
    m_thread.setObjectName(QStringLiteral("toolstudio-wal"));
    m_thread.start(QThread::LowPriority);
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
}

WalCheckpointer::~WalCheckpointer()
{
    QMetaObject::invokeMethod(
        m_context,
        [this] {
            if (QSqlDatabase::contains(m_name)) {
                QSqlDatabase::database(m_name, false).close();
                QSqlDatabase::removeDatabase(m_name);
            }
        },
        Qt::BlockingQueuedConnection);
    m_context->deleteLater();
    m_thread.quit();
    m_thread.wait();
}

void WalCheckpointer::request()
{
    if (m_busy.exchange(true))
        return;
    QMetaObject::invokeMethod(
        m_context,
        [this] {
            if (!QSqlDatabase::contains(m_name)) {
                QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
                db.setDatabaseName(m_path);
                db.open();
            }
            {
                QSqlQuery query(QSqlDatabase::database(m_name, false));
                query.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)"));
            }
            m_busy = false;
        },
        Qt::QueuedConnection);
}
