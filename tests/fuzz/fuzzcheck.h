// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <cstdint>
#include <cstdlib>
#include <unistd.h>

// Helpers shared by the libFuzzer targets of untrusted files and text.
namespace FuzzCheck {

// A property the target checks: abort, so libFuzzer keeps the input as a crash.
inline void check(bool condition)
{
    if (!condition)
        std::abort();
}

inline QByteArray bytes(const std::uint8_t *data, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

// A folder of this process's own under the temp dir, for targets whose entry point
// reads a file (the same code path a user's file takes).
inline QString scratchDir()
{
    static const QString dir = [] {
        const QString path = QDir::tempPath() + QStringLiteral("/toolstudio-fuzz-%1").arg(::getpid());
        QDir().mkpath(path);
        return path;
    }();
    return dir;
}

inline void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    check(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    check(file.write(content) == content.size());
}

} // namespace FuzzCheck
