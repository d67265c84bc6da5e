// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class QTimer;

/// Tells when another connection — the CLI, a second window, a served project, this
/// window's own run thread — added, ended or deleted a run in a journal (issue 20: the
/// Runs dock is live). Watching the file does not work: WAL commits do not touch the
/// main file. So every `intervalMs` it reads `PRAGMA data_version` (changes when another
/// connection commits; a few µs) and, only then, the runs' ids and statuses; runsChanged()
/// when those differ from the last look. A step committed during a run changes no run,
/// so a live run does not make the list reload every second.
class JournalWatch : public QObject
{
    Q_OBJECT

public:
    explicit JournalWatch(QObject *parent = nullptr);
    ~JournalWatch() override;

    /// Watches the journal at `path` (which may not exist yet); an empty path stops.
    void watch(const QString &path, int intervalMs = 1000);

Q_SIGNALS:
    /// Another connection committed since the last look (any write: a step too).
    void changed();
    void runsChanged();

private:
    void poll();
    void close();

    QTimer *m_timer = nullptr;
    QString m_path;
    QString m_connectionName;
    qint64 m_dataVersion = -1;
    QByteArray m_runs; ///< the last look: "id status ended_at" lines
};
