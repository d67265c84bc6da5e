// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

class QFileSystemWatcher;
class QTimer;

/// Notices when a served project's manifest (`toolstudio.json`) changed on disk
/// (docs/server.md "When the project changes"): the file and its folder are watched
/// (editors save by writing a new file and renaming it over the old one, which ends a
/// watch on the file alone), changes are debounced by DebounceMs, and `changed` is
/// emitted only when the file's bytes differ from the last ones seen (a touch, or
/// another file of the folder changing, is nothing).
class ManifestWatch : public QObject
{
    Q_OBJECT
public:
    static constexpr int DebounceMs = 200;

    /// Watches `projectDir`/toolstudio.json, taking its bytes now as the ones served.
    explicit ManifestWatch(const QString &projectDir, QObject *parent = nullptr);
    ~ManifestWatch() override;

Q_SIGNALS:
    /// The manifest's bytes changed (or it went away) since the last signal.
    void changed();

private:
    void schedule();
    void check();
    QByteArray read() const;

    QString m_path;
    QString m_dir;
    QByteArray m_seen;
    bool m_seenExists = false;
    QFileSystemWatcher *m_watcher;
    QTimer *m_debounce;
};
