// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "manifestwatch.h"

#include "posixutil.h"
#include "project/project.h"

#include <QDir>
#include <QFile>
#include <QFileSystemWatcher>
#include <QTimer>

ManifestWatch::ManifestWatch(const QString &projectDir, QObject *parent)
    : QObject(parent)
    , m_path(QDir(projectDir).filePath(QStringLiteral("toolstudio.json")))
    , m_dir(projectDir)
    , m_watcher(new QFileSystemWatcher(this))
    , m_debounce(new QTimer(this))
{
    m_seenExists = QFile::exists(m_path);
    m_seen = read();
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(DebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &ManifestWatch::check);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &ManifestWatch::schedule);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &ManifestWatch::schedule);
    m_watcher->addPath(m_dir);
    if (m_seenExists)
        m_watcher->addPath(m_path);
}

ManifestWatch::~ManifestWatch() = default;

void ManifestWatch::schedule()
{
    // A file replaced by rename is no longer watched: watch the new one.
    if (!m_watcher->files().contains(m_path) && QFile::exists(m_path))
        m_watcher->addPath(m_path);
    m_debounce->start();
}

void ManifestWatch::check()
{
    const bool exists = QFile::exists(m_path);
    const QByteArray now = read();
    if (exists == m_seenExists && now == m_seen)
        return;
    m_seenExists = exists;
    m_seen = now;
    Q_EMIT changed();
}

QByteArray ManifestWatch::read() const
{
    // Never blocks (a FIFO) nor reads more than a manifest may be: what cannot be read
    // is its reason, so a change to or from it is still a change (Project::load says why).
    std::string bytes;
    if (!PosixUtil::readRegularFile(QFile::encodeName(m_path).toStdString(), Project::MaxManifestBytes, &bytes))
        return QByteArrayLiteral("\0unreadable: ") + QByteArray::fromStdString(PosixUtil::errnoText(errno));
    return QByteArray::fromStdString(bytes);
}
