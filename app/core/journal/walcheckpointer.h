// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QThread>

#include <atomic>

class QObject;

/// Checkpoints a journal's WAL from a thread and SQLite connection of its own.
/// PASSIVE never blocks the writer, so the fsync of a checkpoint is not paid between
/// a step's commit and its reply. Its connection is opened, used and closed on its
/// thread (Qt SQL connections are per thread). Journal starts one with its first
/// commits and requests a checkpoint every so many step commits.
class WalCheckpointer
{
public:
    /// Starts the thread; the connection to the journal at `path` opens with the first
    /// request().
    explicit WalCheckpointer(const QString &path);
    /// Closes the connection on its thread, then stops the thread.
    ~WalCheckpointer();
    WalCheckpointer(const WalCheckpointer &) = delete;
    WalCheckpointer &operator=(const WalCheckpointer &) = delete;

    /// Starts a checkpoint unless one is still going.
    void request();

private:
    QString m_path;
    QString m_name;
    QThread m_thread;
    QObject *m_context = nullptr;
    std::atomic<bool> m_busy{false};
};
