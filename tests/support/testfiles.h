// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A file helper the window and CLI tests share.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QString>

/// Writes `text` to `path`, creating its folder first; false when any of it fails.
inline bool writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

/// The whole file, or empty when it cannot be read.
inline QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The source tree: TOOLSTUDIO_SOURCE_DIR (CTest sets it), else the tree this file is in.
inline QString sourceTreeDir()
{
    const QString fromEnv = qEnvironmentVariable("TOOLSTUDIO_SOURCE_DIR");
    return fromEnv.isEmpty() ? QFileInfo(QString::fromUtf8(__FILE__)).absolutePath() + QStringLiteral("/../..")
                             : fromEnv;
}

/// tests/data/mcp/`name`: tool lists as MCP servers send them.
inline QString mcpFixture(const char *name)
{
    return sourceTreeDir() + QStringLiteral("/tests/data/mcp/") + QString::fromLatin1(name);
}

/// TOOLSTUDIO_MCP_SERVERS_DIR/node_modules when the MCP reference servers are installed
/// there (./toolstudio.sh test installs them with npm), else empty.
inline QString referenceServerModules()
{
    const QString dir = qEnvironmentVariable("TOOLSTUDIO_MCP_SERVERS_DIR");
    return dir.isEmpty() || !QFileInfo::exists(dir + QStringLiteral("/node_modules/.bin/mcp-server-everything"))
        ? QString()
        : dir + QStringLiteral("/node_modules");
}

/// Why a suite skips when referenceServerModules() is empty.
constexpr auto ReferenceServerMissing
    = "the MCP reference server is not installed in TOOLSTUDIO_MCP_SERVERS_DIR/node_modules: ./toolstudio.sh test "
      "installs it with npm (did npm fail, or is the npm registry unreachable?)";

/// Copies resources/examples/`name` into `scratch`/`name` (without its .toolstudio
/// folder), so runs journal into a scratch folder; the copy's path, empty on failure.
inline QString copyExample(const QString &name, const QString &scratch)
{
    const QString from = sourceTreeDir() + QStringLiteral("/resources/examples/") + name;
    const QString to = QDir(scratch).filePath(name);
    if (!QFileInfo::exists(from + QStringLiteral("/toolstudio.json")) || !QDir().mkpath(to))
        return {};
    QDirIterator it(from, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(from).relativeFilePath(path);
        if (relative.startsWith(QLatin1String(".toolstudio")) || relative.contains(QLatin1String("__pycache__")))
            continue;
        const QString target = QDir(to).filePath(relative);
        if (it.fileInfo().isDir() ? !QDir().mkpath(target) : !QFile::copy(path, target))
            return {};
    }
    return to;
}
